"""Heuristic analyzer benchmark: throughput over the verl PR data on one core, and a calibration report
(score distributions, verdict counts, the PRs ranked highest and lowest) so a reader can judge the ranking.

Run: .venv/bin/python bench/analysis.py [--data PATH] [--markdown OUT.md] [--end-to-end]

`--end-to-end` also imports the PRs into a SQLite index and times `analyze_stored` (what `prhub analyze`
runs: loading PRs, analysing them and storing analyses and search documents) over a fresh copy of it,
best of `--rounds` runs like the analyzer alone."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from adapters.github.jsonl import read_pull_requests
from adapters.github.rest import pull_request_from_rest
from chatbot.analysis import Analysis, HeuristicAnalyzer
from chatbot.analysis import weights as w
from chatbot.analysis.runner import OfflineBatch, analyze_stored
from chatbot.clock import SystemClock
from chatbot.ingest.importer import import_pull_requests
from chatbot.models import PullRequest
from chatbot.reports.builder import clean_title
from chatbot.store.db import open_database

REPO_ROOT = Path(__file__).resolve().parents[1]
FILE_NAME = "verl-pulls.jsonl.gz"
QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0)


def default_data() -> Path:
    """`PRHUB_SHARED_DATA` (a directory or the file), else ../shared/data next to the repository."""
    configured = os.environ.get("PRHUB_SHARED_DATA")
    if configured:
        path = Path(configured)
        return path if path.is_file() else path / FILE_NAME
    return REPO_ROOT.parent / "shared" / "data" / FILE_NAME


def load(path: Path, repo: str) -> list[PullRequest]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [pull_request_from_rest(json.loads(line), repo) for line in lines if line.strip()]


def pin_to_one_core() -> str:
    """Keep the process on one CPU so the figure is a one-core figure; say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this platform)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def measure(
    analyzer: HeuristicAnalyzer, prs: Sequence[PullRequest], rounds: int
) -> tuple[float, float, list[Analysis]]:
    """Best wall-clock and CPU seconds over `rounds` full passes, and the analyses of the last pass."""
    best_wall = best_cpu = float("inf")
    analyses: list[Analysis] = []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        analyses = [analyzer.analyze(pr) for pr in prs]
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, analyses


def end_to_end(data: Path, repo: str, rounds: int) -> tuple[int, float, float]:
    """PRs analysed, and the best wall and CPU seconds over `rounds` runs of `analyze_stored`, each over a
    fresh copy of a SQLite index of the data (imported once)."""
    best_wall = best_cpu = float("inf")
    analysed = 0
    with tempfile.TemporaryDirectory() as tmp:
        imported = Path(tmp, "imported.db")
        db = open_database(f"sqlite:///{imported}")
        import_pull_requests(db, repo, read_pull_requests(data, repo), clock=SystemClock())
        db.dispose()
        analyzer = HeuristicAnalyzer()
        batch = OfflineBatch(analyzer.analyze, analyzer.name, analyzer.version)
        for n in range(rounds):
            fresh = Path(tmp, f"run{n}.db")
            shutil.copy(imported, fresh)
            db = open_database(f"sqlite:///{fresh}")
            wall, cpu = time.perf_counter(), time.process_time()
            analysed = analyze_stored(db, batch, language="zh", clock=SystemClock(), repo=repo).analyzed
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            db.dispose()
    return analysed, best_wall, best_cpu


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def histogram(values: Sequence[float], width: int = 50) -> list[tuple[str, int, str]]:
    """Counts per unit bin [0,1) … [9,10], with a bar scaled to the largest bin."""
    counts = Counter(min(int(v), 9) for v in values)
    top = max(counts.values())
    return [
        (f"{b}–{b + 1}", counts[b], "#" * round(width * counts[b] / top) if counts[b] else "")
        for b in range(10)
    ]


def ranked(
    pairs: list[tuple[PullRequest, Analysis]], n: int
) -> tuple[list[tuple[PullRequest, Analysis]], ...]:
    """The n highest and n lowest by importance (insight, then PR number, break ties)."""
    order = sorted(pairs, key=lambda p: (-p[1].importance, -p[1].insight, p[0].number))
    bottom = sorted(pairs, key=lambda p: (p[1].importance, p[1].insight, p[0].number))
    return order[:n], bottom[:n]


def kind_of(pr: PullRequest, analysis: Analysis) -> str:
    """The class a maintainer would rank a PR by: moves and renames, memory/correctness fixes, and the
    change types, so the ranking of classes can be checked at a glance."""
    title = clean_title(pr.title)
    if w.RELOCATION_TITLE.search(title):
        return "move / rename"
    if analysis.change_type == "fix" and w.CORE_FIX_TITLE.search(title):
        return "memory / correctness fix"
    return analysis.change_type


def by_kind(pairs: list[tuple[PullRequest, Analysis]]) -> list[str]:
    """Markdown rows: per class, how many, median and p90 importance, how many are must-read."""
    groups: dict[str, list[Analysis]] = {}
    for pr, analysis in pairs:
        groups.setdefault(kind_of(pr, analysis), []).append(analysis)
    rows = ["| class | PRs | median importance | p90 | must-read |", "|---|---|---|---|---|"]
    for kind, group in sorted(groups.items(), key=lambda kv: statistics.median(a.importance for a in kv[1])):
        values = [a.importance for a in group]
        must = sum(1 for a in group if a.verdict == "must-read")
        rows.append(
            f"| {kind} | {len(group):,} | {statistics.median(values):.1f} | {quantile(values, 0.9):.1f} | {must} |"
        )
    return rows


def _title(pr: PullRequest, limit: int = 90) -> str:
    title = " ".join(pr.title.split()).replace("|", "\\|")
    return title if len(title) <= limit else title[: limit - 1] + "…"


def report(
    data: Path,
    prs: Sequence[PullRequest],
    analyses: Sequence[Analysis],
    wall: float,
    cpu: float,
    rounds: int,
    pinning: str,
    top: int,
) -> str:
    """The figures as a markdown section (printed, and pasteable into docs/benchmarks.md)."""
    n = len(prs)
    pairs = list(zip(prs, analyses, strict=True))
    importance = [a.importance for a in analyses]
    insight = [a.insight for a in analyses]
    verdicts = Counter(a.verdict for a in analyses)
    types = Counter(a.change_type for a in analyses)
    risks = Counter(r.category for a in analyses for r in a.risks)
    severities = Counter(r.severity for a in analyses for r in a.risks)
    highest, lowest = ranked(pairs, top)
    out = [
        "## Heuristic analyzer",
        "",
        f"`.venv/bin/python bench/analysis.py` over `{data.name}` ({n:,} merged verl PRs), "
        f"Python {platform.python_version()}, one process {pinning}, best of {rounds} passes.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| throughput (wall clock) | **{n / wall:,.0f} PRs/s** ({1000 * wall / n:.2f} ms per PR) |",
        f"| throughput (CPU time) | {n / cpu:,.0f} PRs/s |",
        f"| analyzer | {HeuristicAnalyzer.name} {HeuristicAnalyzer.version} |",
        "",
        "| score | " + " | ".join(f"p{round(q * 100)}" for q in QUANTILES) + " | mean | stdev |",
        "|---|" + "---|" * (len(QUANTILES) + 2),
    ]
    for name, values in (("importance", importance), ("insight", insight)):
        cells = " | ".join(f"{quantile(values, q):.1f}" for q in QUANTILES)
        out.append(f"| {name} | {cells} | {statistics.fmean(values):.2f} | {statistics.pstdev(values):.2f} |")
    out += ["", "| bin | importance | insight |", "|---|---|---|"]
    for (label, count_imp, _), (_, count_ins, _) in zip(
        histogram(importance), histogram(insight), strict=True
    ):
        out.append(f"| {label} | {count_imp} | {count_ins} |")
    out += [
        "",
        "Verdicts: "
        + ", ".join(
            f"{v} {verdicts[v]:,} ({100 * verdicts[v] / n:.1f}%)"
            for v in ("must-read", "worth-reading", "skim")
        ),
        "",
        "Change types: " + ", ".join(f"{t} {c:,}" for t, c in types.most_common()),
        "",
        f"Risks: {sum(risks.values()):,} on {sum(1 for a in analyses if a.risks):,} PRs ("
        + ", ".join(f"{s} {severities[s]:,}" for s in ("high", "medium", "low"))
        + "); by category: "
        + ", ".join(f"{c} {k:,}" for c, k in risks.most_common()),
    ]
    out += ["", "### Importance by class", "", *by_kind(pairs)]
    for heading, rows in ((f"Ranked highest ({top})", highest), (f"Ranked lowest ({top})", lowest)):
        out += ["", f"### {heading}", "", "| PR | imp. | ins. | verdict | title |", "|---|---|---|---|---|"]
        out += [
            f"| #{pr.number} | {a.importance:.1f} | {a.insight:.1f} | {a.verdict} | {_title(pr)} |"
            for pr, a in rows
        ]
    return "\n".join(out) + "\n"


def print_histograms(analyses: Sequence[Analysis]) -> None:
    for name in ("importance", "insight"):
        print(f"\n{name}")
        for label, count, bar in histogram([getattr(a, name) for a in analyses]):
            print(f"  {label:>5} {count:5d} {bar}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=default_data(), help=f"the {FILE_NAME} file")
    parser.add_argument("--repo", default="verl-project/verl", help="repository the data belongs to")
    parser.add_argument("--rounds", type=int, default=3, help="full passes; the best is reported")
    parser.add_argument("--top", type=int, default=15, help="how many PRs to list at each end")
    parser.add_argument("--markdown", type=Path, help="also write the markdown section to this file")
    parser.add_argument(
        "--end-to-end", action="store_true", help="also time analyze_stored over a fresh SQLite index"
    )
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"no data at {args.data}; pass --data or set PRHUB_SHARED_DATA", file=sys.stderr)
        return 2
    pinning = pin_to_one_core()
    prs = load(args.data, args.repo)
    wall, cpu, analyses = measure(HeuristicAnalyzer(), prs, max(1, args.rounds))
    print(
        f"{len(prs):,} PRs in {wall:.2f} s wall / {cpu:.2f} s CPU: {len(prs) / wall:,.0f} PRs/s ({pinning})"
    )
    if args.end_to_end:
        analysed, e2e_wall, e2e_cpu = end_to_end(args.data, args.repo, max(1, args.rounds))
        print(
            f"end to end (analyze_stored, SQLite, best of {max(1, args.rounds)}): {analysed:,} PRs in {e2e_wall:.2f} s wall / "
            f"{e2e_cpu:.2f} s CPU: {analysed / e2e_wall:,.0f} PRs/s wall, {analysed / e2e_cpu:,.0f} PRs/s CPU"
        )
    print_histograms(analyses)
    section = report(args.data, prs, analyses, wall, cpu, max(1, args.rounds), pinning, args.top)
    print("\n" + section)
    if args.markdown:
        args.markdown.write_text(section, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
