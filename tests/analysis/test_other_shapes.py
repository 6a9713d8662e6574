"""The analyzer on repositories shaped unlike verl (tests/analysis/shapes.py: a trl-like library, a
Chinese-first repository, conventional commits): what it says is grounded in the PR and in the reader's
language, says more than the title, names mechanisms with evidence, and ranks PRs as a maintainer
would. Assertions are on structure and truth, never on exact words."""

from __future__ import annotations

import re

import pytest

from chatbot.analysis import Analysis, HeuristicAnalyzer
from chatbot.analysis.features import extract_features, infer_change_type
from chatbot.analysis.heuristic import TEXT
from chatbot.analysis.modules import load_module_map
from chatbot.models import PRFile, PullRequest

from . import shapes
from .builders import changed, make_pr
from .claims import identifiers, ungrounded

ANALYZER = HeuristicAnalyzer()
HAN = re.compile(r"[\u4e00-\u9fff]")
# Paths and code-shaped tokens: what an English text may quote in another script.
_QUOTED = re.compile(r"`[^`]*`|\S*/\S*|\S+\.(?:md|py|txt|toml|ya?ml)\b")


def analysed(pr: PullRequest) -> Analysis:
    return ANALYZER.analyze(pr)


def texts_of(analysis: Analysis, language: str) -> list[str]:
    t = analysis.localized(language)
    return [t.gist, t.verdict_reason, *t.key_points, *t.risks, *t.follow_ups, *t.reading_guide]


def ids(prs: tuple[PullRequest, ...]) -> list[str]:
    return [f"#{pr.number}" for pr in prs]


def test_the_fixtures_cover_at_least_25_prs_of_three_shapes() -> None:
    assert len(shapes.SHAPES) >= 3 and len(shapes.ALL) >= 25


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_every_identifier_and_file_said_occurs_in_the_pr(pr: PullRequest) -> None:
    analysis = analysed(pr)
    for language in ("zh", "en"):
        assert ungrounded(pr, texts_of(analysis, language), analysis.modules) == []


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_english_texts_are_english_but_for_names_and_paths(pr: PullRequest) -> None:
    for text in texts_of(analysed(pr), "en"):
        assert not HAN.search(_QUOTED.sub(" ", text)), text


# The analyzer's own English words, which a Chinese text never holds ("Verify:", "Start reading at").
_ENGLISH_WORDING = sorted(
    {
        part.strip()
        for entry in TEXT.values()
        for part in re.split(r"\{\w+\}", entry["en"])
        if len(part.strip()) >= 12
    }
)


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_chinese_texts_hold_no_english_wording_of_the_analyzer(pr: PullRequest) -> None:
    for text in texts_of(analysed(pr), "zh"):
        assert not [w for w in _ENGLISH_WORDING if w in text], text
        assert not re.search(r"[\u4e00-\u9fff] +[\u4e00-\u9fff]", text), text  # no space inside Chinese


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_no_label_is_said_twice(pr: PullRequest) -> None:
    """No "文档：文档：", "fix: Fix …", "test test change", "必读：必读"."""
    analysis = analysed(pr)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        for text in (t.gist, t.verdict_reason):
            words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]{2}", text.lower())
            assert words[:1] != words[1:2], text
            assert not re.match(r"^([^:：]{1,12})[:：]\s*\1[:：]", text), text
            assert not re.match(
                r"(?i)^(?:\w+ )?(fix|test|doc|revert|修复|测试|文档|回滚)\w*[:：]\s*\1", text
            ), text
        assert not re.match(
            r"^\s*(?:必读|值得一读|可略读|must read|worth reading|skim)\s*[:：]", t.verdict_reason, re.I
        )


ACTION_BODIES = [
    shapes.TRL_PADDING,
    shapes.TRL_DPO_CONFIG,
    shapes.FLOW_S3,
    shapes.SWIFT_DOCS,
    shapes.SWIFT_INTO_CLASS,
]


@pytest.mark.parametrize("pr", ACTION_BODIES, ids=ids(tuple(ACTION_BODIES)))
def test_the_gist_is_what_the_author_says_the_pr_does_not_the_title(pr: PullRequest) -> None:
    """A description saying what the PR does ("This PR pads…", "Adds…", "把…移到…") gives the gist in its
    own language: words of the body beyond the title's."""
    language = "zh" if HAN.search(pr.header.body or "") else "en"
    gist = analysed(pr).localized(language).gist
    body = " ".join((pr.header.body or "").replace("`", "").split())
    title_words = set(re.findall(r"\w+", pr.title.lower()))
    assert gist.rstrip("…").lower()[:30] in body.lower()
    assert set(re.findall(r"\w+", gist.lower())) - title_words


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_a_gist_from_the_title_adds_its_module_or_kind_and_never_echoes_the_kind(pr: PullRequest) -> None:
    for language in ("zh", "en"):
        gist = analysed(pr).localized(language).gist
        assert gist and gist != pr.title, gist


@pytest.mark.parametrize("pr", shapes.SHAPES["chinese-first"], ids=ids(shapes.SHAPES["chinese-first"]))
def test_an_english_reader_of_a_chinese_title_gets_its_names_and_where_the_diff_centres(
    pr: PullRequest,
) -> None:
    gist = analysed(pr).localized("en").gist
    latin = [n for n in re.findall(r"[A-Za-z][\w.-]*[A-Za-z0-9]", pr.title)]
    assert all(name in gist for name in latin[:2]), gist
    focus = extract_features(pr, load_module_map(pr.repo)).focus
    if focus and not HAN.search(pr.header.body or "x"):
        assert focus[0].line in gist


def test_an_english_reader_of_a_chinese_fix_title_learns_the_failure_it_fixes() -> None:
    """`修复 LoRA 合并时显存泄漏` names a leak; the English gist says so (the title is not translated: it stays
    the PR's own, and no English title is made up for it)."""
    analysis = analysed(shapes.SWIFT_LORA_MEMORY)
    assert "leak" in analysis.localized("en").gist and "LoRA" in analysis.localized("en").gist
    assert analysis.title_in("en") == ""


# --- types from titles of other shapes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("🐛 Fix OOM when computing reference log-probs", "fix"),
        (":bug: fix padding side", "fix"),
        ("✨ Add vision support to GRPOTrainer", "feat"),
        ("📝 Update docs", "doc"),
        ("♻️ Make get_per_token_logps a method", "refactor"),
        ("⚡️ Faster generation with vLLM", "perf"),
        ("⬆️ Bump transformers", "chore"),
        ("文档：补充 Megatron-SWIFT 的使用说明", "doc"),
        ("修复：多图推理时 position_ids 错位", "fix"),
        ("【优化】加快 packing", "perf"),
        ("feat(scheduler): add priority queues", "feat"),
        ("fix!: drop support for Python 3.8", "fix"),
    ],
)
def test_gitmoji_and_chinese_type_words_say_the_type(title: str, expected: str) -> None:
    pr = make_pr(title, files=[changed("src/pkg/core.py", ["    x = compute()"] * 20)], repo="acme/any")
    assert infer_change_type(extract_features(pr, load_module_map("acme/any"))) == expected


def test_a_title_type_word_is_no_module() -> None:
    pr = make_pr("【修复】🐛 多图推理错位", files=[changed("src/pkg/core.py", ["x = 1"])], repo="acme/any")
    title = extract_features(pr, load_module_map("acme/any")).title
    assert title.modules == () and title.description == "多图推理错位"


# --- what the diff says ---------------------------------------------------------------------------------


def _method_pr(into: bool) -> PullRequest:
    function = "def get_logps(model, input_ids):"
    method = "    def get_logps(self, model, input_ids):"
    removed, added = ((function,), (method,)) if into else ((method,), (function,))
    patch = (
        "@@ -10,4 +10,4 @@ class Trainer(Base):\n"
        + "\n".join(f"-{line}" for line in removed)
        + "\n"
        + "\n".join(f"+{line}" for line in added)
        + "\n         return model(input_ids)"
    )
    return make_pr(
        "Refactor logps helper", files=[PRFile("pkg/trainer.py", "modified", 1, 1, patch)], repo="acme/any"
    )


@pytest.mark.parametrize("into", [True, False])
def test_a_function_moved_into_a_class_or_out_of_one_is_no_signature_change(into: bool) -> None:
    analysis = analysed(_method_pr(into))
    for language in ("zh", "en"):
        text = analysis.localized(language)
        # Said once: in the verdict reason ("a rename or move (get_logps → Trainer.get_logps)") or a key point.
        points = " ".join((text.verdict_reason, *text.key_points))
        assert "get_logps" in points and "Trainer.get_logps" in points
        assert not re.search(r"签名|signature", points, re.I)


def test_a_renamed_config_key_is_one_rename_with_a_mechanism() -> None:
    analysis = analysed(shapes.TRL_RENAME_ARG)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        # The title says the rename: a key point "Config keys renamed: beta → kl_coef" would only repeat it.
        assert not any(
            re.search(r"新增配置项|New config keys|删除配置项|Removed config keys", p) for p in t.key_points
        )
        assert any("beta" in r and "kl_coef" in r for r in t.risks)
        assert not re.search(r"拼写|typo", t.verdict_reason)
    assert any(r.evidence.startswith("trl/trainer/grpo_config.py") for r in analysis.risks)


@pytest.mark.parametrize(
    ("old", "new", "returns", "title", "body"),
    [
        # words added to the name, and a return annotation: the old name is gone, not "removed"
        ("apply_patch_for_torch_v28", "apply_patch_for_torch_v28_v29", " -> None", "fix: torch 2.9 too", ""),
        # the same signature under another name, a Chinese title and body
        ("compute_score", "score_batch", "", "重构打分接口", "把打分函数改成批量接口。"),
    ],
)
def test_a_renamed_public_definition_is_a_rename_with_a_risk_for_callers_of_the_old_name(
    old: str, new: str, returns: str, title: str, body: str
) -> None:
    pr = make_pr(
        title,
        body=body,
        files=[
            changed(
                "flowkit/core/patch.py",
                [f"def {new}(model, step){returns}:", *[f"    x_{i} = step + {i}" for i in range(12)]],
                [f"def {old}(model, step):", *[f"    x_{i} = step - {i}" for i in range(12)]],
            )
        ],
        repo="acme/flowkit",
        number=90,
    )
    analysis = analysed(pr)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        assert any(f"{old} → {new}" in p for p in t.key_points), t.key_points
        assert not any(re.search(r"删除公共接口|Public definitions removed", p) for p in t.key_points)
        assert any(old in r and new in r for r in t.risks), t.risks
    assert any(
        r.category == "compatibility" and r.evidence.startswith("flowkit/core/patch.py")
        for r in analysis.risks
    )


def test_renamed_source_files_are_a_key_point_and_an_import_risk() -> None:
    analysis = analysed(shapes.FLOW_RENAME_FILES)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        assert any("src/flowkit/utils/" in p and "src/flowkit/helpers/" in p for p in t.key_points)
        assert any("src/flowkit/utils/" in r for r in t.risks)


@pytest.mark.parametrize(
    ("pr", "name", "severity"),
    [
        (shapes.SWIFT_VLLM_BUMP, "vllm", "medium"),  # a requirements/ folder, a key framework
        (shapes.TRL_BUMP, "transformers", "medium"),  # its raised requires-python is a compatibility risk
        (shapes.FLOW_PYDANTIC_BUMP, "pydantic", "medium"),
        (shapes.FLOW_DOCKER, "python", "low"),  # a base image is never key
    ],
)
def test_dependency_bumps_in_every_kind_of_file_are_named_with_their_versions(
    pr: PullRequest, name: str, severity: str
) -> None:
    analysis = analysed(pr)
    risks = [r for r in analysis.risks if r.category == "dependency"]
    named = [r for r in risks if re.search(rf"(?<![\w/-]){re.escape(name)} \S+ → ", r.text)]
    assert named and named[0].severity == severity, risks
    assert named[0].evidence in {f.filename for f in pr.files}


def test_a_workflows_action_bump_is_no_dependency_risk_to_users() -> None:
    analysis = analysed(shapes.FLOW_ACTIONS_BUMP)
    assert not [r for r in analysis.risks if r.category == "dependency"]
    assert any("actions/checkout" in p for p in analysis.localized("en").key_points)


def test_a_package_pinned_in_requirements_and_a_dockerfile_is_said_once() -> None:
    points = " ".join(analysed(shapes.SWIFT_VLLM_BUMP).localized("en").key_points)
    assert points.count("vllm ") == 1, points


def test_a_major_version_change_of_any_package_is_a_medium_risk() -> None:
    pr = make_pr(
        "chore(deps): bump attrs", files=[changed("requirements.txt", ["attrs==23.1.0"], ["attrs==21.4.0"])]
    )
    risk = analysed(pr).risks[0]
    assert risk.severity == "medium" and "21.4.0 → 23.1.0" in risk.text


def test_a_table_whose_rows_are_before_and_after_is_a_measured_result() -> None:
    points = analysed(shapes.TRL_LIGER).localized("en").key_points
    assert any(p.startswith("Measured") and "42.1 GB → 27.6 GB" in p for p in points), points


# --- risks and reading guides ---------------------------------------------------------------------------


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_every_risk_has_evidence_in_the_pr(pr: PullRequest) -> None:
    paths = {f.filename for f in pr.files}
    for risk in analysed(pr).risks:
        assert risk.evidence, risk
        assert risk.evidence.split(":")[0] in paths or risk.evidence.startswith(
            ("title:", "BREAKING CHANGE")
        ), risk


@pytest.mark.parametrize("pr", shapes.ALL, ids=ids(shapes.ALL))
def test_a_pr_worth_reading_says_where_to_start_in_its_diff(pr: PullRequest) -> None:
    analysis = analysed(pr)
    if analysis.verdict == "skim":
        assert analysis.localized("en").reading_guide == ()
        return
    for language in ("zh", "en"):
        guide = analysis.localized(language).reading_guide
        assert guide and any(f.filename in guide[0] for f in pr.files), guide
        named = [i for line in guide for i in identifiers(line)]
        assert all(ungrounded(pr, [i]) == [] for i in named)


# --- ranking --------------------------------------------------------------------------------------------

SUBSTANCE = (
    shapes.TRL_OOM,
    shapes.TRL_LIGER,
    shapes.TRL_PADDING,
    shapes.SWIFT_MULTI_TURN,
    shapes.SWIFT_LORA_MEMORY,
    shapes.SWIFT_POSITION,
    shapes.FLOW_PRIORITY,
    shapes.FLOW_DEADLOCK,
    shapes.FLOW_S3,
)
RENAMES = (
    shapes.TRL_RENAME_ARG,
    shapes.TRL_INTO_CLASS,
    shapes.SWIFT_INTO_CLASS,
    shapes.FLOW_RENAME_API,
    shapes.FLOW_RENAME_FILES,
)
UPKEEP = (
    shapes.TRL_DOCS,
    shapes.TRL_BUMP,
    shapes.TRL_TESTS,
    shapes.SWIFT_VLLM_BUMP,
    shapes.SWIFT_DOCS,
    shapes.SWIFT_TYPO,
    shapes.FLOW_ACTIONS_BUMP,
    shapes.FLOW_PYDANTIC_BUMP,
    shapes.FLOW_DOCS,
    shapes.FLOW_TESTS,
    shapes.FLOW_CI,
    shapes.FLOW_DOCKER,
)


def test_capabilities_semantics_and_memory_or_correctness_fixes_rank_above_renames() -> None:
    """Above every rename that breaks nothing; a breaking rename is flagged (below) and stays below most
    of them: its readers learn the new name from the key points."""
    substance = sorted(analysed(p).importance for p in SUBSTANCE)
    renames = [analysed(p) for p in RENAMES]
    assert substance[0] > max(a.importance for a in renames if not a.breaking), substance
    assert all(a.importance < substance[len(substance) // 2] for a in renames if a.breaking)


def test_renames_rank_above_docs_ci_tests_and_bumps() -> None:
    renames = [analysed(p).importance for p in RENAMES]
    upkeep = [analysed(p).importance for p in UPKEEP]
    assert min(renames) > max(upkeep), (renames, upkeep)


def test_a_breaking_rename_is_flagged_worth_reading_and_not_must_read() -> None:
    analysis = analysed(shapes.FLOW_RENAME_API)
    assert analysis.breaking and analysis.verdict == "worth-reading"
    assert any(r.category == "breaking-change" and "execute" in r.text for r in analysis.risks)


def test_docs_ci_tests_and_bumps_are_skimmed() -> None:
    assert {analysed(p).verdict for p in UPKEEP} == {"skim"}


@pytest.mark.parametrize("shape", list(shapes.SHAPES))
def test_the_top_pr_of_each_shape_is_substance(shape: str) -> None:
    top = max(shapes.SHAPES[shape], key=lambda p: analysed(p).importance)
    assert top in SUBSTANCE, top.title


def test_shipped_source_of_a_repository_without_a_map_stands_for_its_core() -> None:
    code = extract_features(shapes.FLOW_PRIORITY, load_module_map(shapes.FLOW))
    docs = extract_features(shapes.FLOW_DOCS, load_module_map(shapes.FLOW))
    tests = extract_features(shapes.FLOW_TESTS, load_module_map(shapes.FLOW))
    assert code.core_share > 0 and docs.core_share == tests.core_share == 0


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("trl/trainer/grpo_trainer.py", "trainer"),
        ("trl/models/modeling_value_head.py", "models"),
        ("swift/llm/model/qwen2_vl.py", "llm"),
        ("src/flowkit/scheduler/queues.py", "scheduler"),
        ("src/flowkit/config.py", "flowkit"),
        ("main.py", "misc"),
    ],
)
def test_modules_of_repositories_without_tags_come_from_their_folders(path: str, module: str) -> None:
    assert load_module_map("acme/unknown").module_for_path(path) == module


@pytest.mark.parametrize(
    "files",
    [
        [changed("requirements.txt", ["numpy>=1.26"], ["numpy>=1.26", "torch_npu==2.5.1"])],
        [
            changed(
                "pyproject.toml", ['    "numpy>=1.26",'], ['    "numpy>=1.26",', '    "torch_npu==2.5.1",']
            )
        ],
    ],
)
def test_a_removed_dependency_is_said_to_be_removed_not_a_version_to_resolve(files: list[PRFile]) -> None:
    analysis = analysed(make_pr("Drop the NPU extra", files=files, repo="acme/flowkit", number=91))
    for language in ("zh", "en"):
        [risk] = [r for r in analysis.localized(language).risks if "torch_npu" in r]
        assert re.search(r"移除了依赖|dependencies removed", risk), risk
        assert not re.search(r"解析不到|resolve|→", risk), risk


@pytest.mark.parametrize(
    ("added", "removed", "said"),
    [
        (
            ["transformers<5.0.0"],
            ["transformers"],
            r"transformers (?:unpinned → <5\.0\.0|原先不限版本，现为 <5\.0\.0)",
        ),
        (["transformers"], ["transformers<5.0.0"], r"transformers (?:<5\.0\.0 → unpinned|去掉了版本限制)"),
    ],
)
def test_a_pin_added_to_or_dropped_from_a_bare_name_is_said_so(
    added: list[str], removed: list[str], said: str
) -> None:
    pr = make_pr(
        "Cap transformers",
        files=[changed("requirements.txt", added, removed)],
        repo="acme/flowkit",
        number=92,
    )
    analysis = analysed(pr)
    for language in ("zh", "en"):
        texts = [*analysis.localized(language).risks, *analysis.localized(language).key_points]
        assert any(re.search(said, t) for t in texts), texts
        assert not any("?" in t for t in texts), texts


def _hunk(context: str, removed: list[str]) -> PRFile:
    """A file whose one hunk (under `context`, as git names it in the hunk header) removes `removed`."""
    patch = f"@@ -10,{len(removed) + 2} +10,2 @@ {context}\n     x = 1\n" + "".join(
        f"-{line}\n" for line in removed
    )
    patch += "     return x\n"
    return PRFile(
        filename="flowkit/core/patching.py",
        status="modified",
        additions=0,
        deletions=len(removed),
        patch=patch,
    )


@pytest.mark.parametrize(
    ("context", "public"),
    [
        ("def apply_router_patch():", False),  # a closure inside a top-level function
        ("async def install_hooks(engine):", False),
        ("class RouterPatch:", True),  # a method of a class
    ],
)
def test_a_function_defined_inside_a_function_is_no_public_definition(context: str, public: bool) -> None:
    removed = ["    def patched_set_layer_number(self, layer_number: int):", "        self.n = layer_number"]
    pr = make_pr(
        "fix: router patch for hybrid models", files=[_hunk(context, removed)], repo="acme/flowkit", number=93
    )
    analysis = analysed(pr)
    for language in ("zh", "en"):
        texts = [*analysis.localized(language).risks, *analysis.localized(language).key_points]
        assert any("patched_set_layer_number" in t for t in texts) == public, texts


def test_a_default_that_becomes_required_is_said_to_be_required() -> None:
    files = [changed("flowkit/config/rollout.yaml", ["name: ???"], ["name: vllm"])]
    analysis = analysed(
        make_pr("[BREAKING] rollout name must be set", files=files, repo="acme/flowkit", number=94)
    )
    for language in ("zh", "en"):
        texts = [*analysis.localized(language).risks, *analysis.localized(language).key_points]
        assert not any("???" in t for t in texts), texts
        assert any(re.search(r"必须显式设置|must (?:now )?be set", t) and "vllm" in t for t in texts), texts


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        (".gemini/config.yaml", "ci"),
        (".readthedocs.yaml", "ci"),
        (".vscode/settings.json", "ci"),
        (".github/PULL_REQUEST_TEMPLATE.md", "ci"),
        (".claude/skills/review.md", "doc"),
        ("configs/train.yaml", "config"),
    ],
)
def test_the_repositorys_own_tooling_is_no_user_config(path: str, kind: str) -> None:
    from chatbot.analysis.features import file_kind

    assert file_kind(path) == kind


def test_removing_a_review_bots_settings_is_no_config_risk() -> None:
    files = [changed(".gemini/config.yaml", [], ["have_fun: false", "code_review:", "  disable: false"])]
    analysis = analysed(
        make_pr("chore: remove gemini code review", files=files, repo="acme/flowkit", number=95)
    )
    assert not [r for r in analysis.risks if r.category == "config"], analysis.risks


@pytest.mark.parametrize("removed", [["transformers<5.0.0"], ["torch>=2.4,<2.6"]])
def test_an_unpinned_key_dependency_says_new_installs_take_the_latest_release(removed: list[str]) -> None:
    name = removed[0].split("<")[0].split(">")[0]
    pr = make_pr(
        "Unpin the framework",
        files=[changed("requirements.txt", [name], removed)],
        repo="acme/flowkit",
        number=96,
    )
    analysis = analysed(pr)
    for language in ("zh", "en"):
        [risk] = [r for r in analysis.localized(language).risks if name in r]
        assert re.search(r"最新版本|latest release", risk) and not re.search(r"解析不到|resolve", risk), risk
