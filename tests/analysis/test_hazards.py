"""Risks that name the mechanism a diff line sets in motion: TLS checks turned off, environment
variables set for the whole process, a new switch that is on by default, a deleted module, an edited
mask in loss or advantage code. Each is checked in both languages, on several shapes of the same
mechanism, and against its look-alikes that are no such risk."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.types import Risk
from chatbot.models import PRFile, PullRequest

from .builders import changed, make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()


def risks(pr: PullRequest, language: str = "en") -> list[str]:
    return list(ANALYZER.analyze(pr).localized(language).risks)


def stored(pr: PullRequest) -> tuple[Risk, ...]:
    return ANALYZER.analyze(pr).risks


def grounded_in_both(pr: PullRequest) -> None:
    for language in ("zh", "en"):
        texts = ANALYZER.analyze(pr).localized(language)
        assert not ungrounded(pr, [*texts.risks, *texts.key_points]), language


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ("docker/Dockerfile.npu", "ENV GIT_SSL_NO_VERIFY=true"),
        ("docker/Dockerfile.rocm", "RUN pip config set global.trusted-host mirrors.example.com"),
        ("docker/Dockerfile.cuda", "RUN wget --no-check-certificate https://example.com/cann.run"),
        ("src/pkg/hub.py", "    response = requests.get(url, verify=False)"),
        ("scripts/install.sh", "curl -k -L https://example.com/get.sh | bash"),
    ],
)
def test_turning_tls_checks_off_is_a_security_risk_naming_the_line(path: str, line: str) -> None:
    pr = make_pr("update install", files=[changed(path, [line])], repo="acme/trainer")
    found = [r for r in stored(pr) if r.category == "security"]
    assert found and path in found[0].evidence
    en, zh = risks(pr, "en"), risks(pr, "zh")
    assert any("TLS" in r and path in r for r in en) and any("TLS" in r and path in r for r in zh)
    grounded_in_both(pr)


def test_tls_checks_off_only_in_ci_is_a_low_risk_and_docs_are_none() -> None:
    ci = make_pr(
        "ci mirror",
        files=[
            changed(".github/workflows/npu.yml", ["  - run: pip config set global.trusted-host 10.0.0.1"])
        ],
    )
    assert [r.severity for r in stored(ci) if r.category == "security"] == ["low"]
    docs = make_pr(
        "docs",
        files=[changed("docs/install.md", ["Use `pip install --trusted-host mirror` behind a proxy."])],
    )
    assert not [r for r in stored(docs) if r.category == "security"]


ENV_SET = changed(
    "verl/workers/rollout/sglang_rollout.py",
    [
        "def _set_envs_and_config(server_args):",
        '    os.environ["NCCL_CUMEM_ENABLE"] = "0"',
        '    os.environ.setdefault("TORCH_NCCL_AVOID_RECORD_STREAMS", "1")',
        '    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"',
    ],
)


def test_environment_variables_a_process_sets_are_a_config_risk_naming_them_and_their_values() -> None:
    pr = make_pr("[rollout] feat: async sglang", files=[ENV_SET])
    for language in ("zh", "en"):
        config = [r for r in risks(pr, language) if "NCCL_CUMEM_ENABLE=0" in r]
        assert config and "TORCH_NCCL_AVOID_RECORD_STREAMS=1" in config[0]
        assert "TF_CPP_MIN_LOG_LEVEL" not in config[0]  # a log level is routine
        points = ANALYZER.analyze(pr).localized(language).key_points
        assert any("NCCL_CUMEM_ENABLE=0" in p for p in points)
    assert any(r.category == "config" and "NCCL_CUMEM_ENABLE" in r.evidence for r in stored(pr))
    grounded_in_both(pr)


def test_reading_an_environment_variable_is_no_such_risk() -> None:
    pr = make_pr(
        "read spill dir",
        files=[changed("verl/workers/offload.py", ['    spill = os.environ.get("VERL_SPILL_DIR", "/tmp")'])],
    )
    assert not any("environment variables set" in r for r in risks(pr))


@pytest.mark.parametrize(
    ("path", "added"),
    [
        ("verl/trainer/config/ppo_trainer.yaml", ["  checkpoint_engine:", "    enable: True"]),
        ("src/trainer/config.py", ["    use_async_sync: bool = True"]),
    ],
    ids=["yaml", "dataclass"],
)
def test_a_new_switch_that_is_on_by_default_is_a_config_risk(path: str, added: list[str]) -> None:
    pr = make_pr(
        "feat: faster weight sync",
        files=[changed(path, added, ["  other: 1"] if path.endswith("yaml") else [])],
    )
    for language in ("zh", "en"):
        assert any(path in r and ("on by default" in r or "默认开启" in r) for r in risks(pr, language))
    grounded_in_both(pr)


def test_a_new_file_or_a_disable_switch_is_not_on_by_default() -> None:
    new_file = changed("verl/trainer/config/sync.yaml", ["enable: True"], status="added")
    off = changed("verl/trainer/config/ppo_trainer.yaml", ["  disable_log_stats: True"], ["  other: 1"])
    for files in ([new_file], [off]):
        assert not any("on by default" in r for r in risks(make_pr("feat: sync", files=files)))


@pytest.mark.parametrize(
    "added",
    [
        ["optimizer: adam", "muon_momentum: 0.95", "muon_nesterov: false", "muon_split_qkv: true"],
        ["  lora_rank: 8", "  lora_alpha: 16", "  lora_fuse_qkv: True"],
    ],
)
def test_a_switch_among_a_new_features_options_is_not_on_by_default_for_existing_runs(
    added: list[str],
) -> None:
    """A new optimizer's or adapter's block of options (several new keys of one prefix) is read only
    when that feature is chosen: its `true` switch changes nothing for runs that do not choose it."""
    files = [changed("verl/trainer/config/optim/megatron.yaml", added, ["clip_grad: 1.0"])]
    for language in ("zh", "en"):
        assert not any(
            "on by default" in r or "默认开启" in r
            for r in risks(make_pr("feat: muon", files=files), language)
        )


def test_switches_that_only_share_a_use_or_enable_word_are_each_on_by_default() -> None:
    added = [
        "    use_dynamic_bsz: bool = True",
        "    use_remove_padding: bool = True",
        "    use_fused: bool = True",
    ]
    files = [changed("src/trainer/engine_config.py", added)]
    assert any("on by default" in r for r in risks(make_pr("feat: engine", files=files)))


def test_a_deleted_package_is_a_compatibility_risk_naming_the_module_importers_lose() -> None:
    files = [
        changed(
            "verl/third_party/sglang/__init__.py", removed=["from .engine import Engine"], status="removed"
        ),
        changed("verl/third_party/sglang/engine.py", removed=["class Engine:", "    pass"], status="removed"),
    ]
    pr = make_pr("[sglang] chore: delete the spmd code", files=files)
    for language in ("zh", "en"):
        assert any(
            "verl.third_party.sglang" in r and ("fails at the import" in r or "导入时失败" in r)
            for r in risks(pr, language)
        )
        assert not any("verl.third_party.sglang.engine" in r for r in risks(pr, language))
    grounded_in_both(pr)


def test_a_module_that_moves_or_a_deleted_test_is_no_deleted_module() -> None:
    moved = [
        changed("src/pkg/old/helpers.py", removed=["def helper():", "    pass"], status="removed"),
        changed("src/pkg/new/helpers.py", ["def helper():", "    pass"], status="added"),
    ]
    test = [changed("tests/test_helpers.py", removed=["def test_x():", "    pass"], status="removed")]
    for files in (moved, test):
        assert not any(
            ("fails at the import" in r or "导入时失败" in r)
            for r in risks(make_pr("move helpers", files=files, repo="acme/pkg"))
        )


CRITIC = PRFile(
    filename="verl/workers/critic/megatron_critic.py",
    status="modified",
    additions=2,
    deletions=1,
    patch="\n".join(
        [
            "@@ -117,3 +117,4 @@ class MegatronPPOCritic(BasePPOCritic):",
            "     def compute_values(self, data):",
            "-            values = values * attention_mask",
            "+            response_mask = attention_mask[:, -response_length:]",
            "+            values = values * response_mask",
        ]
    ),
)
RENAMED_MASK = PRFile(
    filename="verl/trainer/ppo/core_algos.py",
    status="modified",
    additions=1,
    deletions=1,
    patch="\n".join(
        [
            "@@ -10,2 +10,2 @@ def compute_gae_advantage_return(values, eos_mask):",
            "-    advantages = masked_whiten(advantages, eos_mask)",
            "+    advantages = masked_whiten(advantages, response_mask)",
        ]
    ),
)


def test_an_edited_mask_in_value_code_is_a_correctness_risk_naming_the_function() -> None:
    pr = make_pr("[critic] fix: values of EOS tokens", files=[CRITIC])
    for language in ("zh", "en"):
        masking = [
            r for r in risks(pr, language) if "compute_values" in r and ("masking" in r or "掩码" in r)
        ]
        assert masking, risks(pr, language)
    grounded_in_both(pr)


def test_a_renamed_mask_is_no_masking_change() -> None:
    pr = make_pr("refactor: rename eos_mask", files=[RENAMED_MASK])
    assert not any("masking" in r for r in risks(pr))


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("    state = torch.load(path, weights_only=False)", "weights_only=True"),
        ("    message = pickle.loads(payload)", "unpickling"),
        ("    tok = AutoTokenizer.from_pretrained(path, trust_remote_code=True)", "model repository"),
        ("    subprocess.run(cmd, shell=True)", "shell"),
    ],
)
def test_an_unsafe_call_is_named_with_what_it_does(line: str, said: str) -> None:
    pr = make_pr("feat: load state", files=[changed("src/pkg/state.py", [line])], repo="acme/pkg")
    en = [r for r in risks(pr, "en") if "src/pkg/state.py" in r and said in r]
    zh = [r for r in risks(pr, "zh") if "src/pkg/state.py" in r]
    assert en and zh and "`" in en[0]
    grounded_in_both(pr)


def test_verify_false_is_said_once_as_tls_checks_off() -> None:
    pr = make_pr(
        "feat: hub",
        files=[changed("src/pkg/hub.py", ["    r = requests.get(url, verify=False)"])],
        repo="acme/pkg",
    )
    assert len([r for r in stored(pr) if r.category == "security"]) == 1


def test_the_same_switch_in_two_config_files_is_one_option() -> None:
    files = [
        changed(
            f"recipe/async/config/{name}.yaml", ["  checkpoint_engine:", "    enable: True"], ["  other: 1"]
        )
        for name in ("fsdp_trainer", "megatron_trainer")
    ]
    found = [r for r in risks(make_pr("feat: sync engine", files=files)) if "on by default" in r]
    assert found and found[0].startswith("new option checkpoint_engine.enable is on by default"), found
