"""Weekly report benchmark: build a 300-PR week from a SQLite index and render every format.

    .venv/bin/python bench/report.py [--prs 300] [--previous 300] [--runs 5] [--pdf] [--profile]

Prints the time (wall clock, and this process's CPU time: SQLite's work is in it, other processes' load
is not) of a fresh build (load the week's PRs and analyses and the previous week's, which feed
the trends, compose, store), of reusing the stored report, and of each renderer; the total without PDF
is the figure to compare with the target (issue 4: ≤ 300 ms on SQLite without the LLM). PDF is timed
separately with --pdf. Before 2026-12-02 the previous week was empty: `--previous 0` is that figure.
`--profile` prints where the fresh builds' time goes (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adapters.feishu.card import render_card  # noqa: E402
from adapters.slack.blocks import render_blocks  # noqa: E402
from chatbot.analysis.heuristic import HeuristicAnalyzer  # noqa: E402
from chatbot.clock import FixedClock  # noqa: E402
from chatbot.reports.builder import AnalyzedPR  # noqa: E402
from chatbot.reports.cards import ReportLinks, report_card, report_document  # noqa: E402
from chatbot.reports.html import render_html  # noqa: E402
from chatbot.reports.markdown import render_markdown  # noqa: E402
from chatbot.reports.weekly import build_weekly_report  # noqa: E402
from chatbot.store.analyses import save_analysis  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from chatbot.store.index import PRIndex  # noqa: E402
from tests.reports.synthetic import WEEK, synthetic_records  # noqa: E402

CLOCK = FixedClock(WEEK.end + timedelta(days=1))


def week_before(records: list[AnalyzedPR]) -> list[AnalyzedPR]:
    """The same kinds of PRs merged seven days earlier, numbered below the week's."""
    return [
        AnalyzedPR(
            replace(
                r.pr,
                header=replace(
                    r.pr.header,
                    number=r.number - len(records),
                    merged_at=r.pr.header.merged_at - timedelta(days=7),  # type: ignore[operator]
                ),
                content_hash="",
            ),
            r.analysis,
        )
        for r in records
    ]


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, object]:
    """The median wall-clock and CPU milliseconds of `runs` calls, and the last call's result."""
    samples, cpu_samples, result = [], [], None
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
        cpu_samples.append((time.process_time() - cpu_start) * 1000)
    return statistics.median(samples), statistics.median(cpu_samples), result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--prs", type=int, default=300)
    parser.add_argument("--previous", type=int, default=300, help="PRs of the previous week")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pdf", action="store_true", help="also time the PDF renderer")
    parser.add_argument("--profile", action="store_true", help="profile the fresh builds (cProfile)")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats key)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{tmp}/bench.db")
        records = synthetic_records(args.prs)
        records += week_before(synthetic_records(args.previous))
        with db.session() as session:
            index = PRIndex(session)
            repo = index.ensure_repo(records[0].pr.repo, CLOCK.now())
            for record in records:
                index.upsert(repo, record.pr, CLOCK.now())
            session.flush()
            for record in records:
                row = index.pull_request_row(repo, record.number)
                assert row is not None
                save_analysis(
                    session,
                    row,
                    record.analysis,
                    analyzer="bench",
                    version="1",
                    language="zh",
                    now=CLOCK.now(),
                )
        fallback = HeuristicAnalyzer().analyze

        def build(rebuild: bool) -> object:
            return build_weekly_report(
                db, repo.full_name, WEEK, clock=CLOCK, language="zh", fallback=fallback, rebuild=rebuild
            ).report

        build_ms, build_cpu, report = timed(lambda: build(True), args.runs)
        reuse_ms, reuse_cpu, _ = timed(lambda: build(False), args.runs)
        links = ReportLinks.for_report("https://prhub.example.com", report)  # type: ignore[arg-type]
        document = report_document(report, links)  # type: ignore[arg-type]
        card = report_card(report, links)  # type: ignore[arg-type]
        renderers: dict[str, Callable[[], object]] = {
            "markdown": lambda: render_markdown(document),
            "html": lambda: render_html(document),
            "json": lambda: report.model_dump_json(),  # type: ignore[attr-defined]
            "slack card": lambda: render_blocks(card, max_messages=1),
            "slack document (thread)": lambda: render_blocks(document),
            "feishu card": lambda: render_card(card),
            "text": lambda: card.plain_text(),
        }
        rendered = {name: timed(fn, args.runs)[0] for name, fn in renderers.items()}
        print(
            f"{args.prs}-PR week after a {args.previous}-PR week ({report.pr_count} PRs in the report), "  # type: ignore[attr-defined]
            f"median of {args.runs} runs:"
        )
        print(f"  build (fresh, stored):        {build_ms:7.1f} ms  (cpu {build_cpu:.1f} ms)")
        print(f"  build (reused from the store): {reuse_ms:6.1f} ms  (cpu {reuse_cpu:.1f} ms)")
        for name, ms in rendered.items():
            print(f"  render {name:<24} {ms:6.1f} ms")
        total = build_ms + sum(rendered.values())
        print(f"  total, fresh build + every format but PDF: {total:.1f} ms (target ≤ 300 ms)")
        if args.pdf:
            from chatbot.reports.pdf import render_pdf

            render_pdf(document)  # the first call imports WeasyPrint
            pdf_ms, _, _ = timed(lambda: render_pdf(document), 3)
            print(f"  render pdf (separately):      {pdf_ms:7.1f} ms")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(args.runs):
                build(True)
            profiler.disable()
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(40)
        db.dispose()


if __name__ == "__main__":
    main()
