"""What the analyzer says must be true and say more than the title, on PRs of many shapes: conventional
titles, plain titles, Chinese bodies, no template. Change types follow what the title announces; gists
are sentences, never lists of modules; sentences are never cut inside a parenthesis."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis import HeuristicAnalyzer

from .builders import changed, code, make_pr

ANALYZER = HeuristicAnalyzer()


@pytest.mark.parametrize(
    "title",
    [
        "Reduce peak memory of FSDP LoRA summon",
        "feat: reduce memory usage of the reference model",
        "[rollout] feat: lower the weight sync time with bucketed broadcast",
        "Avoid redundant tensor copies in weight sync",
        "Cut activation memory in long-sequence entropy",
        "减少 rollout 阶段的显存占用",
        "降低权重同步的延迟",
        "refactor(trainer): minimize host memory footprint when loading checkpoints",
    ],
)
def test_a_title_that_cuts_a_cost_is_a_performance_change(title: str) -> None:
    pr = make_pr(title, files=[code("pkg/trainer/core.py", 40)], repo="acme/plain")
    assert ANALYZER.analyze(pr).change_type == "perf"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Avoid OOM when saving checkpoints", "fix"),
        ("fix: reduce memory leak in dataloader", "fix"),
        ("Add a memory profiler to the trainer", "feat"),
        ("Save checkpoints to HDFS", "feat"),
    ],
)
def test_fixes_and_features_that_mention_memory_keep_their_type(title: str, expected: str) -> None:
    pr = make_pr(title, files=[code("pkg/trainer/core.py", 40)], repo="acme/plain")
    assert ANALYZER.analyze(pr).change_type in (expected, "feat" if expected == "feat" else expected)


@pytest.mark.parametrize(
    "title",
    [
        "[megatron, fsdp, rollout, trainer, ci] feat: unify weight sync",
        "feat(megatron,fsdp,vllm,sglang): one weight-sync path",
        "Unify weight sync across backends",
        "统一各后端的 weight sync 路径",
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_gist_is_never_a_list_of_module_names(title: str, language: str) -> None:
    files = [
        code(p, 50) for p in ("verl/workers/megatron/a.py", "verl/workers/fsdp/b.py", "verl/rollout/c.py")
    ]
    gist = ANALYZER.analyze(make_pr(title, files=files), language=language).localized(language).gist
    assert not re.search(r"等 \d+ 项|and \d+ more|、.*、", gist), gist
    assert "weight" in gist.lower()


@pytest.mark.parametrize(
    "body",
    [
        "Replaces the two sync paths (Megatron gathered to rank 0 and sent through Ray; FSDP used "
        "`full_state_dict` per rank) with one bucketed NCCL broadcast from the trainer ranks to the rollout "
        "engines, which disaggregated rollout needs.",
        "This PR moves the plan (computed once; cached per step) into the engine, so that every backend "
        "shares one code path and the per-step cost is only the broadcast of the buckets it packs.",
        "本 PR 把两条同步路径（Megatron 汇聚到 rank 0；FSDP 逐 rank 取 full_state_dict）合并为一次分桶的 NCCL "
        "广播，非共置的 rollout 需要它，也让共置场景更快。",
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_no_sentence_is_cut_inside_a_parenthesis(body: str, language: str) -> None:
    pr = make_pr("[trainer] feat: unified weight sync", body=body, files=[code("verl/trainer/sync.py", 80)])
    texts = ANALYZER.analyze(pr, language=language).localized(language)
    for text in (texts.gist, *texts.key_points):
        opened = text.count("(") + text.count("（")
        closed = text.count(")") + text.count("）")
        assert opened == closed or text.endswith("…"), text


def test_deleted_lines_weigh_less_than_added_ones() -> None:
    """The same 2,000 lines added as a new module rank above the same lines removed."""
    added = make_pr("Models for Llama", files=[code("pkg/models/llama.py", 2000, status="added")])
    removed = make_pr(
        "Models for Llama",
        files=[changed("pkg/models/llama.py", [], [f"x_{i} = {i}" for i in range(2000)], status="removed")],
    )
    assert ANALYZER.analyze(added).importance > ANALYZER.analyze(removed).importance


@pytest.mark.parametrize(
    ("title", "files", "shown"),
    [
        (
            "[BREAKING][trainer] refactor: rename trainer arg",
            [changed("pkg/trainer/ckpt.py", ["def save(actor_wg, path):"], ["def save(trainer, path):"])],
            "save",
        ),
        (
            "feat(config)!: drop the legacy rollout section",
            [changed("pkg/config/base.yaml", ["mode: sync"], ["legacy_rollout: true", "mode: sync"])],
            "legacy_rollout",
        ),
        (
            "[BREAKING] Remove the --fast flag",
            [
                changed(
                    "pkg/cli/main.py", ["x = 1"], ['    parser.add_argument("--fast", action="store_true")']
                )
            ],
            "--fast",
        ),
    ],
)
def test_a_breaking_risk_names_what_the_diff_removes_or_renames(title: str, files: list, shown: str) -> None:
    analysis = ANALYZER.analyze(make_pr(title, files=files, repo="acme/plain"))
    breaking = next(r for r in analysis.risks if r.category == "breaking-change")
    assert shown in breaking.evidence and not breaking.evidence.startswith("title:"), breaking.evidence


@pytest.mark.parametrize(
    "settings",
    [
        "- `USE_POLICY_GRADIENT`=False & `DISTILLATION_LOSS_MODE`='`forward_kl_topk`'",
        "- lr: 1e-5 -> 1e-6, bs: 256, ppo_epochs=2",
        "- MAX_TOKENS=4096 TP_SIZE=8",
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_listed_line_of_settings_is_not_a_key_point(settings: str, language: str) -> None:
    body = f"## What does this PR do\n\nSupport on-policy distillation in the sync trainer.\n\n{settings}\n"
    pr = make_pr("[trainer] feat: on-policy distillation", body=body, files=[code("verl/trainer/opd.py", 80)])
    texts = ANALYZER.analyze(pr, language=language).localized(language)
    stripped = settings.lstrip("- ").replace("`", "")[:20]
    assert not any(stripped in point.replace("`", "") for point in texts.key_points), texts.key_points


@pytest.mark.parametrize(
    "body",
    [
        "Throughput up 1.6x on 8 engines.",
        "Batching prompts across engines: throughput improves by about 1.6x.",
        "Step time is cut by 2x on 64 GPUs.",
        "MFU improved ~1.3× with the fused kernel.",
        "生成吞吐提升 1.6 倍。",
        "This is 1.3x faster on 8k sequences.",
    ],
)
def test_a_speed_up_stated_as_a_ratio_is_a_measurement(body: str) -> None:
    pr = make_pr(
        "perf: batch prompts across vLLM engines",
        body=body,
        files=[code("openrlhf/trainer/ray/vllm_engine.py", 80)],
        repo="openrlhf/openrlhf",
    )
    analysis = HeuristicAnalyzer().analyze(pr)
    assert analysis.change_type == "perf"
    assert not [r for r in analysis.risks if r.category == "performance"], analysis.risks


def test_a_speed_up_claimed_without_a_figure_is_a_risk() -> None:
    pr = make_pr(
        "perf: batch prompts across vLLM engines",
        body="Throughput is much better now, with 8 engines on H100.",
        files=[code("openrlhf/trainer/ray/vllm_engine.py", 80)],
        repo="openrlhf/openrlhf",
    )
    assert [r for r in HeuristicAnalyzer().analyze(pr).risks if r.category == "performance"]


# --- key points that add to the title ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "opening", "files"),
    [
        (
            "[BREAKING][trtllm] feat: Add FP8 refit support for trtllm rollout",
            "This PR adds FP8 refit support for the trtllm rollout in verl.",
            [code("verl/workers/rollout/trtllm_rollout/fp8.py", 60)],
        ),
        (  # the title's module spelled as its folder adds nothing
            "[ckpt] feat: add mooncake backend",
            "Add mooncake backend to checkpoint-engine.",
            [code("verl/checkpoint_engine/mooncake_checkpoint_engine.py", 60)],
        ),
        (  # an acronym of the title's words, and inflections
            "[megatron] feat: add dynamic context parallel scheduling",
            "Adds Dynamic Context Parallel (DCP) scheduling for the Megatron backend.",
            [code("verl/workers/engine/megatron/dcp.py", 60)],
        ),
        (
            "Fix the nightly CI and docker",
            "Fixed the nightly CI and Docker failures.",
            [code("src/pkg/runner.py", 60)],
        ),
        ("新增 mooncake 后端", "本 PR 新增了 mooncake 后端的支持。", [code("pkg/engine/mooncake.py", 60)]),
    ],
)
def test_a_sentence_that_only_restates_the_title_is_no_key_point(
    title: str, opening: str, files: list
) -> None:
    for language in ("zh", "en"):
        analysis = ANALYZER.analyze(
            make_pr(title, f"### What does this PR do?\n\n{opening}\n", files), language
        )
        assert opening not in analysis.key_points


@pytest.mark.parametrize(
    ("title", "point"),
    [
        (
            "[ckpt] feat: add mooncake backend",
            "Transfers each bucket over RDMA with one registered buffer per rank.",
        ),
        ("[megatron] fix: fix qwen3 moe config", "Fix the qwen3 moe config moe_router_pre_softmax flag."),
        (
            "add HY v3 Megatron GRPO example",
            "Add HY v3 FLOPs estimation support in verl/utils/flops_counter.py.",
        ),
        ("新增 mooncake 后端", "每个 rank 只注册一块缓冲区，按桶通过 RDMA 传输权重。"),
    ],
)
def test_a_sentence_with_a_mechanism_identifier_or_file_of_its_own_stays_a_key_point(
    title: str, point: str
) -> None:
    files = [code("verl/checkpoint_engine/mooncake.py", 40), code("verl/utils/flops_counter.py", 10)]
    analysis = ANALYZER.analyze(make_pr(title, f"### What does this PR do?\n\n{point}\n", files), "zh")
    assert point in analysis.key_points


def test_a_summary_leaves_out_the_caption_of_a_table() -> None:
    body = (
        "### What does this PR do?\n\nAdd mooncake backend to checkpoint-engine.\n\n"
        "benchmark result test with bucket_size=2GB\n\n|Model|time (s)|\n|:-:|:-:|\n|Qwen3-8B|0.27|\n\n"
        "Gap is 0.2292 ==> 0.2064 (-9.95%)\n\n```\nlog\n```\n"
    )
    summary = ANALYZER.analyze(make_pr("[ckpt] feat: add mooncake", body, [code("a/b.py", 20)])).summary
    assert "bucket_size" not in summary
    assert summary.startswith("Add mooncake backend to checkpoint-engine.")
    assert "0.2292" in summary  # a result before a block is no caption
