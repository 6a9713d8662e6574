"""Composing a report from analysed PRs, without a database: highlights are themes, risks are
mechanisms, the reading list agrees with the chat's verdicts, follow-ups spread over concerns. Asserted
on structure, on a trl-like week written here and on weeks of the verl export (skipped where absent)."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from adapters.github.rest import pull_request_from_rest
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.analysis.types import Risk
from chatbot.messages import join_all, pr_refs, say
from chatbot.models import PRFile, PullRequest
from chatbot.reports.builder import AnalyzedPR, clean_title, compose_weekly_report, point_of
from chatbot.reports.cards import report_document
from chatbot.reports.model import WeeklyReport
from chatbot.reports.themes import concern_of
from chatbot.weeks import Week
from tests.analysis.builders import changed, code, make_pr
from tests.analysis.test_verl_data import DATA
from tests.reports.fixtures import analysis as fixture_analysis

UTC_ZONE = ZoneInfo("UTC")
WEEK = Week.containing(datetime(2026, 3, 4, tzinfo=UTC), UTC_ZONE)
NOW = datetime(2026, 3, 9, tzinfo=UTC)
ANALYZER = HeuristicAnalyzer(language="zh")
PR_MENTION = re.compile(r"#(\d+)")


def trl_like_week() -> list[AnalyzedPR]:
    """Plain titles, Chinese and bullet-only bodies, the default module map: two memory fixes, two
    dependency bumps, a capability, a rename, docs."""
    prs = [
        make_pr(
            "Fix OOM in DPOTrainer with gradient checkpointing",
            body="- reference logits stayed on GPU for the whole epoch\n- free them after each step",
            files=[code("trl/trainer/dpo_trainer.py", 60)],
            number=11,
        ),
        make_pr(
            "Reduce peak memory of GRPO generation",
            body="本 PR 分块生成，避免一次性占用全部显存。\n\n峰值显存由 71GB 降至 52GB。",
            files=[code("trl/trainer/grpo_trainer.py", 80), code("tests/test_grpo.py", 10)],
            number=12,
        ),
        make_pr(
            "Bump transformers to 4.57",
            files=[changed("setup.py", ['"transformers>=4.57"'], ['"transformers>=4.56"'])],
            number=13,
        ),
        make_pr(
            "Pin numpy below 2 for the NPU image",
            files=[changed("requirements-npu.txt", ["numpy<2"])],
            number=14,
        ),
        make_pr(
            "Add vision-language model support to GRPOTrainer",
            files=[
                changed(
                    "trl/trainer/grpo_trainer.py",
                    ["class VisionCollator:", *[f"    x_{i} = {i}" for i in range(200)]],
                )
            ],
            number=15,
        ),
        make_pr(
            "Rename args to training_args in SFTTrainer",
            body="BREAKING CHANGE: `SFTTrainer(args=...)` is now `SFTTrainer(training_args=...)`.",
            files=[code("trl/trainer/sft_trainer.py", 150)],
            number=16,
        ),
        make_pr("Fix typo in README", files=[changed("README.md", ["trainer"], ["trainre"])], number=17),
    ]
    return [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs]


def verl_weeks() -> list[list[AnalyzedPR]]:
    """Three busy weeks of the verl export (never June 2026, which is kept aside)."""
    if not DATA.is_file():
        return []
    with gzip.open(DATA, "rt", encoding="utf-8") as lines:
        prs = [pull_request_from_rest(json.loads(line), "verl-project/verl") for line in lines]
    by_week: dict[tuple[int, int], list[PullRequest]] = {}
    for pr in prs:
        assert pr.header.merged_at is not None
        year, week, _ = pr.header.merged_at.isocalendar()
        if not (year == 2026 and 23 <= week <= 27):
            by_week.setdefault((year, week), []).append(pr)
    busiest = sorted(by_week, key=lambda k: -len(by_week[k]))[:3]
    return [[AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in by_week[k]] for k in busiest]


VERL_WEEKS = verl_weeks()


def weeks() -> list[object]:
    cases = [pytest.param(trl_like_week(), id="trl-like")]
    cases += [pytest.param(w, id=f"verl-{i}") for i, w in enumerate(VERL_WEEKS)]
    return cases


def compose(records: list[AnalyzedPR], language: str = "zh") -> WeeklyReport:
    return compose_weekly_report("acme/x", WEEK, records, [], language=language, generated_at=NOW)  # type: ignore[arg-type]


@pytest.mark.parametrize("records", weeks())
def test_highlights_are_themes_gathering_prs_that_share_a_concern(records: list[AnalyzedPR]) -> None:
    report = compose(records)
    concern = {r.number: concern_of(r.pr.title, r.analysis, r.analysis.localized("en").gist) for r in records}
    assert report.highlights
    for item in report.highlights:
        assert len({concern[n] for n in item.prs}) == 1  # one concern per highlight
    shared = Counter(concern.values())
    for item in report.highlights:
        if shared[concern[item.prs[0]]] >= 2:
            assert len(item.prs) >= 2, item  # PRs that share a concern are gathered
    assert len({concern[item.prs[0]] for item in report.highlights}) == len(report.highlights)


@pytest.mark.parametrize("records", weeks())
def test_risks_are_mechanisms_naming_at_most_two_prs_except_the_missing_tests_line(
    records: list[AnalyzedPR],
) -> None:
    report = compose(records)
    by_number = {r.number: r.analysis for r in records}
    for risk in report.risks:
        if risk.category == "missing-tests":
            assert all(any(x.category == "missing-tests" for x in by_number[n].risks) for n in risk.prs)
        else:
            assert 1 <= len(risk.prs) <= 2
            assert {int(n) for n in PR_MENTION.findall(risk.text)} <= set(risk.prs)


@pytest.mark.parametrize("records", weeks())
def test_the_reading_list_in_the_summary_is_the_chats(records: list[AnalyzedPR]) -> None:
    """Its key PRs and must-reads, as the chat counts them ("值得精读", "必读"); a week without a
    must-read says so rather than "0 must-read"."""
    report = compose(records, "en")
    listed = [r for r in records if r.analysis.verdict != "skim"]
    must = [r for r in listed if r.analysis.verdict == "must-read"]
    assert (len(report.reading_list), len(report.must_read)) == (len(listed), len(must))
    if listed:
        assert f"reading list has {len(listed)} key PR" in report.executive_summary
        assert (f"{len(must)} must-read" if must else "none must-read") in report.executive_summary
    if listed and not must:
        assert "0 must-read" not in report.executive_summary


def test_a_week_without_a_must_read_says_its_key_prs_are_all_worth_reading() -> None:
    records = [
        AnalyzedPR(r.pr, replace(r.analysis, verdict="worth-reading" if r.number in (11, 15) else "skim"))
        for r in trl_like_week()
    ]
    for language in ("zh", "en"):
        report = compose(records, language)
        assert sorted(report.reading_list) == [11, 15] and not report.must_read
        prs = pr_refs(report.reading_list, language)
        assert say("report.must_read.worth_only", language, n=2, prs=prs).strip() in report.executive_summary


@pytest.mark.parametrize("records", weeks())
def test_the_summary_names_the_themes_most_prs_went_to_busiest_first(records: list[AnalyzedPR]) -> None:
    """The headline leads with the weightiest themes; the summary says where the week's volume went, so
    its counts run down ("Most changes were in docs (9), trainer (4)…")."""
    summary = compose(records, "en").executive_summary
    themes = summary.split("Most changes were in ", 1)[1].split(".", 1)[0]
    counts = [int(n) for n in re.findall(r"\((\d+)\)(?:,| and|$)", themes)]
    assert counts and counts == sorted(counts, reverse=True), themes


def test_narrative_lines_open_with_a_capital_in_english_but_a_module_keeps_its_case() -> None:
    """A conventional-commit title without its `type(scope):` opens in lowercase ("pass `dp_group` to
    …"); a line of the narrative is a sentence. A line opening with a module's name ("vllm") keeps it."""
    prs = [
        make_pr(
            "fix(trainer): pass dp_group to the batch splitter",
            files=[code("pkg/trainer/a.py", 40)],
            number=1,
        ),
        make_pr(
            "chore: bump the CI image", files=[changed(".github/workflows/ci.yml", ["image: x:2"])], number=2
        ),
        make_pr("vllm rollout honours max_tokens", files=[code("pkg/vllm/rollout.py", 30)], number=3),
    ]
    report = compose([AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs], "en")
    lines = {item.prs[0]: item.text for theme in report.themes for item in theme.items}
    assert lines[1].startswith("Pass dp_group"), lines
    assert lines[2].startswith("Bump the CI image"), lines
    assert lines[3].startswith("vllm rollout honours"), lines


def test_a_theme_label_names_no_module_its_name_already_says() -> None:
    prs = [
        make_pr("Reuse the KV cache between turns", files=[code("pkg/workers/rollout/kv.py", 60)], number=1),
        make_pr("Stream generation results", files=[code("pkg/workers/rollout/stream.py", 60)], number=2),
    ]
    records = [AnalyzedPR(pr, replace(ANALYZER.analyze(pr), modules=("rollout", "vllm"))) for pr in prs]
    (theme,) = compose(records, "en").themes
    assert theme.name == "Rollout and inference (vllm)", theme.name


@pytest.mark.parametrize("records", weeks())
def test_follow_ups_spread_over_prs_and_every_cited_pr_is_of_the_week(records: list[AnalyzedPR]) -> None:
    report = compose(records)
    mentions = Counter(int(n) for f in report.follow_ups for n in set(PR_MENTION.findall(f)))
    assert all(count <= 2 for count in mentions.values()), mentions
    week = set(report.prs)
    texts = [report.headline, report.executive_summary, *report.follow_ups, *report.trend_notes]
    texts += [i.text for i in report.highlights] + [r.text for r in report.risks]
    assert {int(n) for t in texts for n in PR_MENTION.findall(t)} <= week


@pytest.mark.parametrize("records", weeks())
def test_trends_come_with_a_sentence_and_participants_with_a_line(records: list[AnalyzedPR]) -> None:
    report = compose(records)
    assert report.trend_notes and all(report.trend_notes)
    assert report.participants.startswith("参与者")
    busiest = Counter(r.pr.header.author for r in records).most_common(1)[0][0]
    assert f"@{busiest}" in report.participants


@pytest.mark.parametrize("records", weeks())
def test_key_prs_worth_reading_carry_their_reading_guide(records: list[AnalyzedPR]) -> None:
    report = compose(records)
    for row in report.key_prs:
        if row.verdict != "skim":
            assert row.reading_guide and row.gist


def test_a_breaking_rename_is_not_the_first_highlight_of_a_week_with_real_changes() -> None:
    report = compose(trl_like_week())
    assert 16 not in report.highlights[0].prs


def test_memory_fixes_and_dependency_bumps_each_make_one_highlight() -> None:
    report = compose(trl_like_week(), "en")
    gathered = {tuple(sorted(item.prs)) for item in report.highlights}
    assert (11, 12) in gathered
    assert (13, 14) in gathered


def test_an_english_report_of_prs_analysed_in_chinese_reads_the_english_texts() -> None:
    records = trl_like_week()
    report = compose(records, "en")
    by_number = {r.number: r.analysis for r in records}
    for row in report.key_prs:
        english = by_number[row.number].localized("en")
        assert row.key_point in (*english.key_points, english.verdict_reason)
        assert row.reading_guide == english.reading_guide
    english_risks = {t.rstrip(".") for r in records for t in r.analysis.localized("en").risks}
    for risk in report.risks:
        if risk.category != "missing-tests":
            assert any(t in risk.text for t in english_risks)
    untested = [r for r in report.risks if r.category == "missing-tests"]
    assert all(
        r.text.startswith(say("report.risk.untested", "en", n=len(r.prs), prs="")[:10]) for r in untested
    )


def test_a_quiet_week_is_one_line() -> None:
    report = compose([])
    assert report.quiet and not report.highlights and not report.risks


def test_previous_week_moves_the_trend_sentence() -> None:
    records = trl_like_week()
    earlier = [
        AnalyzedPR(
            make_pr("Update docs", files=[changed("docs/a.md", ["x"])], number=1),
            ANALYZER.analyze(make_pr("Update docs", files=[changed("docs/a.md", ["x"])], number=1)),
        )
    ]
    report = compose_weekly_report(
        "acme/x", WEEK, records, earlier, language="en", generated_at=NOW + timedelta(days=1)
    )
    assert report.trend_notes and report.trend_notes != (say("report.trend.steady", "en"),)


def _week(*specs: tuple[str, str], start: int = 1) -> list[AnalyzedPR]:
    prs = [make_pr(title, files=[code(path, 30)], number=start + i) for i, (title, path) in enumerate(specs)]
    return [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs]


def test_the_trend_sentence_says_which_theme_work_moved_toward_and_away_from() -> None:
    docs = [(f"Document option {i}", f"docs/page_{i}.md") for i in range(4)]
    before = _week(*docs, start=100)
    now = _week(
        ("Fix OOM when gathering shards", "pkg/rollout/gather.py"),
        ("Reduce peak memory of generation", "pkg/rollout/generate.py"),
        ("Free the KV cache after each step", "pkg/rollout/cache.py"),
        docs[0],
    )
    concerns = Counter(r.concern for r in now)
    (memory, _), *_ = concerns.most_common(1)
    report = compose_weekly_report("acme/x", WEEK, now, before, language="en", generated_at=NOW)
    shift = report.trend_notes[0]
    assert shift.startswith("Work moved toward"), report.trend_notes
    assert "(4 → 1)" in shift and f"(0 → {concerns[memory]} PRs" in shift
    zh = compose_weekly_report("acme/x", WEEK, now, before, language="zh", generated_at=NOW)
    assert zh.trend_notes[0].startswith("本周重心转向")


def test_risks_in_what_the_project_ships_come_before_those_in_examples_and_ci() -> None:
    """A pin in an example's launch script or a CI image breaks a command or a job, not the product: a
    reader sees the product's risks first, whatever their severity, and the others while room remains."""
    example = make_pr(
        "Pin torch in the example",
        files=[changed("examples/grpo/run.sh", ["pip install torch==2.5.1"], ["pip install torch==2.4.0"])],
        number=1,
    )
    pins = [
        make_pr(
            f"Pin lib{i}",
            files=[changed("requirements.txt", [f"lib{i}==1.{i}.1"], [f"lib{i}==1.{i}.0"])],
            number=10 + i,
        )
        for i in range(5)
    ]
    records = [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in [example, *pins]]
    # The analyzer rates an example's pin low itself (since 4.8.2), as the product's pins here are.
    assert all(r.analysis.risks[0].severity == "low" for r in records)
    cited = [risk.prs[0] for risk in compose(records, "en").risks]
    assert cited == [10, 11, 12, 13, 14], cited  # five product risks fill the list
    cited = [risk.prs[0] for risk in compose(records[:3], "en").risks]
    assert cited == [10, 11, 1], cited  # room left: the example's pin, last


def test_a_count_that_moved_by_one_is_no_trend() -> None:
    before = _week(
        ("Fix OOM when gathering shards", "pkg/rollout/gather.py"),
        ("Accept jsonl dataset files", "pkg/data/loader.py"),
        start=100,
    )
    now = _week(
        ("Fix OOM when gathering shards", "pkg/rollout/gather.py"),
        ("Reduce peak memory of generation", "pkg/rollout/generate.py"),
        ("Accept jsonl dataset files", "pkg/data/loader.py"),
    )
    report = compose_weekly_report("acme/x", WEEK, now, before, language="en", generated_at=NOW)
    assert report.trend_notes == (say("report.trend.steady", "en"),)


def test_a_theme_that_shrank_with_the_whole_week_did_not_move() -> None:
    """Ten docs PRs last week and two this week, in a week of two PRs: the volume fell, not the docs."""
    docs = [(f"Document option {i}", f"docs/page_{i}.md") for i in range(10)]
    report = compose_weekly_report(
        "acme/x", WEEK, _week(*docs[:2]), _week(*docs, start=100), language="en", generated_at=NOW
    )
    assert report.trend_notes == (say("report.trend.volume", "en", count=2, previous=10),)


_ONE_MORE = re.compile(r"等 ?1 ?项|及其他 ?1 ?个|and 1 more", re.I)


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("records", weeks())
def test_highlights_name_every_pr_they_cite_by_what_it_changed_and_never_hide_one_item(
    records: list[AnalyzedPR], language: str
) -> None:
    """A theme names each PR it cites in its text (no list of bare numbers after it), the first with
    what it says beyond its title, and never ends in "and 1 more"."""
    report = compose(records, language)
    by_number = {r.number: r for r in records}
    for item in report.highlights:
        assert {int(n) for n in PR_MENTION.findall(item.text)} == set(item.prs), item.text
        assert not _ONE_MORE.search(item.text), item.text
        point = point_of(by_number[item.prs[0]], language)  # type: ignore[arg-type]
        if point:
            assert point.rstrip("…")[:40].lower() in item.text.lower(), item.text
    for line in [report.executive_summary, *report.follow_ups, *(r.text for r in report.risks)]:
        assert not _ONE_MORE.search(line), line


def test_refs_name_a_single_remaining_pr_instead_of_saying_one_more() -> None:
    assert pr_refs(range(1, 8), "zh") == "#1、#2、#3、#4、#5、#6、#7"
    assert pr_refs(range(1, 8), "en") == "#1, #2, #3, #4, #5, #6, #7"
    assert pr_refs(range(1, 9), "en").endswith("and 2 more")


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("records", weeks())
def test_no_key_change_says_its_title_twice(records: list[AnalyzedPR], language: str) -> None:
    report = compose(records, language)
    titles = {r.number: clean_title(r.pr.title).lower() for r in records}
    for theme in report.themes:
        for item in theme.items:
            title = titles[item.prs[0]]
            assert item.text.lower().count(title[: min(len(title), 30)]) <= 1, item.text


@pytest.mark.parametrize(
    "gist",
    [
        "rollout 修复：fix some compatibility issue with qwen vl seris support of trtllm…",
        "rollout fix: Fix some compatibility issues with Qwen VL series support of TRTLLM rollout",
        "Fixes some compatibility issue with qwen vl seris support in the trtllm rollout path",
    ],
)
def test_a_gist_quoting_a_clipped_or_retyped_title_is_not_prefixed_by_it(gist: str) -> None:
    pr = make_pr(
        "[rollout] fix: fix some compatibility issue with qwen vl seris support of trtllm rollout",
        files=[code("pkg/rollout/trtllm.py", 30)],
        number=21,
    )
    analysis = ANALYZER.analyze(pr)
    texts = {k: replace(v, gist=gist) for k, v in analysis.texts.items()}
    record = AnalyzedPR(pr, replace(analysis, texts=texts))
    (item,) = compose([record]).themes[0].items
    # The line says the title once: the gist, or the title itself when the gist only adds the module
    # and the kind of change.
    assert item.text.lower().count("compatibility") == 1
    assert item.text in (gist, "fix some compatibility issue with qwen vl seris support of trtllm rollout")
    other = AnalyzedPR(
        pr, replace(analysis, texts={k: replace(v, gist="提升多模态兼容性") for k, v in texts.items()})
    )
    assert compose([other]).themes[0].items[0].text.startswith("fix some compatibility")


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("records", weeks())
def test_a_highlight_says_something_its_titles_do_not(records: list[AnalyzedPR], language: str) -> None:
    """A highlight names its PRs by what they do beyond their titles (the gist, the author's lead, a
    measured result, what the diff adds or removes) whenever the analysis has such a text."""
    report = compose(records, language)
    by_number = {r.number: r for r in records}
    for item in report.highlights:
        lead = by_number[item.prs[0]]
        point = point_of(lead, language)  # type: ignore[arg-type]
        if point:
            assert point in item.text, item.text
            title_words = set(re.findall(r"[a-z0-9_]+", lead.pr.title.lower()))
            shown = point.rstrip("…")
            point_words = set(re.findall(r"[a-z0-9_]+|[\u4e00-\u9fff]", shown.lower()))
            assert len(point_words - title_words) >= 3, point


def test_a_highlight_quotes_the_measured_result_of_a_pr_whose_title_says_only_what() -> None:
    report = compose(trl_like_week(), "zh")
    memory = next(item for item in report.highlights if 12 in item.prs)
    assert "71GB" in memory.text or "分块生成" in memory.text, memory.text


def test_clipped_texts_never_end_inside_a_code_span_or_a_word() -> None:
    from chatbot.reports.builder import _clip

    text = "Support zero-copy serialization through the environment variable `TQ_ZERO_COPY_SERIALIZATION` for units"
    for limit in range(40, len(text)):
        clipped = _clip(text, limit)
        assert len(clipped) <= limit and clipped.count("`") % 2 == 0, clipped
        assert clipped == text or (text.startswith(clipped.rstrip("…")) and text[len(clipped) - 1] in " `"), (
            clipped
        )


@pytest.mark.parametrize(
    "text",
    [
        "修复 rollout 中的显存泄漏（由于 weight sync 时没有释放旧的 buffer 并且 cache 也一直保持）然后更多说明",
        "Fix peak memory in the engine (caused by the buffer that weight sync keeps alive) and more words here",
        "a (b c d e f g h i j k l m n o p q r s t u v w x y z) tail",
        "【重要】修复 [rollout] 的权重同步（sglang 后端在 tp>1 时重复 clone 导致 OOM）并补充测试",
    ],
)
def test_clipped_texts_never_leave_a_bracket_open(text: str) -> None:
    from chatbot.reports.builder import _BRACKETS, _clip

    for limit in range(12, len(text)):
        clipped = _clip(text, limit)
        assert len(clipped) <= limit, clipped
        for opener, closer in _BRACKETS.items():
            assert clipped.count(opener) == clipped.count(closer), (limit, clipped)


def test_participants_leave_out_placeholder_logins() -> None:
    records = trl_like_week()
    first = records[0]
    header = replace(first.pr.header, author="-")
    records[0] = AnalyzedPR(replace(first.pr, header=header), first.analysis)
    participants = compose(records, "en").participants
    assert "@-" not in participants and "@alice" in participants


@pytest.mark.parametrize(
    ("title", "concern"),
    [
        ("Fix OOM in DPOTrainer", "memory"),
        ("FIX oom IN dpo", "memory"),
        ("Support Ascend NPU in the rollout", "hardware"),
        ("BUMP Transformers TO 4.57", "dependencies"),
        ("修复显存泄漏", "memory"),
    ],
)
def test_concerns_are_found_whatever_the_case_of_the_title(title: str, concern: str) -> None:
    analysis = ANALYZER.analyze(make_pr(title, files=[code("pkg/core/x.py", 40)], repo="acme/plain"))
    assert concern_of(title, analysis) == concern


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_themes_heading_counts_all_its_prs_and_the_list_says_how_many_more(language: str) -> None:
    from chatbot.reports.builder import THEME_ITEMS
    from chatbot.reports.cards import report_document

    docs = [
        make_pr(f"Fix typo in the {topic} guide", files=[changed(f"docs/{topic}.md", ["a"], ["b"])], number=n)
        for n, topic in enumerate(["install", "quickstart", "faq", "ppo", "grpo", "dpo", "sft", "lora"], 1)
    ]
    report = compose([AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in docs], language)
    (theme,) = [t for t in report.themes if t.size == len(docs)]
    assert len(theme.items) == THEME_ITEMS < theme.size
    text = report_document(report).plain_text()
    assert say("report.theme_heading", language, name=theme.name, n=len(docs)) in text  # not 5
    assert say("report.and_more", language, n=len(docs) - THEME_ITEMS) in text


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_text_that_opens_with_a_link_is_no_point_of_the_pr(language: str) -> None:
    """A link first ("https://…/pull/4280 refactor vllm breaking…") refers to another PR; it is not what this one
    says beyond its title, so the next text that says more is its point."""
    pr = make_pr("add CheckpointEngineManager", files=[code("pkg/ckpt/manager.py", 80)], number=31)
    analysis = ANALYZER.analyze(pr)
    points = (
        "https://github.com/acme/x/pull/4280 refactor vllm breaking weight sync into stages",
        "Weights are sent bucket by bucket, so peak host memory stays at one bucket",
    )
    texts = {k: replace(v, gist="", key_points=points) for k, v in analysis.texts.items()}
    record = AnalyzedPR(pr, replace(analysis, texts=texts))
    assert point_of(record, language) == points[1]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_risk_does_not_repeat_its_evidence_when_the_sentence_already_quotes_it(language: str) -> None:
    """#16's author wrote "BREAKING CHANGE: `SFTTrainer(args=...)` is now …": the risk says it once,
    not again as its evidence in parentheses; a file as evidence is still given."""
    report = compose(trl_like_week(), language)
    [breaking] = [r for r in report.risks if r.prs == (16,)]
    assert breaking.text.count("is now") == 1, breaking.text
    [pin] = [r for r in report.risks if r.prs == (14,)]
    assert "requirements-npu.txt" in pin.text


@pytest.mark.parametrize(
    ("text", "evidence", "shown", "not_shown"),
    [
        # the sentence names the definition: the file is the evidence, not the name again
        (
            "removed `build_engine`; callers break",
            "pkg/engine.py: build_engine",
            "pkg/engine.py",
            "engine.py: ",
        ),
        # the sentence names the file: the changed line is the evidence, as code
        (
            "`ray.get` added in pkg/loop.py (3 such calls)",
            "pkg/loop.py: +ray.get(self.workers[0].step.remote())",
            "ray.get(self.workers[0].step.remote())",
            "loop.py: ",
        ),
        # the sentence names neither: both are given
        ("a default changed", "conf/base.yaml: lr: 1e-5 → 1e-6", "conf/base.yaml: lr: 1e-5 → 1e-6", "(none)"),
    ],
)
def test_a_risk_gives_only_the_half_of_its_evidence_the_sentence_does_not_say(
    text: str, evidence: str, shown: str, not_shown: str
) -> None:
    pr = make_pr("Rework the engine", files=[code("pkg/engine.py", 60)], number=61)
    risk = Risk("compatibility", "medium", text, evidence)
    record = AnalyzedPR(pr, replace(ANALYZER.analyze(pr), risks=(risk,), texts={}))
    [line] = [r.text for r in compose([record], "en").risks if r.prs == (61,)]
    assert shown in line and not_shown not in line, line


@pytest.mark.parametrize("category", ["security", "dependency"])
def test_a_risk_line_is_the_analysis_sentence_with_its_own_mechanism_and_nothing_appended(
    category: str,
) -> None:
    pr = make_pr("Build the NPU image", files=[code("pkg/engine.py", 60)], number=62)
    text = "TLS checks turned off in docker/Dockerfile (`ENV GIT_SSL_NO_VERIFY=true`): fetched code is unauthenticated"
    risk = Risk(category, "medium", text, "docker/Dockerfile")  # type: ignore[arg-type]
    record = AnalyzedPR(pr, replace(ANALYZER.analyze(pr), risks=(risk,), texts={}))
    [line] = [r.text for r in compose([record], "en").risks if r.prs == (62,)]
    assert line.endswith("fetched code is unauthenticated (`docker/Dockerfile`)") or line.endswith(
        "fetched code is unauthenticated"
    ), line


def test_an_english_participants_line_reads_right_for_one_author() -> None:
    report = compose(trl_like_week(), "en")
    assert "@alice" in report.participants and "1 authors" not in report.participants


@pytest.mark.parametrize("language", ["zh", "en"])
def test_of_one_severity_a_fact_of_the_diff_comes_before_a_risk_inferred_from_what_code_it_touches(
    language: str,
) -> None:
    """A breaking removal the author announced heads the risks (and the headline) before a large
    change to distributed code of a more important PR, whose risk is an inference from its size."""
    big = make_pr("Unified weight sync over NCCL", files=[code("pkg/engines/weight_sync.py", 900)], number=50)
    removal = make_pr("Drop the v0 engine", files=[code("pkg/rollout/v0.py", 40)], number=47)
    inferred = Risk(
        "concurrency", "high", "large change to distributed code (900 lines)", "pkg/engines/weight_sync.py"
    )
    fact = Risk("breaking-change", "high", "VLLMV0Rollout removed", "pkg/rollout/v0.py: -VLLMV0Rollout")
    records = [
        AnalyzedPR(big, replace(ANALYZER.analyze(big), risks=(inferred,), texts={}, importance=8.3)),
        AnalyzedPR(removal, replace(ANALYZER.analyze(removal), risks=(fact,), texts={}, importance=6.0)),
    ]
    report = compose(records, language)
    assert [r.prs for r in report.risks[:2]] == [(47,), (50,)]
    assert "#47" in report.headline


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(
    ("lead", "point"),
    [
        (
            "Follow up the work from https://github.com/acme/x/pull/5297 This PR streams the weights "
            "bucket by bucket, so host memory peaks at one bucket",
            "This PR streams the weights bucket by bucket, so host memory peaks at one bucket",
        ),
        ("Related to #12: weights now move in buckets of 512 MB", "weights now move in buckets of 512 MB"),
        (
            "基于 #88，权重按 512 MB 分桶传输，主机峰值内存只占一个桶",
            "权重按 512 MB 分桶传输，主机峰值内存只占一个桶",
        ),
        (
            "Fixes the hang reported by CI at https://github.com/acme/x/actions/runs/123/job/4 when a "
            "bucket is empty",
            "Fixes the hang reported by CI when a bucket is empty",
        ),
        (
            "Streams weights in buckets, as https://github.com/other/repo/issues/7 proposed",
            "Streams weights in buckets, as other/repo#7 proposed",
        ),
    ],
)
def test_a_point_leaves_out_a_clause_that_only_points_elsewhere_and_raw_links(
    language: str, lead: str, point: str
) -> None:
    """A reference ("Follow up the work from <link>", "Related to #12:") is not what the PR says; a link
    to a PR or issue reads as its number, and other links are left to the PR page."""
    pr = make_pr("Bucketed weight transfer", files=[code("pkg/ckpt/transfer.py", 80)], number=31)
    analysis = ANALYZER.analyze(pr)
    texts = {k: replace(v, gist="", key_points=(lead,)) for k, v in analysis.texts.items()}
    assert point_of(AnalyzedPR(pr, replace(analysis, texts=texts)), language) == point


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_gist_that_only_adds_module_and_kind_gives_way_to_the_title(language: str) -> None:
    """ "workers feature: Add Nemo engine" says nothing the theme and the title do not: the key change
    and the key PR's heading open with the title."""
    pr = make_pr(
        "Add Nemo engine as alternative training backend",
        body="The engine matches FSDP loss curves exactly for SFT (TP1/TP2).",
        files=[code("acme/workers/engine/nemo.py", 200)],
        number=40,
    )
    analysis = ANALYZER.analyze(pr)
    gist = {"zh": "workers 新功能：Add Nemo engine as alternative training backend"}
    gist["en"] = "workers feature: Add Nemo engine as alternative training backend"
    texts = {k: replace(v, gist=gist[k]) for k, v in analysis.texts.items()}
    report = compose([AnalyzedPR(pr, replace(analysis, texts=texts, importance=7.5))], language)
    (item,) = report.themes[0].items
    assert item.text.startswith("Add Nemo engine") and "workers" not in item.text
    assert report.key_prs[0].gist == "Add Nemo engine as alternative training backend"


def test_a_module_shared_by_several_themes_names_none_of_them() -> None:
    """In a repo whose code all sits under one directory ("workers"), that module tells no theme apart,
    so no theme's label carries it; a module only one theme's PRs share still does."""
    prs = [
        make_pr(
            "Support LoRA for SGLang rollouts", files=[code("acme/workers/rollout/sglang.py", 90)], number=1
        ),
        make_pr(
            "Fix vLLM rollout hang with DP > 1", files=[code("acme/workers/rollout/vllm.py", 30)], number=2
        ),
        make_pr(
            "Add Megatron recompute patch", files=[code("acme/workers/engine/megatron.py", 90)], number=3
        ),
        make_pr("Fix FSDP engine checkpoint save", files=[code("acme/workers/engine/fsdp.py", 30)], number=4),
    ]
    records = [AnalyzedPR(pr, replace(ANALYZER.analyze(pr), modules=("workers",))) for pr in prs]
    report = compose(records, "en")
    assert len(report.themes) >= 2
    assert not any("workers" in theme.name for theme in report.themes)
    assert "workers" not in report.headline


def test_an_english_list_of_themes_keeps_items_holding_and_apart() -> None:
    assert join_all(["rollout and inference", "APIs", "performance"], "en") == (
        "rollout and inference, APIs, and performance"
    )
    assert join_all(["rollout", "APIs"], "en") == "rollout and APIs"
    assert join_all(["推理与采样", "性能"], "zh") == "推理与采样、性能"


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_missing_tests_line_comes_after_the_mechanisms_and_the_headline_names_a_mechanism(
    language: str,
) -> None:
    """The gathered missing-tests line sums up; the mechanisms explain: even when its worst PR is high
    it comes after a medium mechanism, which the headline names."""
    removal = make_pr("Drop init_weights", files=[code("pkg/mlp.py", 20)], number=60)
    untested = make_pr("Rewrite the SAC trainer loop", files=[code("pkg/sac/trainer.py", 900)], number=61)
    medium = Risk("breaking-change", "medium", "init_weights removed", "pkg/mlp.py: -init_weights")
    missing = Risk("missing-tests", "high", "900 lines of code changed without tests", "pkg/sac/trainer.py")
    records = [
        AnalyzedPR(removal, replace(ANALYZER.analyze(removal), risks=(medium,), texts={}, importance=6.0)),
        AnalyzedPR(untested, replace(ANALYZER.analyze(untested), risks=(missing,), texts={}, importance=7.0)),
    ]
    report = compose(records, language)
    assert [r.category for r in report.risks] == ["breaking-change", "missing-tests"]
    assert "#60" in report.headline


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_clipped_risk_in_the_headline_ends_in_its_ellipsis(language: str) -> None:
    pr = make_pr("Quantize weights on refit", files=[code("pkg/quant.py", 40)], number=70)
    long = Risk(
        "breaking-change",
        "high",
        "signature of should_quantize_param(name, tensor, config, dtype, group_size, scheme, layer_index, "
        "module_name) changed to should_quantize_param(self, name, tensor, config, dtype, group_size)",
        "pkg/quant.py",
    )
    report = compose([AnalyzedPR(pr, replace(ANALYZER.analyze(pr), risks=(long,), texts={}))], language)
    assert "…" in report.headline
    assert not report.headline.endswith(("…。", "…."))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_sentence_naming_a_short_title_is_a_point_but_a_text_opening_with_the_title_is_not(
    language: str,
) -> None:
    pr = make_pr("On-Policy Distillation", files=[code("pkg/trainer/distill.py", 300)], number=80)
    analysis = ANALYZER.analyze(pr)
    sentence = "Adds on-policy distillation support across FSDP and Megatron backends"
    for points, expected in (
        ((sentence, "FSDP and Megatron engines"), sentence),
        (("On-Policy Distillation: teacher logprobs from a vLLM server", sentence), sentence),
    ):
        texts = {k: replace(v, gist="", key_points=points) for k, v in analysis.texts.items()}
        assert point_of(AnalyzedPR(pr, replace(analysis, texts=texts)), language) == expected


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_gist_shows_references_by_number_not_as_raw_links(language: str) -> None:
    pr = make_pr("Trtllm multinode rollout", files=[code("pkg/rollout/trtllm.py", 80)], number=90)
    analysis = ANALYZER.analyze(pr)
    gist = "Fix 2 bugs for trtllm's multi-node rollout introduced by https://github.com/verl-project/verl/pull/5149"
    texts = {k: replace(v, gist=gist) for k, v in analysis.texts.items()}
    report = compose([AnalyzedPR(pr, replace(analysis, texts=texts, importance=7.0))], language)
    (item,) = report.themes[0].items
    assert "introduced by #5149" in item.text and "https://" not in item.text


def _merged(pr: PullRequest, hours: int) -> PullRequest:
    return replace(pr, header=replace(pr.header, merged_at=WEEK.start + timedelta(hours=hours)))


@pytest.mark.parametrize(
    ("title", "revert_title", "revert_body"),
    [
        (
            "[rollout] feat: resume generation on abort",
            'Revert "[rollout] feat: resume generation on abort"',
            "",
        ),
        ("Resume generation on abort", "Revert resume", "Reverts acme/x#1\n\nIt broke the NPU runs."),
        (
            "feat(rollout): resume generation on abort",
            "revert: feat(rollout): resume generation on abort",
            "",
        ),
        ("中止后自动恢复生成", '回滚 "中止后自动恢复生成"', ""),
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_change_and_its_revert_in_one_week_are_named_once_and_left_out(
    title: str, revert_title: str, revert_body: str, language: str
) -> None:
    """A change reverted within the week has no net effect: the summary names the pair, and neither is
    a highlight, a risk, a key PR or a change of a theme; the reading list keeps the chat's count."""
    change = make_pr(title, files=[code("pkg/rollout/abort.py", 400)], number=1)
    revert = make_pr(revert_title, body=revert_body, files=[code("pkg/rollout/abort.py", 400)], number=2)
    others = [
        make_pr("Support pipeline parallel in the trainer", files=[code("pkg/trainer/pp.py", 120)], number=3),
        make_pr("Fix OOM when gathering shards", files=[code("pkg/rollout/gather.py", 40)], number=4),
    ]
    prs = [_merged(change, 1), _merged(revert, 30), *(_merged(pr, 5) for pr in others)]
    records = [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs]
    report = compose(records, language)
    pair = say("report.reverted.pair", language, pr="#1", by="#2")  # type: ignore[arg-type]
    assert say("report.reverted", language, n=1, pairs=pair) in report.executive_summary  # type: ignore[arg-type]
    shown = {n for item in report.highlights for n in item.prs} | {k.number for k in report.key_prs}
    shown |= {n for risk in report.risks for n in risk.prs}
    shown |= {n for theme in report.themes for item in theme.items for n in item.prs}
    assert shown and not shown & {1, 2}, shown
    assert report.pr_count == 4


def test_a_revert_of_an_earlier_week_stays_and_owes_no_tests() -> None:
    """A revert of a PR from before the week is the week's change (it takes something away), but it
    restores code that was there, so it is not among the code PRs without tests, even when it takes the
    reverted change's test away."""
    removed = PRFile("tests/test_sync.py", "removed", 0, 40, "@@ -1,2 +0,0 @@\n-def test_sync():\n-    pass")
    prs = [
        make_pr('Revert "Add async weight sync"', files=[code("pkg/sync.py", 200), removed], number=7),
        make_pr("Add retry to the reward client", files=[code("pkg/reward/client.py", 80)], number=8),
    ]
    records = [AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs]
    assert all(any(r.category == "missing-tests" for r in x.analysis.risks) for x in records)
    report = compose(records, "en")
    untested = [risk for risk in report.risks if risk.category == "missing-tests"]
    assert [risk.prs for risk in untested] == [(8,)]
    assert 7 in {n for theme in report.themes for item in theme.items for n in item.prs}


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(
    ("title", "body", "named"),
    [
        ('Revert "[megatron] fix: LoRA & MTP support (#5599)"', "As title.", "#5599"),
        ("revert: drop the retry in the reward client", "This reverts #4410.", "#4410"),
        ('回滚 "Add async weight sync"', "", "Add async weight sync"),
    ],
)
def test_a_revert_of_an_earlier_weeks_change_is_named_in_the_summary(
    language: str, title: str, body: str, named: str
) -> None:
    prs = [
        make_pr(title, body=body, files=[code("pkg/sync.py", 200)], number=7),
        make_pr("Add retry to the reward client", files=[code("pkg/reward/client.py", 80)], number=8),
    ]
    report = compose([AnalyzedPR(pr, ANALYZER.analyze(pr)) for pr in prs], language)
    sentence = say("report.reverted_earlier", language, pairs="").strip(" ：:.。")
    assert sentence in report.executive_summary and named in report.executive_summary, (
        report.executive_summary
    )
    assert "#7" in report.executive_summary


def test_a_pr_that_brings_tests_is_not_among_those_without_but_a_removed_test_is_its_mechanism() -> None:
    """The gathered line says "without new or changed tests": a PR that adds tests yet deletes others
    is not of those; its removed tests are a risk of its own, worded with the path."""
    pr = make_pr(
        "Replace the chat scheduler",
        files=[
            code("pkg/rollout/scheduler.py", 200),
            code("tests/rollout/test_completion_callback.py", 120),
            PRFile(
                "tests/rollout/test_multi_turn.py",
                "removed",
                0,
                300,
                "@@ -1,2 +0,0 @@\n-def test_a():\n-    pass",
            ),
        ],
        number=9,
    )
    record = AnalyzedPR(pr, ANALYZER.analyze(pr))
    assert record.analysis.tests
    assert any(r.category == "missing-tests" for r in record.analysis.risks)
    report = compose([record], "en")
    gathered = [risk for risk in report.risks if risk.text.startswith(("1 code PR", "1 PR changes"))]
    assert not gathered
    assert any("tests/rollout/test_multi_turn.py" in risk.text for risk in report.risks), report.risks


def _volume_weeks() -> tuple[list[AnalyzedPR], list[AnalyzedPR]]:
    """Last week 10 PRs (8 rollout, 2 data); this week 25: rollout 8 → 12, which is less than its share
    of a week that grew 2.5 times, docs 0 → 6, data 2 → 7."""
    rollout = [(f"Tune rollout sampling step {i}", f"pkg/rollout/sampling_{i}.py") for i in range(12)]
    data = [(f"Accept jsonl dataset files, part {i}", f"pkg/data/loader_{i}.py") for i in range(7)]
    docs = [(f"Document option {i}", f"docs/page_{i}.md") for i in range(6)]
    return _week(*rollout[:8], *data[:2], start=100), _week(*rollout, *data, *docs)


def test_in_a_week_whose_volume_changed_a_lot_the_trend_sentence_says_it_is_against_the_volume() -> None:
    before, now = _volume_weeks()
    themes = Counter(r.concern for r in now)
    assert len(themes) == 3, themes
    report = compose_weekly_report("acme/x", WEEK, now, before, language="en", generated_at=NOW)
    first = report.trend_notes[0]
    assert first.startswith("Against the week's volume (10 → 25 PRs)"), report.trend_notes
    assert "(0 → 6, led by #" in first, first  # docs gained the most; rollout's 8 → 12 is no gain
    zh = compose_weekly_report("acme/x", WEEK, now, before, language="zh", generated_at=NOW)
    assert zh.trend_notes[0].startswith("相对 PR 总数的变化（10 → 25 个）"), zh.trend_notes


def test_no_trend_sentence_claims_a_largest_rise_and_none_repeats_the_pr_another_led_with() -> None:
    before, now = _volume_weeks()
    for language in ("zh", "en"):
        report = compose_weekly_report("acme/x", WEEK, now, before, language=language, generated_at=NOW)  # type: ignore[arg-type]
        notes = " ".join(report.trend_notes)
        assert "增幅最大" not in notes and "代表作" not in notes
        led = Counter(PR_MENTION.findall(notes))
        assert all(n == 1 for n in led.values()), report.trend_notes


def test_a_quiet_week_after_a_busy_one_shows_few_rows_of_zeros() -> None:
    busy = _week(*[(f"Change part {i}", f"pkg/mod{i % 9}/part_{i}.py") for i in range(40)], start=100)
    quiet = _week(("Fix OOM when gathering shards", "pkg/rollout/gather.py"))
    report = compose_weekly_report("acme/x", WEEK, quiet, busy, language="en", generated_at=NOW)
    for table in (report.module_trends, report.theme_trends):
        zeros = [t for t in table if not t.count]
        assert len(zeros) <= 3 and len(table) <= 1 + 3, table
        assert all(t.previous >= z.previous for t in zeros for z in zeros[zeros.index(t) :])


def test_the_headline_watches_no_low_risk() -> None:
    """A low risk stays in the list; the headline names the first risk that is not low, or none."""
    low = Risk("compatibility", "low", "runs only on particular hardware", "pkg/npu_utils.py")
    medium = Risk("config", "medium", "defaults changed (`num_steps` 2 → 3)", "pkg/config.yaml")
    only_low = [AnalyzedPR(make_pr("Support NPU", number=1), fixture_analysis(("npu",), 6.0, risks=(low,)))]
    report = compose(only_low, "en")
    assert report.risks and report.headline.endswith(say("report.no_attention", "en"))
    tuned = AnalyzedPR(make_pr("Tune steps", number=2), fixture_analysis(("rollout",), 4.0, risks=(medium,)))
    assert "num_steps" in compose([*only_low, tuned], "en").headline


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_week_with_nothing_worth_reading_says_so_and_shows_its_most_important_prs(language: str) -> None:
    """No key PR: the meta line says there is none (the chat says the same) rather than counting the
    table's rows, and the table is headed as the week's most important PRs."""
    records = [
        AnalyzedPR(r.pr, replace(r.analysis, verdict="skim")) for r in trl_like_week() if r.number != 15
    ]
    report = compose(records, language)
    assert not report.reading_list and len(report.key_prs) == 3
    document = report_document(report).plain_text()
    assert say("report.meta.key.none", language) in document
    assert say("report.section.key_prs.none", language) in document
    assert say("report.section.key_prs", language) + "\n" not in document


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(
    ("title", "lead"),
    [
        (
            "[perf] fix: Prevent creating new threads/event loop for each `tqbridge` call",
            "Prevent creating new thread & event loop for each tqbridge decorated call #7157",
        ),
        ("[ray] feat: add support for ray init kwargs", "Adds support for passing parameters to ray init"),
        ("Add PokeeResearch to README resources", "Added PokeeResearch project to the list of resources"),
        ("修复 NPU 上的精度问题", "修复了 NPU 上的精度问题 #12"),
    ],
)
def test_a_lead_that_retypes_its_title_is_no_point(language: str, title: str, lead: str) -> None:
    """The title again in another number or tense, with a reference or a filler word or two, tells a
    reader nothing: the highlight and the key-PR table show no point for it."""
    pr = make_pr(title, files=[code("pkg/core/x.py", 80)], number=31)
    analysis = ANALYZER.analyze(pr)
    texts = {k: replace(v, gist="", key_points=(lead,)) for k, v in analysis.texts.items()}
    assert point_of(AnalyzedPR(pr, replace(analysis, texts=texts)), language) is None


@pytest.mark.parametrize("records", weeks())
def test_english_sentences_of_a_key_change_join_as_english_in_a_chinese_report(
    records: list[AnalyzedPR],
) -> None:
    """A key change of an English PR is its title and its point, two English sentences: a Chinese
    report joins them with ". ", not "。" ("…Megatron backend。Support using…"); a Chinese point after
    an English title still follows a "。"."""
    report = compose(records, "zh")
    items = [item.text for theme in report.themes for item in theme.items]
    assert items and not [t for t in items if re.search(r"[A-Za-z0-9)`]。[A-Za-z`]", t)]
    assert not [t for t in items if re.search(r"[A-Za-z0-9)`]\. [\u4e00-\u9fff]", t)]  # nor a Chinese point


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_follow_up_goes_to_a_pr_no_line_names_before_one_named_again(language: str) -> None:
    """The must-read is named by the line asking to read it: its concern's only suggestion ("add a
    regression test") does not take the one "add a test" line from a PR no line names yet (#15, the
    vision-language feature without tests), so the list is about more of the week."""
    records = [
        AnalyzedPR(r.pr, replace(r.analysis, verdict="must-read" if r.number == 11 else r.analysis.verdict))
        for r in trl_like_week()
    ]
    report = compose(records, language)
    mentions = Counter(int(n) for f in report.follow_ups for n in set(PR_MENTION.findall(f)))
    assert mentions[11] == 1 and mentions[15] == 1, report.follow_ups


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("[megatron] feat: add X", "add X"),
        ("fix(rollout)!: keep the cache", "keep the cache"),
        ("[BREAKING][trainer] refactor: rename arg", "rename arg"),
        ("Docs: update the FAQ", "update the FAQ"),
        ("ci(lint): pin ruff", "pin ruff"),
        ("revert: feat(models): add X", "Revert: add X"),
        # a word before a colon that is no change type is the title's own
        (
            "Security: reject admin tokens signed with alg=none",
            "Security: reject admin tokens signed with alg=none",
        ),
        ("Pool: acquire takes a timeout", "Pool: acquire takes a timeout"),
        ("GRPO: mask padded tokens in the loss", "GRPO: mask padded tokens in the loss"),
    ],
)
def test_a_title_loses_its_tags_and_type_marker_but_not_its_own_words(title: str, shown: str) -> None:
    assert clean_title(title) == shown
