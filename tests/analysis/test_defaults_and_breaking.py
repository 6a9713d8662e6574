"""Changed defaults in Python code, breaking changes in the author's words, and PRs that only delete:
each class on bodies of several shapes (no template, Chinese, bullets only, empty). Assertions are on
where a sentence comes from (the diff, the description), not on its exact words."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import extract_features, python_defaults
from chatbot.analysis.modules import load_module_map
from chatbot.analysis.types import Analysis
from chatbot.models import PRFile, PullRequest

from .builders import changed, code, make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()
BODIES = {
    "no template": "Lower the vLLM memory share so the trainer fits beside it on 24 GB cards.",
    "chinese": "降低 vLLM 的显存占比，让训练进程在 24GB 显卡上也能同时运行。",
    "bullets only": "- lower the vLLM memory share\n- the trainer now fits on 24 GB cards",
    "empty": "",
}


def analyze(pr: PullRequest, language: str = "en") -> Analysis:
    return ANALYZER.analyze(pr, language=language)  # type: ignore[arg-type]


def patched(path: str, patch: str) -> PRFile:
    plus = sum(1 for line in patch.split("\n") if line.startswith("+"))
    minus = sum(1 for line in patch.split("\n") if line.startswith("-"))
    return PRFile(path, "modified", plus, minus, patch)


DATACLASS = """@@ -40,7 +40,7 @@ class VllmArguments:
     vllm_maxlen: int = 4096
-    gpu_memory_utilization: float = 0.9
+    gpu_memory_utilization: float = 0.7
     enforce_eager: bool = False"""
FIELD = """@@ -50,7 +50,7 @@ class VllmArguments:
     vllm_gpu_util: float = field(
-        default=0.9,
+        default=0.7,
         metadata={"help": "The share of GPU memory vLLM may use."},
     )"""
ARGPARSE = """@@ -80,8 +80,8 @@ def build_parser():
     parser.add_argument(
         "--gpu-memory-utilization",
         type=float,
-        default=0.9,
+        default=0.7,
     )"""
ARGPARSE_ONE_LINE = """@@ -90,3 +90,3 @@ def build_parser():
-    parser.add_argument("--gpu-memory-utilization", type=float, default=0.9)
+    parser.add_argument("--gpu-memory-utilization", type=float, default=0.7)
     return parser"""
KEYWORD = """@@ -10,8 +10,8 @@ class LLMEngine:
     def __init__(
         self,
         model: str,
-        gpu_memory_utilization: float = 0.9,
+        gpu_memory_utilization: float = 0.7,
     ):
         self.model = model"""
KEYWORD_ONE_LINE = """@@ -20,3 +20,3 @@ import torch
-def init_engine(model, gpu_memory_utilization=0.9, seed=0):
+def init_engine(model, gpu_memory_utilization=0.7, seed=0):
     return LLMEngine(model)"""
CONSTANT = """@@ -1,4 +1,4 @@ import os
-GPU_MEMORY_UTILIZATION = 0.9
+GPU_MEMORY_UTILIZATION = 0.7
 MAX_MODEL_LEN = 4096"""

DEFAULTS = {
    "dataclass field": (DATACLASS, "VllmArguments.gpu_memory_utilization"),
    "field(default=…)": (FIELD, "VllmArguments.vllm_gpu_util"),
    "argparse over lines": (ARGPARSE, "--gpu-memory-utilization"),
    "argparse on one line": (ARGPARSE_ONE_LINE, "--gpu-memory-utilization"),
    "keyword of __init__": (KEYWORD, "LLMEngine(gpu_memory_utilization)"),
    "keyword on the def line": (KEYWORD_ONE_LINE, "init_engine(gpu_memory_utilization)"),
    "module constant": (CONSTANT, "GPU_MEMORY_UTILIZATION"),
}


@pytest.mark.parametrize("shape", list(DEFAULTS))
def test_a_python_default_change_is_read_with_its_key_and_values(shape: str) -> None:
    patch, key = DEFAULTS[shape]
    [change] = python_defaults("src/engine/args.py", patch)
    assert (change.key, change.old, change.new) == (key, "0.9", "0.7")


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("shape", list(DEFAULTS))
def test_a_changed_python_default_is_a_key_point_and_a_behaviour_risk(shape: str, body: str) -> None:
    patch, key = DEFAULTS[shape]
    pr = make_pr(
        "Lower the default GPU memory share",
        BODIES[body],
        files=[patched("src/engine/args.py", patch), code("src/engine/runner.py", 12)],
        repo="hiyouga/llamafactory",
    )
    for language in ("en", "zh"):
        analysis = analyze(pr, language)
        points = [p for p in analysis.key_points if key in p]
        assert points and "0.9" in points[0] and "0.7" in points[0]
        config = [r for r in analysis.risks if r.category == "config"]
        assert config and key in config[0].text and "0.7" in config[0].text
        assert not ungrounded(pr, [*analysis.key_points, *(r.text for r in analysis.risks)], analysis.modules)


@pytest.mark.parametrize(
    "patch",
    [
        # a local variable, a call's keyword, a re-quoted string, a computed value: no default changed
        "@@ -5,3 +5,3 @@ def step(self):\n-        total: int = 0\n+        total: int = 1\n         return total",
        "@@ -5,3 +5,3 @@ def step(self):\n-    run(retries=3)\n+    run(retries=5)\n     return",
        "@@ -5,3 +5,3 @@ class Args:\n-    name: str = 'vllm'\n+    name: str = \"vllm\"\n     seed: int = 0",
        "@@ -5,3 +5,3 @@ class Args:\n-    lr: float = base_lr() * 2\n+    lr: float = base_lr() * 3\n     seed: int = 0",
        "@@ -1,2 +1,2 @@ import os\n-__version__ = '0.1'\n+__version__ = '0.2'\n-VERSION = '0.1'\n+VERSION = '0.2'",
    ],
)
def test_what_is_not_a_default_is_not_read_as_one(patch: str) -> None:
    assert python_defaults("src/engine/args.py", patch) == []


def test_a_default_changed_in_a_test_or_an_example_is_not_the_products() -> None:
    for path in ("tests/test_args.py", "examples/run_vllm.py"):
        pr = make_pr("Lower the default GPU memory share", files=[patched(path, DATACLASS)])
        assert not [r for r in analyze(pr).risks if r.category == "config"]


# --- breaking changes in the author's words --------------------------------------------------------------

RENAME = changed(
    "verl/trainer/ckpt.py",
    ["def load_checkpoint(actor_wg, path):", *[f"    step_{i} = read(path, {i})" for i in range(40)]],
    ["def load_checkpoint(trainer, path):"],
)
DEFAULT_YAML = changed(
    "verl/trainer/config/engine/megatron.yaml",
    ["expert_tensor_parallel_size: null"],
    ["expert_tensor_parallel_size: 1"],
)
REMOVED = changed(
    "verl/workers/sharding_manager/fsdp_sglang.py",
    [],
    ["class FSDPSGLangShardingManager(ShardingManager):", *[f"    x_{i} = {i}" for i in range(60)]],
)
SAID = {
    "english sentence": "Repeat the batch in the driver. This change breaks every recipe that repeats it "
    "in its own rollout worker.",
    "chinese sentence": "在 driver 中重复数据。此改动不兼容所有在 rollout worker 中自行重复数据的 recipe。",
    "bullets": "- repeat the batch in the driver\n- recipes that repeat it in their rollout workers no longer work",
    "breaking note": "Repeat the batch in the driver.\n\nBREAKING CHANGE: recipes must stop repeating it in workers.",
}


def breaking_risk(analysis: Analysis) -> tuple[str, str]:
    [risk] = [r for r in analysis.risks if r.category == "breaking-change"]
    return risk.text, risk.evidence


@pytest.mark.parametrize("body", list(SAID))
def test_a_breaking_risk_says_what_the_author_wrote_breaks(body: str) -> None:
    title = "[BREAKING][rollout] feat: repeat DataProto in the driver"
    pr = make_pr(title, SAID[body], files=[code("verl/trainer/ppo/ray_trainer.py", 40)])
    text, evidence = breaking_risk(analyze(pr, "zh"))
    assert "recipe" in text and "title:" not in evidence and title not in text
    if body != "chinese sentence":
        english, _ = breaking_risk(analyze(pr, "en"))
        assert "recipe" in english
    else:  # an English reader gets no Chinese quote: the generic sentence, never the Chinese one
        english, _ = breaking_risk(analyze(pr, "en"))
        assert "不兼容" not in english


@pytest.mark.parametrize("body", ["", "Cleaner names.", "- cleaner names", "更清楚的命名。"])
@pytest.mark.parametrize(
    ("files", "names"),
    [
        ([RENAME], ("trainer", "actor_wg")),
        ([DEFAULT_YAML], ("expert_tensor_parallel_size", "null")),
        ([REMOVED, code("verl/workers/rollout.py", 20)], ("FSDPSGLangShardingManager",)),
    ],
)
def test_a_breaking_risk_known_from_the_tag_names_what_the_diff_renames_removes_or_re_defaults(
    body: str, files: list[PRFile], names: tuple[str, ...]
) -> None:
    pr = make_pr("[BREAKING][misc] chore: tidy up", body, files=files)
    for language in ("zh", "en"):
        text, evidence = breaking_risk(analyze(pr, language))
        assert all(name in text for name in names)
        assert not evidence.startswith("title:")
        assert not ungrounded(pr, [text])


def test_a_tag_without_a_word_or_a_diff_fact_quotes_the_description_not_the_title() -> None:
    body = "The way to launch multi-node jobs with ray has changed, see the new guide."
    pr = make_pr("[BREAKING] ray: rewrite multi-node doc", body, files=[code("verl/ray/launch.py", 20)])
    text, evidence = breaking_risk(analyze(pr))
    assert "launch multi-node jobs" in text and evidence == body


# --- PRs that only delete ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body", ["", "Clean up the unused sharding manager.", "- 删除未使用的 sharding manager"]
)
def test_deleting_code_is_no_missing_test_and_no_reading_starts_in_a_deleted_file(body: str) -> None:
    gone = changed(
        "verl/workers/sharding_manager/fsdp_sglang.py",
        [],
        ["class FSDPSGLangShardingManager(ShardingManager):", *[f"    x_{i} = {i}" for i in range(220)]],
        status="removed",
    )
    pr = make_pr("[misc] refactor: clean up unused sharding manager", body, files=[gone])
    for language in ("zh", "en"):
        analysis = analyze(pr, language)
        assert "missing-tests" not in {r.category for r in analysis.risks}
        guide = analysis.texts[language].reading_guide
        assert not any("fsdp_sglang.py" in g for g in guide if g.startswith(("Start", "从")))
        assert not any("fsdp_sglang.py" in u for u in analysis.follow_ups)


def test_a_squash_list_that_repeats_the_title_with_its_tags_is_no_key_point() -> None:
    body = "* [distro] feat: add docker support\n* update docker tag to the vllm image"
    pr = make_pr("[distro] feat: add docker support", body, files=[code("docker/build.py", 30)])
    assert not any("add docker support" in p for p in analyze(pr).key_points)


# --- reading guides: what to verify is the PR's own ---------------------------------------------------------

WORKER = changed(
    "verl/workers/rollout/server.py",
    [
        "def resize_context(self, prompt_len, response_len):",
        *[f"    part_{i} = split(prompt_len, {i})" for i in range(400)],
    ],
    ["def resize_context(self, prompt_len):"],
)


def guide(title: str, body: str, files: list[PRFile], language: str = "en") -> tuple[str, ...]:
    analysis = analyze(make_pr(title, body, files=files), language)
    assert analysis.verdict != "skim"
    return analysis.texts[language].reading_guide


def verify_line(lines: tuple[str, ...]) -> str:
    [line] = [g for g in lines if g.startswith(("Verify", "验证"))]
    return line


@pytest.mark.parametrize(
    "body",
    [
        "The server crashed with `ValueError: context too long` when the response length was set.",
        "- fix ValueError raised by the rollout server for long responses",
        "修复 rollout server 在长回复时抛出 ValueError 的问题。",
    ],
)
def test_a_fix_is_verified_by_the_failure_it_names(body: str) -> None:
    lines = guide("[rollout] fix: context length of the rollout server", body, [WORKER])
    assert "ValueError" in verify_line(lines) and "resize_context" in verify_line(lines)


@pytest.mark.parametrize(
    "body",
    [
        "Split the context.\n\nStep time 12.4 s → 7.9 s.",
        "- split the context\n- 12.4 s → 7.9 s",
        "分块处理上下文。\n\n耗时由 12.4秒 降至 7.9秒。",
    ],
)
def test_a_measured_change_is_verified_by_reproducing_its_figure(body: str) -> None:
    for language in ("en", "zh"):
        lines = guide("[rollout] feat: split the rollout context", body, [WORKER], language)
        assert "12.4" in verify_line(lines) and "7.9" in verify_line(lines)


def test_a_changed_test_is_named_only_when_it_is_about_the_function() -> None:
    body = "Split the rollout context into parts so long prompts fit."
    about = changed(
        "tests/workers/test_server.py", ["def test_resize_context():", "    resize_context(1, 2)"]
    )
    other = changed("tests/special_sanity/check_docstrings.py", ["    'verl.workers'"])
    assert "test_server.py" in verify_line(guide("[rollout] feat: split context", body, [WORKER, about]))
    unrelated = verify_line(guide("[rollout] feat: split context", body, [WORKER, other]))
    assert "check_docstrings.py" in unrelated and "never name" in unrelated


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_untested_change_is_verified_against_what_the_description_claims(language: str) -> None:
    body = "Split the rollout context into parts so long prompts fit on one engine."
    lines = guide("[rollout] feat: split context", body, [WORKER], language)
    assert "long prompts fit" in verify_line(lines) and "resize_context" in verify_line(lines)
    follow_up = lines[-1]
    assert "resize_context" in follow_up and "server.py" in follow_up


# --- one fact, one risk -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_removal_the_breaking_risk_names_is_not_a_second_compatibility_risk(language: str) -> None:
    files = [
        changed("verl/utils/fp8.py", removed=["def quant_weights(weights, config):", "    return weights"]),
        changed("verl/trainer/config/rollout.yaml", ["mode: async"], ["mode: sync"]),
        code("verl/utils/fp8_helper.py", 40, status="added"),
    ]
    analysis = HeuristicAnalyzer().analyze(
        make_pr("[BREAKING][rollout] feat: FP8 helper", files=files), language
    )
    risks = [r for r in analysis.risks if r.category in ("breaking-change", "compatibility", "config")]
    assert [r.category for r in risks] == ["breaking-change"]
    assert "quant_weights" in risks[0].text and "mode" in risks[0].text
    # the release note for the new default is still a follow-up
    assert any("mode" in f and "async" in f for f in analysis.follow_ups)


def test_a_definition_the_pr_still_calls_as_a_method_is_not_removed() -> None:
    files = [
        changed(
            "verl/utils/sglang/fp8.py", removed=["def quant_weights_by_name(weights, config):", "    pass"]
        ),
        changed(
            "verl/workers/rollout/sglang.py",
            ["        weights = helper.quant_weights_by_name(weights)"],
            ["        weights = quant_weights_by_name(weights, config)"],
        ),
        code("verl/utils/fp8_utils.py", 40, status="added"),
    ]
    analysis = HeuristicAnalyzer().analyze(
        make_pr("[rollout] refactor: an FP8 helper class", files=files), "en"
    )
    assert "compatibility" not in {r.category for r in analysis.risks}
    assert not any("quant_weights_by_name" in p and "removed" in p for p in analysis.key_points)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_reading_a_rank_or_a_logging_level_from_the_environment_is_no_key_point(language: str) -> None:
    reads = [
        'logger.setLevel(os.getenv("VERL_LOGGING_LEVEL", "WARN"))',
        'rank = int(os.environ["RANK"])',
        'local = int(os.environ.get("LOCAL_RANK", 0))',
        'port = os.environ["MASTER_PORT"]',
        'store = os.getenv("MOONCAKE_MASTER_ADDR")',
    ]
    pr = make_pr("[ckpt] feat: mooncake", files=[changed("verl/checkpoint_engine/mooncake.py", reads)])
    points = " ".join(HeuristicAnalyzer().analyze(pr, language).key_points)
    assert "MOONCAKE_MASTER_ADDR" in points
    assert not any(
        name in points.split("MOONCAKE_MASTER_ADDR")[0] for name in ("VERL_LOGGING", "RANK", "PORT")
    )
    assert "LOGGING_LEVEL" not in points and "LOCAL_RANK" not in points


@pytest.mark.parametrize(
    ("body", "breaking"),
    [
        (
            "BREAKING: use --attention-backend instead. Launch scripts that still pass the old flag fail.",
            True,
        ),
        ("**Breaking change**: `--disable-flashinfer` is gone.", True),
        ("破坏性变更：删除了 --disable-flashinfer 参数", True),
        # a template's answer that nothing breaks is no breaking note
        ("## Checklist\n- Breaking changes: None\n- Docs: updated", False),
        ("Breaking change: N/A", False),
        ("**BREAKING CHANGE**: none.", False),
        ("破坏性变更：无", False),
        ("不兼容变更：不涉及", False),
        ("Breaking: no\n\nBREAKING CHANGE: the flag is removed.", True),  # the later real note counts
        ("⚠️ **Breaking**: the flag is removed.", True),
        (":warning: BREAKING CHANGE: the flag is removed.", True),
        ("🚨 破坏性变更：删除了 --disable-flashinfer 参数", True),
        # a label in the middle of a paragraph, after a sentence
        ("Renames `queue.size` to `queue.capacity`. **Breaking:** a config that still sets it fails.", True),
        ("把 queue.size 改名为 queue.capacity。破坏性变更：旧配置会在启动时报错。", True),
        ("This is not breaking: it only adds a flag.", False),
        # a sentence that says it breaks
        ("Drop the v0 route. This is a breaking change for SDKs older than 0.9.", True),
        ("去掉旧接口。这是一个破坏性变更，旧版 SDK 需要升级。", True),
        ("This is not a breaking change: the old route stays.", False),
        ("No breaking changes. This is a pure refactor.", False),
    ],
)
def test_the_authors_breaking_note_is_read_unless_it_says_nothing_breaks(body: str, breaking: bool) -> None:
    pr = make_pr("Clean up server flags", body, files=[code("python/sglang/srt/server_args.py", 30)])
    assert analyze(pr, "en").breaking is breaking


@pytest.mark.parametrize(
    ("body", "said"),
    [
        # after an emoji, over the lines of its paragraph, up to the next one
        (
            "Move to typed config.\n\n**⚠️ BREAKING CHANGE**: Removes backward compatibility. Users must\n"
            "migrate to typed config.\n\n---\nOther notes.",
            "Removes backward compatibility. Users must migrate to typed config.",
        ),
        # a list under its heading reads as prose, and ends at the next item
        (
            "**Breaking Changes:**\n- **Minimum vLLM**: now 0.7.0\n(recommended: 0.8.3+)\n- **Removed**: `use_fire`",
            "Minimum vLLM: now 0.7.0 (recommended: 0.8.3+)",
        ),
        (
            "破坏性变更：删除了 `--disable-flashinfer` 参数，\n启动脚本需要改用 `--attention-backend`。\n\n## 测试",
            None,
        ),
    ],
)
def test_a_breaking_note_is_its_whole_paragraph_in_plain_words(body: str, said: str | None) -> None:
    pr = make_pr("Clean up server flags", body, files=[code("python/sglang/srt/server_args.py", 30)])
    note = extract_features(pr, load_module_map(pr.repo)).breaking_note
    expected = said or "删除了 `--disable-flashinfer` 参数，启动脚本需要改用 `--attention-backend`。"
    assert note == expected


NESTED_RENAME = """@@ -3,3 +3,3 @@ queue:
-  size: 10000
+  capacity: 10000"""


@pytest.mark.parametrize(
    "title",
    [
        "Rename config key queue.size to queue.capacity",
        "把配置项 queue.size 改名为 queue.capacity",
        "queue: size is now capacity",
        "Renames queue.size to queue.capacity.",
    ],
)
def test_a_nested_key_the_title_names_by_its_dotted_path_is_renamed_not_removed(title: str) -> None:
    pr = make_pr(title, files=[patched("config/app.example.yaml", NESTED_RENAME)], repo="acme/ferry")
    risks = " ".join(r.text for r in analyze(pr, "en").risks)
    assert "renamed" in risks and "removed" not in risks


def test_a_reverts_breaking_sentence_is_about_the_pr_it_undoes() -> None:
    body = "Reverts acme/x#5330\n\nThis PR introduces a breaking change that fails the async CIs."
    pr = make_pr(
        'Revert "[vllm] feat: remove workers"', body, files=[code("python/sglang/srt/server_args.py", 30)]
    )
    assert analyze(pr, "en").breaking is False


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_kubernetes_manifests_fields_are_no_config_keys_but_chart_values_are(language: str) -> None:
    manifest = (
        "@@ -0,0 +1,4 @@\n+apiVersion: policy/v1\n+kind: PodDisruptionBudget\n+spec:\n+  minAvailable: 1"
    )
    values = "@@ -20,1 +20,3 @@\n-resources: {}\n+resources:\n+  replicas: 2"
    files = [
        patched("deploy/helm/ferry/templates/pdb.yaml", manifest),
        patched("deploy/helm/ferry/values.yaml", values),
    ]
    analysis = analyze(make_pr("Helm chart: a disruption budget", files=files, repo="acme/ferry"), language)
    said = " ".join((*analysis.key_points, *analysis.follow_ups, *(r.text for r in analysis.risks)))
    assert "apiVersion" not in said and "minAvailable" not in said
    assert "resources.replicas" in said


def test_a_sentence_that_says_it_breaks_is_quoted_whole_past_a_version_number() -> None:
    body = "Drop the v0 route. This is a breaking change for SDKs older than 0.9. Migrate to /v2."
    pr = make_pr("Remove the v0 route", body, files=[code("internal/api/router.go", 30)], repo="acme/ferry")
    features = extract_features(pr, load_module_map(pr.repo))
    assert features.breaking_note == "This is a breaking change for SDKs older than 0.9."
