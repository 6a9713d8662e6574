"""The weekly report as neutral replies: the short card pushed to channels, and the full document that
the Markdown, HTML and PDF renderers (and long chat threads) use."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from chatbot.messages import Language, pr_refs, say
from chatbot.models import (
    Actions,
    Block,
    BulletList,
    Button,
    Context,
    Divider,
    Heading,
    Inline,
    Paragraph,
    Reply,
    Span,
    SpanStyle,
    Table,
    bold,
    code,
    link,
    plain,
)
from chatbot.prose import pr_url, prose
from chatbot.reports.follow_up import follow_up_blocks, reading_blocks
from chatbot.reports.model import KeyPR, ReportItem, Trend, WeeklyReport
from chatbot.weeks import local_time

CARD_KEY_PRS = 5
# The full report names at most this many key PRs past its table's rows, the rest counted.
KEY_PRS_NAMED = 30
READING_GUIDES = 5


@dataclass(frozen=True, slots=True)
class ReportLinks:
    """Where the full report can be read; None when no public URL is configured."""

    page: str
    markdown: str
    pdf: str

    @classmethod
    def for_report(cls, public_url: str | None, report: WeeklyReport) -> ReportLinks | None:
        return cls.for_week(public_url, report.repo, report.label)

    @classmethod
    def for_week(cls, public_url: str | None, repo: str, label: str) -> ReportLinks | None:
        """The links of `repo`'s report of the week `label` ("2026-W25"), built or not yet."""
        if not public_url:
            return None
        base = f"{public_url.rstrip('/')}/reports/{repo}/{label}"
        return cls(page=base, markdown=f"{base}.md", pdf=f"{base}.pdf")


def pr_link(number: int, repo: str) -> Span:
    return link(f"#{number}", pr_url(repo, number))


def _prose(text: str, report: WeeklyReport, style: SpanStyle = "plain") -> Inline:
    """Report prose with its code as code spans and every `#N` of the week's PRs as a link."""
    return prose(text, report.repo, set(report.prs), style)


def _item(item: ReportItem, report: WeeklyReport) -> Inline:
    """An item's text, then the PRs it cites that its text does not name."""
    spans: list[Span] = list(_prose(item.text, report))
    named = {int(span.text[1:]) for span in spans if span.url and span.text.startswith("#")}
    unnamed = [n for n in item.prs if n not in named]
    if unnamed:
        spans.append(plain(" ("))
        for i, number in enumerate(unnamed):
            if i:
                spans.append(plain("、" if report.language == "zh" else ", "))
            spans.append(pr_link(number, report.repo))
        spans.append(plain(")"))
    return tuple(spans)


def _risks(report: WeeklyReport, *, severity: bool = False) -> BulletList:
    return BulletList(
        tuple(
            ((bold(f"[{say(f'report.severity.{r.severity}', report.language)}] "),) if severity else ())
            + _prose(r.text, report)
            for r in report.risks
        )
    )


def _meta(report: WeeklyReport) -> Context:
    language = report.language
    last_day = report.end - timedelta(days=1)
    period = say("report.period", language, start=f"{report.start:%Y-%m-%d}", end=f"{last_day:%Y-%m-%d}")
    generated = local_time(report.generated_at, ZoneInfo(report.timezone))
    return Context(
        (
            plain(
                say(
                    "report.meta",
                    language,
                    repo=report.repo,
                    period=period,
                    count=report.pr_count,
                    key=_key_count(report),
                    generated=generated,
                )
            ),
        )
    )


def _key_count(report: WeeklyReport) -> str:
    """How many key PRs the week has, of them must-read: the chat's counts."""
    n = len(report.reading_list)
    if not n:
        return say("report.meta.key.none", report.language)
    return say("report.meta.key", report.language, n=n, must=len(report.must_read))


def _key_pr_heading(report: WeeklyReport, level: int) -> Heading:
    """The key-PR table's heading: the reading list's, or in a week without one its most important PRs'."""
    key = "report.section.key_prs" if report.reading_list else "report.section.key_prs.none"
    return Heading(say(key, report.language), level)


def _key_pr_table(prs: tuple[KeyPR, ...], report: WeeklyReport) -> Table:
    language = report.language
    columns = tuple(
        say(f"report.column.{c}", language) for c in ("pr", "title", "module", "importance", "key_point")
    )
    rows = tuple(
        (
            (link(f"#{pr.number}", pr.url),),
            _prose(pr.title, report),
            (plain(", ".join(pr.modules) or "-"),),
            (plain(f"{pr.importance:.1f}" + (say("correction.mark", language) if pr.corrected else "")),),
            _prose(pr.key_point, report),
        )
        for pr in prs
    )
    return Table(columns, rows, lead=2)


def _buttons(report: WeeklyReport, links: ReportLinks | None) -> list[Block]:
    language = report.language
    buttons = [
        Button(
            say("report.button.risks", language),
            action_id="report_risks",
            value=f"{report.repo} {report.label}",
        )
    ]
    if links is not None:
        buttons = [
            Button(say("report.button.full", language), url=links.page, primary=True),
            Button(say("report.button.markdown", language), url=links.markdown),
            Button(say("report.button.pdf", language), url=links.pdf),
            *buttons,
        ]
    return [Actions(tuple(buttons))]


def _more_key_prs(report: WeeklyReport, links: ReportLinks | None) -> Context:
    """Where the rest of the key PRs are: the full report's page, or without a public URL the command
    that writes it (a sentence pointing at a page that cannot be opened would be a dead end)."""
    language, n = report.language, len(report.reading_list)
    if links is not None:
        return Context(
            (
                plain(say("report.more_prs", language, n=n)),
                link(say("report.button.full", language), links.page),
            )
        )
    command = f"prhub report {report.repo} --week {report.label} --format html -o {report.label}.html"
    return Context((plain(say("report.more_prs.local", language, n=n)), code(command)))


def report_card(report: WeeklyReport, links: ReportLinks | None = None) -> Reply:
    """The short form: title, headline, meta, highlights, risks, the top of the key-PR table, buttons.
    A quiet week is one line."""
    language = report.language
    if report.quiet:
        return Reply((Paragraph((plain(report.headline),)),), more_url=links.page if links else None)
    blocks: list[Block] = [Heading(report.title), Paragraph(_prose(report.headline, report)), _meta(report)]
    if report.highlights:
        blocks += [
            Heading(say("report.section.highlights", language), 2),
            BulletList(tuple(_item(h, report) for h in report.highlights)),
        ]
    if report.risks:
        blocks += [Heading(say("report.section.risks", language), 2), _risks(report)]
    blocks += follow_up_blocks(report) + reading_blocks(report)
    if report.key_prs:
        blocks += [_key_pr_heading(report, 2), _key_pr_table(report.key_prs[:CARD_KEY_PRS], report)]
        if len(report.reading_list) > CARD_KEY_PRS:
            blocks.append(_more_key_prs(report, links))
    blocks += [Divider(), *_buttons(report, links)]
    return Reply(tuple(blocks), more_url=links.page if links else None)


def _trend_table(trends: tuple[Trend, ...], label: str, language: Language) -> Table:
    columns = (label, *(say(f"report.column.{c}", language) for c in ("count", "previous", "change")))
    return Table(
        columns,
        tuple(
            (
                (plain(t.name),),
                (plain(str(t.count)),),
                (plain(str(t.previous)),),
                (plain(f"{t.delta:+d}" if t.delta else "0"),),
            )
            for t in trends
        ),
    )


def report_document(report: WeeklyReport, links: ReportLinks | None = None) -> Reply:
    """The full report: everything of DESIGN §7, for the HTML page, Markdown, PDF and the terminal."""
    language = report.language
    if report.quiet:
        return Reply((Heading(report.title), Paragraph((plain(report.headline),)), _meta(report)))
    blocks: list[Block] = [
        Heading(report.title),
        Paragraph(_prose(report.headline, report, "bold")),
        _meta(report),
    ]
    blocks += [
        Heading(say("report.section.highlights", language), 2),
        BulletList(tuple(_item(h, report) for h in report.highlights)),
    ]
    if report.risks:
        blocks += [Heading(say("report.section.risks", language), 2), _risks(report)]
    blocks += [
        Divider(),
        Heading(say("report.section.full", language), 2),
        Heading(say("report.section.summary", language), 3),
        Paragraph(_prose(report.executive_summary, report)),
    ]
    if report.participants:
        blocks.append(Context(_prose(report.participants, report)))
    blocks.append(Heading(say("report.section.changes", language), 3))
    for theme in report.themes:
        items = [_item(i, report) for i in theme.items]
        if theme.size > len(theme.items):
            items.append((plain(say("report.and_more", language, n=theme.size - len(theme.items))),))
        blocks += [
            # "性能（sglang） · 1 个 PR": a count in parentheses would double the name's own
            Paragraph((bold(say("report.theme_heading", language, name=theme.name, n=theme.size)),)),
            BulletList(tuple(items)),
        ]
    blocks += [
        Heading(say("report.section.trends", language), 3),
        _trend_table(report.module_trends, say("report.trend.modules", language), language),
        _trend_table(report.theme_trends, say("report.trend.themes", language), language),
    ]
    if report.trend_notes:
        sentences = ("" if report.language == "zh" else " ").join(report.trend_notes)
        blocks.append(Paragraph(_prose(sentences, report)))
    if report.risks:
        blocks += [Heading(say("report.section.risks", language), 3), _risks(report, severity=True)]
    blocks += follow_up_blocks(report, 3) + reading_blocks(report, 3)
    blocks += [_key_pr_heading(report, 3), _key_pr_table(report.key_prs, report)]
    shown = {pr.number for pr in report.key_prs} | set(report.left_out)
    rest = [n for n in report.reading_list if n not in shown]
    if rest:
        more = say(
            "report.key_prs.rest", language, n=len(rest), prs=pr_refs(rest, language, limit=KEY_PRS_NAMED)
        )
        blocks.append(Context(_prose(more, report)))
    guided = [p for p in report.key_prs if p.reading_guide][:READING_GUIDES]
    if guided:
        blocks.append(Heading(say("report.section.reading_guides", language), 3))
        for pr in guided:
            blocks += [
                Paragraph(
                    (link(f"#{pr.number}", pr.url), plain(" "), *_prose(pr.gist or pr.title, report, "bold"))
                ),
                BulletList(tuple(_prose(step, report) for step in pr.reading_guide)),
            ]
    if report.follow_ups:
        blocks += [
            Heading(say("report.section.follow_ups", language), 3),
            BulletList(tuple(_prose(f, report) for f in report.follow_ups)),
        ]
    blocks.append(
        Context(
            (
                plain(
                    say("report.generated_by", language, prose=say(f"report.prose.{report.prose}", language))
                ),
            )
        )
    )
    if links is not None:
        blocks.append(
            Actions(
                (
                    Button(say("report.button.markdown", language), url=links.markdown),
                    Button(say("report.button.pdf", language), url=links.pdf),
                )
            )
        )
    return Reply(tuple(blocks), more_url=links.page if links else None)
