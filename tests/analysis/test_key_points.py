"""Key points, gists and reading guides on bodies of many shapes: the verl template, no template,
Chinese, bullets only, empty, and a body that talks about files the PR does not change. Assertions are
on structure (where a point comes from, that it is grounded in the PR), not on exact words."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import focus_function
from chatbot.analysis.heuristic import TEXT
from chatbot.models import PRFile, PullRequest

from .builders import changed, code, make_pr
from .claims import ungrounded

ANALYZER = HeuristicAnalyzer()
CJK = re.compile(r"[\u4e00-\u9fff]")

SUMMON = changed(
    "verl/workers/fsdp_workers.py",
    [
        "def summon_unit_params(module, unit):",
        "    with FSDP.summon_full_params(unit, writeback=False):",
        "        yield unit",
        *[f"    step_{i} = gather(unit, {i})" for i in range(80)],
    ],
    ["    with FSDP.summon_full_params(module):"],
)
TEMPLATE_BODY = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or accomplish.

Summon the parameters of each FSDP unit in turn, so peak memory is bounded by the largest unit rather than the whole model.

### Checklist Before Starting

- [x] Search for similar PRs.

### Design & Code Changes

- **Per-unit summon**: `summon_unit_params` gathers one unit at a time instead of the whole module.
- **LoRA merge** reuses the same path for adapters.

### Results

Peak memory on Qwen2.5-7B: 78 GB → 63 GB; step time 12.4 s → 7.9 s (−36%).
"""
CHINESE_BODY = """本 PR 为 SGLang 权重同步改为分桶传输，避免一次性 clone 全部权重导致 OOM。

显存峰值由 71GB 降至 52GB。
"""
BULLETS_BODY = """- **Offload optimizer states** between steps when `--offload-optimizer` is set
- reads `PRHUB_OFFLOAD_DIR` for the spill directory
- step time 12.4 s → 7.9 s (−36%)
"""
OFFLOAD = changed(
    "verl/trainer/main.py",
    [
        '    parser.add_argument("--offload-optimizer", action="store_true")',
        '    spill = os.environ.get("PRHUB_OFFLOAD_DIR", "/tmp")',
        *[f"    state_{i} = offload(optimizer, {i})" for i in range(60)],
    ],
)
ELSEWHERE_BODY = """Register the new reward model.

## Usage

Call `register_model_architecture` in verl/models/registry.py before training.

## Changes

- Update verl/models/registry.py so the registry knows the new architecture
- Add the reward head to the critic worker
"""


def pr(title: str, body: str, files: list[PRFile]) -> PullRequest:
    return make_pr(title, body=body, files=files)


CASES = {
    "verl template": pr("[fsdp] perf: summon FSDP units one at a time", TEMPLATE_BODY, [SUMMON]),
    "chinese, no template": pr(
        "sglang 权重同步分桶", CHINESE_BODY, [code("verl/workers/rollout/sglang/sync.py", 90)]
    ),
    "bullets only": pr("Offload optimizer states", BULLETS_BODY, [OFFLOAD]),
    "empty body": pr("Offload optimizer states", "", [OFFLOAD]),
    "files elsewhere": pr(
        "add reward head", ELSEWHERE_BODY, [code("verl/workers/critic/reward_head.py", 70)]
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_identifier_and_file_in_what_the_analysis_says_occurs_in_the_pr(name: str) -> None:
    case = CASES[name]
    analysis = ANALYZER.analyze(case)
    for language in ("zh", "en"):
        texts = analysis.localized(language)
        said = [*texts.key_points, *texts.reading_guide, texts.gist]
        assert not ungrounded(case, said), (language, said)


@pytest.mark.parametrize("name", ["verl template", "bullets only", "files elsewhere"])
def test_key_points_open_with_what_the_author_wrote_up_front(name: str) -> None:
    """The author's lead is the first thing said: the gist when it says what the PR does ("Register the
    new reward model"), else the first key point."""
    case = CASES[name]
    body = " ".join((case.header.body or "").replace("**", "").replace("`", "").split())
    texts = ANALYZER.analyze(case).localized("en")
    first = texts.gist if texts.gist.rstrip("…") in body else texts.key_points[0]
    assert first.rstrip("…") in body


@pytest.mark.parametrize("name", ["verl template", "chinese, no template", "bullets only"])
def test_a_measured_before_and_after_figure_is_a_key_point(name: str) -> None:
    points = ANALYZER.analyze(CASES[name]).localized("en").key_points
    assert any(re.search(r"\d\s?\w*\s*(?:→|降至)\s*\d", p) for p in points), points


def test_the_diff_contributes_what_it_adds_a_user_can_see() -> None:
    points = " ".join(ANALYZER.analyze(CASES["bullets only"]).localized("en").key_points)
    assert "--offload-optimizer" in points and "PRHUB_OFFLOAD_DIR" in points
    template = " ".join(ANALYZER.analyze(CASES["verl template"]).localized("en").key_points)
    assert "summon_unit_params" in template


def test_a_body_about_files_the_pr_does_not_change_gives_no_point_about_them() -> None:
    texts = ANALYZER.analyze(CASES["files elsewhere"]).localized("en")
    points = [texts.gist, *texts.key_points]
    assert not any("registry" in p or "register_model_architecture" in p for p in points)


def test_an_empty_body_still_gets_points_from_the_diff() -> None:
    points = ANALYZER.analyze(CASES["empty body"]).localized("en").key_points
    assert any("--offload-optimizer" in p for p in points)


def test_no_key_point_is_a_file_statistic() -> None:
    for case in CASES.values():
        for point in ANALYZER.analyze(case).localized("en").key_points:
            assert not re.search(r"\(\+\d[\d,]*/−\d", point), point


@pytest.mark.parametrize("name", list(CASES))
def test_the_gist_is_one_line_in_each_language(name: str) -> None:
    analysis = ANALYZER.analyze(CASES[name])
    for language in ("zh", "en"):
        gist = analysis.localized(language).gist
        assert gist and "\n" not in gist and len(gist) <= 200
    assert CJK.search(analysis.localized("zh").gist)


def test_a_chinese_opening_that_says_what_the_pr_does_is_the_chinese_gist() -> None:
    gist = ANALYZER.analyze(CASES["chinese, no template"]).localized("zh").gist
    assert "分桶传输" in gist and not gist.startswith("本")


def test_a_pr_worth_reading_gets_a_reading_guide_that_starts_in_its_diff() -> None:
    case = pr(
        "[fsdp] perf: summon FSDP units one at a time",
        TEMPLATE_BODY,
        [SUMMON, code("verl/workers/sharding_manager/fsdp_vllm.py", 400)],
    )
    analysis = ANALYZER.analyze(case)
    assert analysis.verdict != "skim"
    for language in ("zh", "en"):
        guide = analysis.localized(language).reading_guide
        assert 2 <= len(guide) <= 4
        assert any(f.filename in guide[0] for f in case.files)


def test_a_reading_guide_starts_at_a_much_larger_file_whose_patch_github_cut() -> None:
    """The focus function comes from the patches GitHub sent; on a large PR it cuts the later ones, so a
    354-line file without a patch is where the change is, not the 84-line function beside it. A larger
    file that has its patch but no function to name does not displace the focus."""
    cut = changed("verl/trainer/distillation/losses.py", additions=354, deletions=0)
    case = pr("[trainer] feat: on-policy distillation", TEMPLATE_BODY, [SUMMON, cut])
    for language in ("zh", "en"):
        assert (
            "verl/trainer/distillation/losses.py"
            in ANALYZER.analyze(case).localized(language).reading_guide[0]
        )
    shown = pr(
        "[trainer] feat: on-policy distillation", TEMPLATE_BODY, [SUMMON, code("verl/trainer/x.py", 400)]
    )
    assert "summon_unit_params" in ANALYZER.analyze(shown).localized("en").reading_guide[0]


def test_a_skimmed_pr_has_no_reading_guide() -> None:
    typo = make_pr("[doc] fix: typo", files=[changed("docs/index.md", ["ok"], ["okk"])])
    assert ANALYZER.analyze(typo).localized("en").reading_guide == ()


def test_every_reading_guide_sentence_exists_in_both_languages() -> None:
    assert all(set(TEXT[k]) == {"zh", "en"} for k in TEXT if k.startswith("guide."))


# Chinese descriptions of other shapes: an opening only, bullets, a measured figure, a breaking note, a
# design sentence, a review in Chinese. An English reader gets none of their Chinese sentences.
CHINESE_SHAPES = {
    "opening": "修复 DPO 训练时 reference model 的缓存没有释放，导致显存持续增长。",
    "bullets": "- 释放 reference model 的缓存\n- 每个 step 结束后调用 empty_cache\n- 新增 `--free-ref-cache` 参数",
    "measured": "分块计算 logps。\n\n训练速度从 12.4 秒提升到 7.9 秒，显存峰值由 71GB 降至 52GB。",
    "breaking": "BREAKING CHANGE: 删除了 `max_length` 参数，请改用 `max_seq_length`。",
    "design": "## 设计\n\n之所以按层分桶而不是按参数分桶，是因为这样可以让峰值显存受最大一层限制，从而避免 OOM。",
}


@pytest.mark.parametrize("shape", list(CHINESE_SHAPES))
def test_an_english_reader_gets_no_chinese_sentence_from_a_chinese_description(shape: str) -> None:
    case = make_pr(
        "Free the reference cache in DPO",
        body=CHINESE_SHAPES[shape],
        files=[code("trl/trainer/dpo_trainer.py", 120)],
        repo="huggingface/trl",
    )
    analysis = ANALYZER.analyze(case)
    english = analysis.localized("en")
    said = [english.gist, english.verdict_reason, *english.key_points, *english.reading_guide, *english.risks]
    assert not [text for text in said if CJK.search(text)], said
    chinese = analysis.localized("zh")
    assert any(CJK.search(t) for t in (chinese.gist, *chinese.key_points)) or shape in ("breaking", "design")


def test_a_chinese_measured_result_reaches_an_english_reader_as_its_figures() -> None:
    case = make_pr(
        "Compute logps in chunks",
        body=CHINESE_SHAPES["measured"],
        files=[code("trl/trainer/dpo_trainer.py", 120)],
        repo="huggingface/trl",
    )
    points = " ".join(ANALYZER.analyze(case).localized("en").key_points)
    assert "12.4 s → 7.9 s" in points and "71GB → 52GB" in points, points


@pytest.mark.parametrize(
    "relation",
    [
        "Based on the PR: #5297 Relevant PRs: #5716 #5713 #5616",
        "Follow-up work for #4639, #5297.",
        "This PR is stacked on #812 and depends on #799; please review #799 first.",
        "Part of #1200, see also https://github.com/acme/x/pull/1188 for the previous step.",
        "Related to acme/infra#44 and the issue #45.",
    ],
)
def test_a_sentence_that_only_relates_the_pr_to_others_is_not_a_key_point(relation: str) -> None:
    body = f"{relation}\n\nSummon each FSDP unit in turn, so peak memory is bounded by the largest unit."
    case = make_pr("Bound FSDP peak memory", body=body, files=[SUMMON], repo="acme/plain")
    for language in ("zh", "en"):
        points = ANALYZER.analyze(case).localized(language).key_points
        assert not [p for p in points if "#" in p], points
        assert any("peak memory is bounded" in p for p in points), points


def test_a_sentence_with_a_reference_and_substance_is_still_a_key_point() -> None:
    body = "This is one of the PRs (others: #5616, #5713) to support FlowGRPO training for image models."
    case = make_pr("flowgrpo: diffusion agent loop", body=body, files=[SUMMON], repo="acme/plain")
    assert ANALYZER.analyze(case).localized("en").key_points[0].startswith("This is one of the PRs")


def test_struck_out_text_is_withdrawn_and_never_a_key_point() -> None:
    body = (
        "~~Wait for #5716 to review first since there are some repeated codes~~\n\n"
        "- ~~Keep the old summon path behind a flag~~ Summon each unit in turn to bound peak memory"
    )
    case = make_pr("Bound FSDP peak memory", body=body, files=[SUMMON], repo="acme/plain")
    points = " ".join(ANALYZER.analyze(case).localized("en").key_points)
    assert "Wait for" not in points and "behind a flag" not in points
    assert "Summon each unit in turn" in points


@pytest.mark.parametrize(
    "body",
    [
        "### What does this PR do?\n\n- As title and comment\n",
        "As the title says. The dtype cast made bf16 weights fp32 twice.",
        "- 如题\n- The dtype cast made bf16 weights fp32 twice, doubling the memory of the buffers.\n",
        "如题。",
        "Self-explanatory.",
        "See title.",
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_an_opening_or_item_that_points_back_at_the_title_is_no_key_point(body: str, language: str) -> None:
    pr = make_pr("[rollout] fix: remove dtype cast", body, [OFFLOAD])
    points = ANALYZER.analyze(pr, language).key_points  # type: ignore[arg-type]
    assert not [p for p in points if re.search(r"(?i)as (?:the )?title|如题|self-explanatory|see title", p)]
    if "dtype cast made" in body:  # the sentence after it says something
        assert any("dtype cast made" in p for p in points)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_what_follows_a_pointer_at_the_title_in_the_same_sentence_is_kept(language: str) -> None:
    body = "As title, move the ascend workflow files under the NPU owners so reviews reach them."
    pr = make_pr("[ci] chore: update code owners", body, [OFFLOAD])
    texts = ANALYZER.analyze(pr).localized(language)
    said = [texts.gist, *texts.key_points]  # the gist when it says what the PR does, else a key point
    assert any(p.lower().startswith("move the ascend workflow files") for p in said), said


@pytest.mark.parametrize(
    ("table", "point"),
    [
        (
            "|Model|Device Info|time cost (s)|bandwidth (GB/s)|\n|:-:|:-:|:-:|:-:|\n|Qwen3-8B|8x Ascend 910C|0.27|50.26|\n",
            "Qwen3-8B, 8x Ascend 910C: time cost (s) 0.27; bandwidth (GB/s) 50.26",
        ),
        ("|序列|耗时|\n|-|-|\n|4K|1.31s|\n", "4K: 耗时 1.31s"),
        # a comparison with a baseline row is the change from it to the last row
        ("|setup|step time (s)|\n|-|-|\n|baseline|72.6|\n|this PR|51.0|\n", "step time (s): 72.6 → 51.0"),
        # a table of options and one without units are no result
        ("|option|default|\n|-|-|\n|use_liger|1|\n", None),
        ("|layer|count|\n|-|-|\n|moe|40|\n", None),
    ],
)
def test_a_table_of_measurements_gives_its_first_row_or_its_before_and_after(
    table: str, point: str | None
) -> None:
    body = f"Adds a mooncake transfer engine for weight sync.\n\n{table}"
    pr = make_pr("[ckpt] feat: add mooncake backend", body, [code("verl/checkpoint_engine/mooncake.py", 40)])
    for language in ("zh", "en"):
        points = ANALYZER.analyze(pr, language).key_points
        measured = [p for p in points if p.startswith(("Measured", "实测"))]
        if point is None or (language == "en" and re.search(r"[\u4e00-\u9fff]", point)):
            assert measured == []  # an English reader gets no Chinese quote
        else:
            assert measured == [f"{'实测：' if language == 'zh' else 'Measured: '}{point}"]


@pytest.mark.parametrize(
    ("patch", "focus"),
    [
        # a constructor changed inside a class is named with the class the hunk header gives
        (
            "@@ -10,6 +10,8 @@ class ToolAgentLoop(AgentLoopBase):\n     def __init__(self, config):\n"
            "-        self.turns = 1\n+        self.turns = config.max_turns\n+        self.parser = None\n",
            "ToolAgentLoop.__init__",
        ),
        (
            "@@ -40,3 +40,5 @@ class DataProto:\n+    def __getstate__(self):\n+        return self.batch\n",
            "DataProto.__getstate__",
        ),
        ("@@ -1,2 +1,3 @@\n+def __getattr__(name):\n+    return name\n", "__getattr__"),  # no class known
        # a plain method keeps its own name, and an added definition wins over the one above it
        ("@@ -5,3 +5,3 @@ class A:\n     def run(self):\n-        x = 1\n+        x = 2\n", "run"),
        (
            "@@ -5,3 +5,5 @@ class A:\n     def __init__(self):\n+    def helper(self):\n+        y\n",
            "helper",
        ),
    ],
)
def test_the_focus_function_names_a_dunder_with_its_class(patch: str, focus: str) -> None:
    assert focus_function(patch) == focus


GLOSSED_LIST = """### What does this PR do?

1. Add group filtering for the trainers with a refill that depends on the mode.
2. Publish the terminal prompt status only after every session settles, so no late write lands.

Here is the matrix, in which `k` is the number of prompts to evict:

``drop`` means dropping stale samples, which only async trainers do.
"""
GLOSSED_CHINESE = """## 改动

- 为同步训练增加分组过滤，按模式决定补采数量。
- 所有会话结束后才发布最终状态，避免迟到的写入。

k 表示每一轮要从回放缓冲区中淘汰的提示数量，这个数量只在异步训练模式下才会生效。
"""


@pytest.mark.parametrize(("body", "language"), [(GLOSSED_LIST, "en"), (GLOSSED_CHINESE, "zh")])
def test_a_paragraph_glossing_the_list_of_changes_is_no_key_point(body: str, language: str) -> None:
    """The list says what the PR does; a paragraph after it defines its terms or notes on a table."""
    pr = make_pr(title="Replay buffer eviction handling", body=body, files=[code("verl/buffer.py", 40)])
    analysis = ANALYZER.analyze(pr)
    for texts in analysis.texts.values():
        assert not any(re.search(r"\bmeans\b|表示|matrix", t) for t in (texts.gist, *texts.key_points))
    assert re.search(r"filtering|分组过滤", analysis.texts[language].key_points[0])


@pytest.mark.parametrize(
    ("items", "effect"),
    [
        (
            "- Move the lint job into the test workflow\n- Drop the separate lint runner",
            "Saves one runner per workflow run and about four minutes of queue time.",
        ),
        (
            "- Free the KV cache before weight sync\n- Offload the optimizer states",
            "This cuts peak memory on Qwen2-7B by about 12 GB.",
        ),
        (
            "- Acquire the buffer lock before the queue lock",
            "As a result, two rollouts finishing at once no longer deadlock the trainer.",
        ),
        (
            "- 在权重同步前释放 KV cache\n- 优化器状态卸载到 CPU",
            "可将长序列训练的显存峰值降低约 12 GB，避免 OOM。",
        ),
        (
            "- 读取配置时缓存 tokenizer",
            "从而让每个 worker 的启动时间缩短一半以上。",
        ),
    ],
)
def test_what_a_list_of_changes_gets_its_users_is_a_key_point(items: str, effect: str) -> None:
    """After the list of changes, a paragraph saying what they save, cut or end is their reason: a key
    point, unlike a paragraph that glosses the list."""
    body = f"## Changes\n\n{items}\n\n{effect}\n"
    pr = make_pr(
        title="Rework the worker setup", body=body, files=[code("src/pkg/worker.py", 40)], repo="acme/any"
    )
    language = "zh" if CJK.search(effect) else "en"
    points = ANALYZER.analyze(pr).texts[language].key_points
    assert any(effect.rstrip("。.")[:30] in point for point in points), points


@pytest.mark.parametrize(
    ("body", "leaning"),
    [
        (
            "### What does this PR do?\n\nFollow-up to #6604 for the VeOmni engine.\n\n"
            "This PR adds the same guard to the VeOmni engine.\n\nFixes the VeOmni-engine case of #5995.\n",
            ("same guard", "case of #5995"),
        ),
        ("Similarly for the critic worker, which had the same bug.\n", ("Similarly",)),
        ("This PR fixes the above-mentioned issue in the reward loop.\n", ("above-mentioned",)),
        ("同样修复了 critic 中的这个问题，保持与 actor 一致。\n", ("同样",)),
    ],
)
def test_a_sentence_leaning_on_what_came_before_it_is_neither_gist_nor_key_point(
    body: str, leaning: tuple[str, ...]
) -> None:
    """Quoted alone, "adds the same guard…" says nothing: the gist comes from the title instead."""
    pr = make_pr(
        title="fix: skip model.to(device) under CPU offload", body=body, files=[code("src/pkg/engine.py", 30)]
    )
    for texts in ANALYZER.analyze(pr).texts.values():
        said = (texts.gist, *texts.key_points, *texts.reading_guide)
        assert not any(words in text for words in leaning for text in said), said


def test_a_sentence_comparing_within_itself_stands_alone() -> None:
    body = "Adds a disaggregated rollout with per-rank role routing that keeps IPC handles on the same physical GPU.\n"
    pr = make_pr(
        title="Disaggregated rollout", body=body, files=[code("src/pkg/rollout.py", 60)], repo="acme/any"
    )
    assert "same physical GPU" in ANALYZER.analyze(pr).texts["en"].gist


@pytest.mark.parametrize(
    "body",
    [
        "I move the old PR to this one due to some redundant commits.\n",
        "Rebased on main after the config refactor landed upstream.\n",
        "这是之前 PR 的重新提交版本，内容没有变化，只是整理了提交记录。\n",
    ],
)
def test_a_sentence_about_the_prs_own_history_is_no_key_point(body: str) -> None:
    pr = make_pr(
        title="Fix critic save error", body=body, files=[code("src/pkg/critic.py", 30)], repo="acme/any"
    )
    for texts in ANALYZER.analyze(pr).texts.values():
        assert not any(re.search(r"old PR|Rebased|重新提交", t) for t in (texts.gist, *texts.key_points))


@pytest.mark.parametrize(
    ("path", "definition", "focus"),
    [
        (
            "internal/scheduler/lease/watch.go",
            "func (w *Watcher) resume(ctx context.Context, rev int64) error {",
            "resume",
        ),
        (
            "crates/lease/src/renew.rs",
            "pub(crate) async fn spawn_renewal(lease: Lease) -> JoinHandle<()> {",
            "spawn_renewal",
        ),
        ("packages/ui/src/theme.ts", "export default async function loadTheme(user: User) {", "loadTheme"),
        ("packages/ui/src/store.ts", "export class ThemeStore {", "ThemeStore"),
    ],
)
def test_a_reading_guide_starts_at_the_function_in_go_rust_and_typescript(
    path: str, definition: str, focus: str
) -> None:
    """Where to start reading is a function in any of these languages, as in Python: not only the file."""
    body = [f"    const_{i} = step({i})" for i in range(40)]
    pr = make_pr(
        "Rework lease renewal", files=[changed(path, [definition, *body], ["    old()"])], repo="acme/any"
    )
    assert focus_function(pr.files[0].patch or "") == focus
    analysis = ANALYZER.analyze(pr)
    assert analysis.verdict != "skim"
    for language in ("en", "zh"):
        assert focus in analysis.localized(language).reading_guide[0]


def _definitions(*names: str) -> list[str]:
    out: list[str] = []
    for name in names:
        out += [f"def {name}(chunks):", *[f"    part_{i} = step({i})" for i in range(40)]]
    return out


@pytest.mark.parametrize(
    ("title", "body", "repo"),
    [
        ("Add chunked weight transfer", "", "acme/rl"),
        ("[ckpt] feat: chunked weight transfer", "", "verl-project/verl"),
        ("支持分块传输权重", "- 传输前把权重切块\n- 接收端再合并", "acme/rl"),
    ],
)
def test_a_key_point_never_only_lists_what_the_verdict_reason_names(title: str, body: str, repo: str) -> None:
    """The reason names the new definitions; a key point listing the same ones tells the reader nothing
    more, in either language. With more definitions than the reason shows, the point lists them all."""
    few = make_pr(
        title,
        body,
        files=[changed("pkg/trainer/weights.py", _definitions("merge_chunks", "split_chunks"))],
        repo=repo,
    )
    many = make_pr(
        title,
        body,
        files=[
            changed(
                "pkg/trainer/weights.py",
                _definitions("merge_chunks", "split_chunks", "pack_chunks", "send_chunks"),
            )
        ],
        repo=repo,
    )
    for language in ("zh", "en"):
        text = ANALYZER.analyze(few, language).texts[language]
        assert "merge_chunks" in text.verdict_reason, text.verdict_reason
        assert not any("merge_chunks" in p for p in text.key_points), (text.verdict_reason, text.key_points)
        more = ANALYZER.analyze(many, language).texts[language]
        assert any("send_chunks" in p for p in more.key_points), (more.verdict_reason, more.key_points)


def test_a_reason_says_public_api_was_removed_when_it_only_was() -> None:
    removal = make_pr(
        "Drop the old reward model",
        "",
        files=[changed("pkg/trainer/reward.py", ["    kept = 1"], _definitions("old_reward_score"))],
        repo="acme/rl",
    )
    for language, removed in (("en", "removes public API"), ("zh", "删除公共接口")):
        text = ANALYZER.analyze(removal, language).texts[language]
        assert removed in text.verdict_reason, text.verdict_reason
        assert not any("old_reward_score" in p for p in text.key_points), text.key_points


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_design_decision_is_one_list_item_not_two_run_together(language: str) -> None:
    # list items without full stops: each is a sentence of its own
    body = (
        "## Design\n\n"
        "- prompts are expanded to n copies lazily, per chunk, instead of up front\n"
        "- old log-prob tensors are moved to CPU as soon as they are gathered\n"
    )
    case = pr("[fsdp] perf: summon FSDP units one at a time", body, [SUMMON, code("verl/trainer/x.py", 400)])
    guide = ANALYZER.analyze(case).localized(language).reading_guide  # type: ignore[arg-type]
    [design] = [g for g in guide if "instead of up front" in g]
    assert "log-prob" not in design
