"""The PR card (`prhub pr show`, answers about one PR, Slack unfurls): times in the reader's zone, code
as code, labels in the reply's language, nothing said twice."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from chatbot.analysis.types import LocalizedAnalysis, Risk
from chatbot.cards import pr_card
from chatbot.messages import say
from chatbot.models import BulletList, Context, Paragraph, Span, inline_text
from tests.reports.fixtures import analysis, pr

MERGED = datetime(2026, 6, 15, 1, 25, tzinfo=UTC)


def _paragraphs(reply) -> list[str]:  # type: ignore[no-untyped-def]
    return [inline_text(b.spans) for b in reply.blocks if isinstance(b, Paragraph)]


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Asia/Shanghai", "2026-06-15 09:25 Asia/Shanghai"),
        ("UTC", "2026-06-15 01:25 UTC"),
        ("America/New_York", "2026-06-14 21:25 America/New_York"),
    ],
)
def test_the_merge_time_is_in_the_configured_zone_and_names_it(zone: str, shown: str) -> None:
    card = pr_card(pr(7, "fix: a", MERGED), analysis(("x",), 5.0), "zh", tz=ZoneInfo(zone))
    meta = next(b for b in card.blocks if isinstance(b, Context))
    assert f"合并于 {shown}" in inline_text(meta.spans)


def test_code_in_key_points_and_risks_is_a_code_span() -> None:
    risk = Risk("memory", "high", "`actor_wg` keeps get_named_tensor_buckets alive", "pkg/a_b.py")
    a = analysis(("x",), 5.0, risks=(risk,), key_point="rename `use_v1` in verl/trainer/config.py")
    card = pr_card(pr(7, "fix: a", MERGED), a, "en")
    spans = [s for b in card.blocks if isinstance(b, BulletList) for item in b.items for s in item]
    code = [s.text for s in spans if s.style == "code"]
    assert code == ["use_v1", "verl/trainer/config.py", "actor_wg", "get_named_tensor_buckets", "pkg/a_b.py"]
    assert not any("`" in s.text for s in spans)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_severity_and_category_labels_speak_the_reply_language(language: str) -> None:
    a = analysis(("x",), 5.0, risks=(Risk("memory", "high", "big buffers", "a.py"),))
    card = pr_card(pr(7, "fix: a", MERGED), a, language)  # type: ignore[arg-type]
    risks = [
        item
        for b in card.blocks
        if isinstance(b, BulletList)
        for item in b.items
        if "big buffers" in inline_text(item)
    ]
    label = f"[{say('report.severity.high', language)}] {say('risk.label.memory', language)}"
    assert risks and risks[0][0] == Span(label, "bold")  # type: ignore[arg-type]
    assert (label == "[高] 显存/内存") if language == "zh" else (label == "[high] memory")


def test_a_summary_opening_with_the_gist_does_not_repeat_it() -> None:
    # stored without texts: the gist is the summary's first sentence
    a = dataclasses.replace(
        analysis(("x",), 5.0), summary="Rollout went OOM on step two. Prompts are now expanded lazily."
    )
    paragraphs = _paragraphs(pr_card(pr(7, "fix: a", MERGED), a, "en"))
    assert paragraphs == ["Rollout went OOM on step two.", "Prompts are now expanded lazily."]


def _meta(card) -> str:  # type: ignore[no-untyped-def]
    return inline_text(next(b for b in card.blocks if isinstance(b, Context)).spans)


@pytest.mark.parametrize(("files", "shown"), [(1, "· 1 file ·"), (3, "· 3 files ·")])
def test_the_english_meta_line_counts_files_in_the_right_number(files: int, shown: str) -> None:
    one = dataclasses.replace(pr(7, "fix: a", MERGED), changed_files=files)
    assert shown in _meta(pr_card(one, analysis(("x",), 5.0), "en"))
    assert f"{files} 个文件" in _meta(pr_card(one, analysis(("x",), 5.0), "zh"))


def test_a_deleted_account_shows_the_display_name_the_export_kept() -> None:
    gone = pr(7, "fix: a", MERGED, author="-")
    named = dataclasses.replace(gone, header=dataclasses.replace(gone.header, author_name="Hollow Man"))
    assert "by Hollow Man ·" in _meta(pr_card(named, analysis(("x",), 5.0), "en"))
    assert "by - ·" in _meta(pr_card(gone, analysis(("x",), 5.0), "en"))


@pytest.mark.parametrize(("language", "shown"), [("zh", True), ("en", False)])
def test_a_chinese_description_is_quoted_for_a_chinese_reader_only(language: str, shown: bool) -> None:
    quote = "原来固定间隔 1s 重试，下游恢复时所有消息同时重试。现在改为指数退避。"
    texts = {
        lang: LocalizedAnalysis(gist="retry feature centred on Backoff", verdict_reason="x")
        for lang in ("zh", "en")
    }
    a = dataclasses.replace(analysis(("x",), 5.0), summary=quote, texts=texts)
    paragraphs = " ".join(_paragraphs(pr_card(pr(7, "feat: backoff", MERGED), a, language)))  # type: ignore[arg-type]
    assert ("指数退避" in paragraphs) is shown


def _risk_lines(card) -> list[str]:  # type: ignore[no-untyped-def]
    return [inline_text(item) for b in card.blocks if isinstance(b, BulletList) for item in b.items]


@pytest.mark.parametrize(
    "evidence",
    [
        "⚠️ BREAKING CHANGE: Removes backward compatibility. Users must migrate to typed config.",
        "**BREAKING CHANGE**: Removes backward compatibility. Users must migrate to typed config.",
        "Breaking change - removes backward compatibility; users must migrate to typed config",
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_an_authors_breaking_note_the_risk_quotes_is_not_repeated_as_its_evidence(
    evidence: str, language: str
) -> None:
    sentence = "Removes backward compatibility. Users must migrate to typed config."
    text = f"{say('risk.label.breaking-change', language)}变更：{sentence}" if language == "zh" else sentence
    texts = {lang: LocalizedAnalysis(gist="g", verdict_reason="x", risks=(text,)) for lang in ("zh", "en")}
    a = dataclasses.replace(
        analysis(("x",), 5.0, risks=(Risk("breaking-change", "high", sentence, evidence),)), texts=texts
    )
    [line] = [t for t in _risk_lines(pr_card(pr(7, "feat: a", MERGED), a, language)) if "typed config" in t]  # type: ignore[arg-type]
    assert line.count("typed config") == 1
    # the category is not said twice when the sentence opens with it
    assert line.lower().count(say("risk.label.breaking-change", language).lower()) == 1  # type: ignore[arg-type]


def test_evidence_that_adds_a_file_is_still_shown() -> None:
    a = analysis(("x",), 5.0, risks=(Risk("memory", "high", "big buffers", "pkg/a_b.py: +buf = alloc()"),))
    [line] = [t for t in _risk_lines(pr_card(pr(7, "fix: a", MERGED), a, "en")) if "big buffers" in t]
    assert "pkg/a_b.py" in line and "alloc()" in line
