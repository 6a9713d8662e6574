"""PDF benchmark: `render_pdf` of the full report of a 300-PR week (built in memory, no database).

The first call also imports WeasyPrint and loads the fonts, so it is reported apart from the timed runs.
Run: .venv/bin/python bench/pdf.py [--prs N] [--runs N]"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.reports.synthetic

from chatbot.reports.cards import report_document
from chatbot.reports.pdf import cjk_font_available, render_pdf
from tests.reports.synthetic import synthetic_report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    document = report_document(synthetic_report(args.prs))
    started = time.perf_counter()
    pdf = render_pdf(document)
    cold_ms = (time.perf_counter() - started) * 1000
    print(
        f"{args.prs}-PR report, Chinese font available: {cjk_font_available()}, PDF {len(pdf) / 1024:.0f} KiB"
    )
    print(f"first call (imports WeasyPrint): {cold_ms:.0f} ms")
    runs = []
    for run in range(1, args.runs + 1):
        started = time.perf_counter()
        render_pdf(document)
        runs.append((time.perf_counter() - started) * 1000)
        print(f"run {run}: {runs[-1]:.0f} ms")
    print(f"best {min(runs):.0f} ms, mean {sum(runs) / len(runs):.0f} ms")


if __name__ == "__main__":
    main()
