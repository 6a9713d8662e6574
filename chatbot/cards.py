"""Replies about single PRs: the analysis card shown by `prhub pr show`, answers about one PR, and
Slack link unfurls."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from chatbot.analysis.types import Analysis, Risk
from chatbot.messages import Language, say
from chatbot.models import (
    Block,
    BulletList,
    Context,
    Fields,
    Heading,
    Paragraph,
    PullRequest,
    Reply,
    Span,
    bold,
    code,
    link,
    plain,
)
from chatbot.prose import prose, readable_in
from chatbot.reports.builder import names_someone, risk_evidence
from chatbot.weeks import local_time

UTC = ZoneInfo("UTC")


def _risk_item(risk: Risk, text: str, language: Language) -> tuple[Span, ...]:
    """One risk line: `[severity] category` in bold, the sentence, then its evidence in brackets. The
    category is left out when the sentence opens with it ("破坏性变更：…" under 破坏性), and the evidence
    when the sentence already says it (an author's "⚠️ BREAKING CHANGE: …" note it quotes)."""
    label = say(f"risk.label.{risk.category}", language)
    severity = f"[{say(f'report.severity.{risk.severity}', language)}]"
    head = severity if text.lstrip().lower().startswith(label.lower()) else f"{severity} {label}"
    evidence = risk_evidence(" ".join(risk.evidence.split()), text) if risk.evidence else ""
    return (bold(head), *prose(f" {text}" + (f" ({evidence})" if evidence else "")))


def pr_card(
    pr: PullRequest,
    analysis: Analysis | None,
    language: Language,
    analyzer: str | None = None,
    tz: ZoneInfo = UTC,
    files: bool = False,
) -> Reply:
    """A PR with its analysis: title, summary, scores and verdict, modules, key points, risks; the merge
    time in `tz` (PRHUB_TIMEZONE), the zone named. With `files`, the changed files (most lines first)
    after the key points, for a question that asked which files the PR changed."""
    h = pr.header
    title = f"#{pr.number} {pr.title}"
    merged = local_time(h.merged_at, tz) if h.merged_at else "-"
    blocks: list[Block] = [Heading(title)]
    meta = say(
        "pr.meta",
        language,
        repo=pr.repo,
        author=h.author if names_someone(h.author) else (h.author_name or h.author),
        merged=merged,
        additions=pr.additions,
        deletions=pr.deletions,
        n=pr.changed_files,
    )
    blocks.append(Context((plain(meta + " · "), link(say("pr.open", language), h.html_url))))
    if analysis is None:
        blocks.append(Paragraph((plain(say("pr.not_analyzed", language)),)))
        return Reply(tuple(blocks))
    texts = analysis.localized(language)
    title = analysis.title_in(language)
    if title and title != pr.title:
        blocks.append(Paragraph((bold(title),)))
    if texts.gist:
        blocks.append(Paragraph(prose(texts.gist, style="bold")))
    # The summary quotes the description: an English reader of a Chinese one has the gist instead.
    summary = analysis.summary.strip() if readable_in(analysis.summary, language) else ""
    if texts.gist.strip() and summary.startswith(texts.gist.strip()):
        summary = summary[len(texts.gist.strip()) :].strip()  # the gist is its first sentence: not twice
    if summary:
        blocks.append(Paragraph(prose(summary)))
    verdict = say(f"pr.verdict.{analysis.verdict}", language)
    mark = say("correction.mark", language)
    blocks.append(
        Fields(
            (
                (
                    say("pr.field.importance", language),
                    (
                        plain(
                            f"{analysis.importance:.1f} / 10"
                            + (mark if "importance" in analysis.corrected else "")
                        ),
                    ),
                ),
                (say("pr.field.insight", language), (plain(f"{analysis.insight:.1f} / 10"),)),
                (
                    say("pr.field.verdict", language),
                    (bold(verdict), plain(" — "), *prose(texts.verdict_reason)),
                ),
                (say("pr.field.modules", language), (plain(", ".join(analysis.modules) or "-"),)),
                (
                    say("pr.field.type", language),
                    (
                        plain(
                            analysis.change_type
                            + (" · BREAKING" if analysis.breaking else "")
                            + (mark if "breaking" in analysis.corrected else "")
                        ),
                    ),
                ),
                (
                    say("pr.field.tests", language),
                    (plain(say("pr.tests.yes" if analysis.tests else "pr.tests.no", language)),),
                ),
            )
        )
    )
    if texts.key_points:
        blocks += [
            Heading(say("pr.section.key_points", language), 2),
            BulletList(tuple(prose(p) for p in texts.key_points)),
        ]
    if files and pr.files:
        blocks += _files_section(pr, language)
    if analysis.risks:
        blocks += [
            Heading(say("pr.section.risks", language), 2),
            BulletList(
                tuple(
                    _risk_item(r, text, language) for r, text in zip(analysis.risks, texts.risks, strict=True)
                )
            ),
        ]
    if texts.reading_guide:
        blocks += [
            Heading(say("pr.section.reading_guide", language), 2),
            BulletList(tuple(prose(g) for g in texts.reading_guide)),
        ]
    if texts.follow_ups:
        blocks += [
            Heading(say("pr.section.follow_ups", language), 2),
            BulletList(tuple(prose(f) for f in texts.follow_ups)),
        ]
    if analysis.review_highlights:
        blocks += [
            Heading(say("pr.section.reviews", language), 2),
            BulletList(tuple((plain(r),) for r in analysis.review_highlights)),
        ]
    if analyzer:
        blocks.append(Context((plain(say("pr.analyzed_by", language, analyzer=analyzer)),)))
    return Reply(tuple(blocks))


FILES_SHOWN = 12


def _files_section(pr: PullRequest, language: Language) -> list[Block]:
    """The PR's changed files, most lines changed first, each with its lines added and removed (and its
    old name when it was renamed), at most FILES_SHOWN and a count of the rest."""
    ranked = sorted(pr.files, key=lambda f: (-(f.additions + f.deletions), f.filename))
    items: list[tuple[Span, ...]] = []
    for f in ranked[:FILES_SHOWN]:
        renamed = f"{f.previous_filename} → " if f.previous_filename else ""
        items.append((code(renamed + f.filename), plain(f" +{f.additions}/−{f.deletions}")))
    if len(ranked) > FILES_SHOWN:
        items.append((plain(say("qa.more", language, n=len(ranked) - FILES_SHOWN)),))
    return [Heading(say("pr.section.files", language), 2), BulletList(tuple(items))]
