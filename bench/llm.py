"""LLM analyzer benchmark: PRs per minute through the real openai client against the fake
OpenAI-compatible server on 127.0.0.1, which holds every answer for a fixed latency (500 ms by default)
and runs in a child process so that its CPU time is not counted.

    .venv/bin/python bench/llm.py                                   # 64 synthetic PRs, concurrency 4 and 8
    .venv/bin/python bench/llm.py --data ../shared/data/verl-pulls.jsonl.gz --prs 80

With latency L and concurrency C the ceiling is C x 60/L PRs a minute (960 at C=8, L=0.5 s); the gap to
it is the client's own cost (prompt building, the heuristic hints, validation, HTTP).
Target (issue 3): >= 85% of 8 x 120 = 816 PRs/min at concurrency 8.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import multiprocessing as mp
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake server lives in tests/, which is not an installed package

from adapters.github.rest import pull_request_from_rest  # noqa: E402
from adapters.llm import LLMSettings, OpenAICompatibleLLM  # noqa: E402
from chatbot.analysis.heuristic import HeuristicAnalyzer  # noqa: E402
from chatbot.analysis.llm import LLMAnalyzer  # noqa: E402
from chatbot.models import Comment, PRFile, PullHeader, PullRequest, Review  # noqa: E402
from tests.fakes.openai import FakeOpenAI  # noqa: E402

TARGET_SHARE = 0.85
API_KEY = "bench-key"
MODULES = ("rollout", "trainer", "megatron", "fsdp", "workers", "utils")


def synthetic_prs(count: int) -> list[PullRequest]:
    """PRs of varied size: a source file or two, sometimes tests and docs, a description, a review."""
    start = datetime(2026, 6, 15, 8, 0, tzinfo=UTC)
    prs = []
    for n, module in zip(range(1, count + 1), itertools.cycle(MODULES), strict=False):
        lines = 20 + (n * 37) % 400
        files = [
            PRFile(
                f"verl/{module}/change_{n}.py",
                "modified",
                lines,
                lines // 4,
                "@@ -1,3 +1,3 @@\n"
                + "\n".join(f"+    value_{i} = compute_{module}({i})" for i in range(lines)),
            )
        ]
        if n % 2:
            files.append(
                PRFile(f"tests/test_{module}_{n}.py", "added", 30, 0, "+def test_it():\n+    assert True")
            )
        if n % 3 == 0:
            files.append(PRFile("docs/index.md", "modified", 4, 1, "-old\n+new words"))
        body = (
            f"## What does this PR do?\nReworks {module} step {n} so that batches are reused.\n\n"
            "## Test\nThroughput 1.3x on 8 GPUs, memory -12%.\n"
        )
        header = PullHeader(
            "verl-project/verl", n, f"[{module}] feat: rework step {n}", body, "alice", start, start, start
        )
        prs.append(
            PullRequest(
                header,
                tuple(files),
                reviews=(Review("bob", "APPROVED", "LGTM, nice numbers.", start + timedelta(hours=1)),),
                comments=(Comment("carol", "Does this change the default batch size?", start),),
            )
        )
    return prs


def load(path: Path, count: int) -> list[PullRequest]:
    prs = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                prs.append(pull_request_from_rest(json.loads(line), "verl-project/verl"))
            if len(prs) == count:
                break
    return prs


def serve_fake(latency: float, conn: Connection) -> None:
    """The fake server, in a child process so that its CPU time is not charged to the client. It
    answers commands from the parent: "reset", "max_in_flight", "stop"."""
    with FakeOpenAI(api_key=API_KEY, latency=latency) as fake:
        assert isinstance(fake, FakeOpenAI)
        conn.send(fake.base_url)
        while (command := conn.recv()) != "stop":
            if command == "reset":
                fake.reset()
                conn.send(None)
            else:
                conn.send(fake.max_in_flight)


def run(
    conn: Connection, base_url: str, prs: Sequence[PullRequest], concurrency: int, json_mode: str
) -> dict[str, float]:
    conn.send("reset")
    conn.recv()
    settings = LLMSettings(api_key=API_KEY, base_url=base_url, json_mode=json_mode, max_retries=0)  # type: ignore[arg-type]
    analyzer = LLMAnalyzer(OpenAICompatibleLLM(settings), HeuristicAnalyzer())
    started = time.perf_counter()
    results = list(analyzer.analyze_many(prs, concurrency=concurrency))
    elapsed = time.perf_counter() - started
    conn.send("max_in_flight")
    return {
        "prs": len(results),
        "seconds": elapsed,
        "per_minute": len(results) * 60 / elapsed,
        "fallbacks": sum(r.fell_back for r in results),
        "max_in_flight": conn.recv(),
        "estimated_prompt_tokens": statistics.mean(analyzer.estimate_tokens(pr) for pr in prs),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--prs", type=int, default=64, help="how many PRs (default 64)")
    parser.add_argument("--data", type=Path, help="a verl-pulls.jsonl.gz to take the PRs from")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the fake holds each answer")
    parser.add_argument("--concurrency", default="4,8", help="comma-separated levels (default 4,8)")
    parser.add_argument("--json-mode", default="json_schema", choices=("json_schema", "json_object"))
    args = parser.parse_args(argv)

    prs = load(args.data, args.prs) if args.data else synthetic_prs(args.prs)
    source = f"{len(prs)} PRs from {args.data.name}" if args.data else f"{len(prs)} synthetic PRs"
    print(
        f"LLM analyzer against the fake OpenAI server: {source}, latency {args.latency * 1000:.0f} ms, "
        f"{args.json_mode}"
    )
    print(
        "| concurrency | PRs | seconds | PRs/min | ceiling | share of ceiling | max in flight | fallbacks |"
    )
    print("|---|---|---|---|---|---|---|---|")
    conn, child_conn = mp.Pipe()
    server = mp.Process(target=serve_fake, args=(args.latency, child_conn), daemon=True)
    server.start()
    figures = {}
    try:
        base_url = conn.recv()
        for level in (int(value) for value in args.concurrency.split(",")):
            f = figures[level] = run(conn, base_url, prs, level, args.json_mode)
            ceiling = f["ceiling"] = level * 60 / args.latency
            print(
                f"| {level} | {f['prs']:.0f} | {f['seconds']:.2f} | {f['per_minute']:.0f} | {ceiling:.0f} "
                f"| {f['per_minute'] / ceiling:.1%} | {f['max_in_flight']:.0f} | {f['fallbacks']:.0f} |"
            )
    finally:
        conn.send("stop")
        server.join()
    tokens = statistics.mean(f["estimated_prompt_tokens"] for f in figures.values())
    print(f"estimated prompt tokens per PR (first request, schema included): {tokens:.0f}")
    if 8 in figures:
        target = TARGET_SHARE * figures[8]["ceiling"]
        verdict = "meets" if figures[8]["per_minute"] >= target else "MISSES"
        print(f"concurrency 8: {figures[8]['per_minute']:.0f} PRs/min {verdict} the target of {target:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
