"""What a change to the heuristic analyzer does to the ranking: dump every PR's scores, verdict, reason,
key points and risks from one source tree, then compare two dumps (PRs that move, verdicts that change).

Run the dump once per tree (the tree is whatever `PYTHONPATH` puts first), then compare:
    PYTHONPATH=/path/to/old python bench/ranking_diff.py dump old.json
    PYTHONPATH=/path/to/new python bench/ranking_diff.py dump new.json
    python bench/ranking_diff.py compare old.json new.json [--examples 20]

PRs merged in June 2026 are left out of every dump: that month is kept aside for evaluation."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench.analysis import default_data, load
from chatbot.analysis import HeuristicAnalyzer

# June 2026 in the repository's timezone (Asia/Shanghai), so no PR of its edges slips in.
HELD_OUT = (
    datetime(2026, 6, 1, tzinfo=timezone(timedelta(hours=8))),
    datetime(2026, 7, 1, tzinfo=timezone(timedelta(hours=8))),
)


def dump(data: Path, repo: str, out: Path) -> int:
    """Analyse every PR of the export (June 2026 left out) and write one record per PR, in zh and en."""
    analyzer = HeuristicAnalyzer()
    records: dict[str, dict[str, Any]] = {}
    for pr in load(data, repo):
        merged = pr.header.merged_at
        if merged is not None and HELD_OUT[0] <= merged < HELD_OUT[1]:
            continue
        analysis = analyzer.analyze(pr)
        records[str(pr.number)] = {
            "title": pr.title,
            "importance": analysis.importance,
            "insight": analysis.insight,
            "verdict": analysis.verdict,
            "texts": {
                language: {
                    "reason": text.verdict_reason,
                    "key_points": list(text.key_points),
                    "risks": list(text.risks),
                }
                for language, text in analysis.texts.items()
            },
        }
    out.write_text(json.dumps({"version": analyzer.version, "prs": records}, ensure_ascii=False, indent=1))
    return len(records)


def compare(old_path: Path, new_path: Path, examples: int) -> str:
    """A plain-text summary: how many PRs move (importance), verdict transitions, texts that changed, and
    the largest moves with their old and new reasons."""
    old, new = (json.loads(p.read_text()) for p in (old_path, new_path))
    a, b = old["prs"], new["prs"]
    common = sorted(set(a) & set(b), key=int)
    moved = [n for n in common if a[n]["importance"] != b[n]["importance"]]
    transitions = Counter(
        (a[n]["verdict"], b[n]["verdict"]) for n in common if a[n]["verdict"] != b[n]["verdict"]
    )
    changed = Counter(
        field
        for n in common
        for field in ("reason", "key_points", "risks")
        if any(a[n]["texts"][lang][field] != b[n]["texts"].get(lang, {}).get(field) for lang in a[n]["texts"])
    )
    before, after = Counter(a[n]["verdict"] for n in common), Counter(b[n]["verdict"] for n in common)
    lines = [
        f"{old['version']} -> {new['version']}: {len(common)} PRs",
        f"importance moved: {len(moved)} (up {sum(b[n]['importance'] > a[n]['importance'] for n in moved)}, "
        f"down {sum(b[n]['importance'] < a[n]['importance'] for n in moved)})",
        "verdicts: "
        + ", ".join(f"{v} {before[v]} -> {after[v]}" for v in ("must-read", "worth-reading", "skim")),
    ]
    lines += [f"  {x} -> {y}: {count}" for (x, y), count in transitions.most_common()]
    lines.append("texts changed: " + ", ".join(f"{field} {count}" for field, count in changed.most_common()))
    biggest = sorted(moved, key=lambda n: -abs(b[n]["importance"] - a[n]["importance"]))[:examples]
    for n in biggest:
        lines += [
            f"#{n} {a[n]['importance']} {a[n]['verdict']} -> {b[n]['importance']} {b[n]['verdict']}  {a[n]['title']}",
            f"    old: {a[n]['texts']['en']['reason']}",
            f"    new: {b[n]['texts']['en']['reason']}",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump", help="analyse the export with this tree and write JSON")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--data", type=Path, default=None)
    dumping.add_argument("--repo", default="verl-project/verl")
    comparing = commands.add_parser("compare", help="compare two dumps")
    comparing.add_argument("old", type=Path)
    comparing.add_argument("new", type=Path)
    comparing.add_argument("--examples", type=int, default=20)
    args = parser.parse_args(argv)
    if args.command == "dump":
        count = dump(args.data or default_data(), args.repo, args.out)
        print(f"{count} PRs written to {args.out}", file=sys.stderr)
    else:
        print(compare(args.old, args.new, args.examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
