"""Weekly-report replies for the chat renderer tests, composed in memory: no database, no network."""

from __future__ import annotations

from datetime import datetime, timedelta

from chatbot.analysis.types import Analysis, Risk
from chatbot.messages import Language
from chatbot.models import (
    Actions,
    BulletList,
    Button,
    Context,
    Divider,
    Fields,
    Heading,
    Paragraph,
    Reply,
    Table,
    bold,
    code,
    link,
    plain,
)
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.cards import ReportLinks
from chatbot.reports.model import WeeklyReport
from chatbot.weeks import Week
from tests.reports.fixtures import PREVIOUS_WEEK, REPO, SHANGHAI, WEEK, WEEK_START, analysis, pr

# Everything a chat platform could read as a mention, a tag or a link.
INJECTION = (
    '<!channel> 紧急 @all <at user_id="all"></at> [x](javascript:alert(1)) <@U123> @here <http://evil|click>'
)
INJECTED_PR = 104
PUBLIC_URL = "https://prhub.example.com"
GENERATED_AT = WEEK_START + timedelta(days=7, hours=9)
WEEK_25 = Week(2026, 25, SHANGHAI)
_MODULES = ("megatron", "rollout", "trainer", "fsdp", "vllm", "sglang", "ci", "docker", "doc", "reward")
_RISKS = ("missing-tests", "memory", "dependency", "breaking-change", "performance", "concurrency", "config")


def _records(rows: list[tuple[int, str, datetime, Analysis]]) -> list[AnalyzedPR]:
    return [AnalyzedPR(pr(number, title, merged), a) for number, title, merged, a in rows]


def written_week(language: Language = "zh") -> WeeklyReport:
    """The week of tests/reports/fixtures.py, with PR 104 a must-read whose title and risk carry
    INJECTION, so it reaches the highlights, the risks and the key-PR table."""
    rows = [
        (
            number,
            f"[doc] chore: {INJECTION}",
            merged,
            analysis(
                ("doc",), 9.0, 5.0, "doc", "must-read", (Risk("security", "high", INJECTION, "docs/x.md"),)
            ),
        )
        if number == INJECTED_PR
        else (number, title, merged, a)
        for number, title, merged, a in WEEK
    ]
    return compose_weekly_report(
        REPO,
        WEEK_25,
        _records(rows),
        _records(PREVIOUS_WEEK),
        language=language,
        generated_at=GENERATED_AT,
    )


def busy_week(count: int = 300, language: Language = "zh") -> WeeklyReport:
    """A week of `count` merged PRs over ten modules, every kind of risk, long titles."""
    rows = []
    for i in range(count):
        module = _MODULES[i % len(_MODULES)]
        risk = Risk(
            _RISKS[i % len(_RISKS)], ("high", "medium", "low")[i % 3], f"risk {i} in {module}", "x.py"
        )
        rows.append(
            (
                1000 + i,
                f"[{module}] feat: a fairly long title for change number {i} touching {module} internals",
                WEEK_START + timedelta(minutes=30 * i),
                analysis(
                    (module, _MODULES[(i + 3) % len(_MODULES)]),
                    round(1 + (i * 37 % 90) / 10, 1),
                    verdict=("must-read", "worth-reading", "skim")[i % 3],
                    risks=(risk,),
                    key_point=f"key point of change {i}: look at the new code path",
                ),
            )
        )
    previous = [
        (
            900 - i,
            f"[{_MODULES[i % 4]}] fix: earlier {i}",
            WEEK_START - timedelta(hours=i + 1),
            analysis(("ci",), 3.0),
        )
        for i in range(120)
    ]
    return compose_weekly_report(
        REPO, WEEK_25, _records(rows), _records(previous), language=language, generated_at=GENERATED_AT
    )


def quiet_week(language: Language = "zh") -> WeeklyReport:
    return compose_weekly_report(REPO, WEEK_25, [], [], language=language, generated_at=GENERATED_AT)


def links(report: WeeklyReport) -> ReportLinks:
    links = ReportLinks.for_report(PUBLIC_URL, report)
    assert links is not None
    return links


def injected_reply() -> Reply:
    """INJECTION in every kind of block and span, and links that must not become links."""
    return Reply(
        (
            Heading(INJECTION),
            Paragraph((plain(INJECTION), bold(INJECTION), code(INJECTION))),
            Paragraph(
                (
                    link(INJECTION, "https://github.com/acme/widgets/pull/1"),
                    link("bad", "javascript:alert(1)"),
                )
            ),
            BulletList(((plain(INJECTION),),), ordered=True),
            Fields(((INJECTION, (plain(INJECTION),)),)),
            Table((INJECTION,), (((plain(INJECTION),),),)),
            Context((plain(INJECTION),)),
            Divider(),
            Actions(
                (
                    Button(INJECTION, url="javascript:alert(1)"),
                    Button(INJECTION[:40], action_id="report_risks", value=INJECTION),
                )
            ),
        ),
        more_url="javascript:alert(1)",
    )


def long_reply(items: int, more_url: str | None = f"{PUBLIC_URL}/reports/acme/widgets/2026-W25") -> Reply:
    """A reply far past every platform limit: sections of long linked list items, then a table."""
    sections = []
    for part in range(items // 100):
        sections += [
            Heading(f"Part {part}", 2),
            BulletList(
                tuple(
                    (
                        plain(f"item {part * 100 + i} with some *text* to make it long enough "),
                        link("#1", "https://x.example/1"),
                    )
                    for i in range(100)
                )
            ),
        ]
    table = Table(("PR", "title"), tuple(((plain(f"#{i}"),), (plain(f"row {i}"),)) for i in range(50)))
    return Reply(
        (Heading("A very long reply"), *sections, table, Context((plain("the end"),))), more_url=more_url
    )


def counted_entries(reply: Reply) -> int:
    """What "and N more" counts in a reply: list items, table rows, fields, paragraphs and context lines."""
    total = 0
    for block in reply.blocks:
        if isinstance(block, BulletList):
            total += len(block.items)
        elif isinstance(block, Table):
            total += len(block.rows)
        elif isinstance(block, Fields):
            total += len(block.pairs)
        elif isinstance(block, Paragraph | Context):
            total += 1
    return total
