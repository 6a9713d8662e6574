"""Question-answering latency over a synthetic index (bench/synthetic_index.py: 100,000 PRs, 50 repos),
without the LLM: a fixed mix of 280 questions through `ChatBot.handle`, p50/p95/max per question type.

    .venv/bin/python bench/qa.py                                   # SQLite, in a temporary file
    .venv/bin/python bench/qa.py --database-url sqlite:///data/bench-qa.db   # kept and reused
    .venv/bin/python bench/qa.py --database-url postgresql+psycopg://USER@HOST:PORT/postgres --scratch

`--scratch` (PostgreSQL) creates a throwaway database on that server and drops it afterwards. An empty
database is filled first (about 20 s on SQLite); one that already holds the synthetic index is reused.
The first round is cold (module vocabulary, weekly reports built and stored); a question's latency is
the median of the warm rounds after it (which keeps other processes' noise out), and the cold maximum
of its type and the p95 of this process's CPU time per answer are printed beside the figures. Target
(issue 5): p95 ≤ 50 ms for every question type on both databases. `--profile TYPE` prints where the time of one type goes;
`--only TYPE` asks only that type's questions and prints each one's CPU time (before/after comparisons
of one type, alternating versions, in a fraction of the run).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from bench.synthetic_index import NOW, SHANGHAI, SUBJECTS, SyntheticIndex, describe_index, generate  # noqa: E402
from chatbot.analysis import HeuristicAnalyzer  # noqa: E402
from chatbot.bot import BotConfig, ChatBot  # noqa: E402
from chatbot.clock import FixedClock  # noqa: E402
from chatbot.models import Message  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from tests.scratch_db import scratch_postgres  # noqa: E402

TARGET_P95_MS = 50.0
WINDOWS_ZH = ("本周", "上周", "上上周", "本月", "上个月", "最近 7 天", "过去两周", "第 25 周", "2026-W20",
              "6月1日到14日", "自 5 月以来", "今天", "昨天")  # fmt: skip
WINDOWS_EN = ("this week", "last week", "this month", "last month", "in the last 7 days", "since May",
              "in 2026-W24", "yesterday")  # fmt: skip
TOPICS_ZH = ("显存/OOM 的修复", "性能相关的改动", "checkpoint 相关", "死锁相关的修复")
SEARCH_TERMS = (
    "KV cache",
    "expert parallel",
    "tool calling",
    "Qwen3-MoE",
    "CUDA graph",
    "显存",
    "flash attention",
)
MIX = {  # question type -> how many of the 200
    "risks": 25,
    "highlights": 25,
    "report": 15,
    "pr": 20,
    "must_read": 15,
    "topic": 25,
    "author": 15,
    "stats": 20,
    "compare": 15,
    "search": 20,
    "words": 20,
    "path": 15,
    "limit": 15,
    "breaking": 10,
    "follow_up": 20,
    "help": 5,
}
# What each type must be read as, where the type is not an intent itself.
EXPECTED_INTENT = {
    "words": "topic",
    "path": "topic",
    "limit": "highlights",
    "breaking": "topic",
    "follow_up": "risks",
}
WINDOWS_MORE = ("六月", "五月份", "上周三", "last Friday", "最近三天", "between 2026-06-08 and 2026-06-14",
                "since June 1", "自 6 月 1 日以来", "W24", "今年")  # fmt: skip
FOLLOW_UPS = ("那上上周呢？", "and the week before?", "那 fsdp 呢？", "only the breaking ones", "那五月呢？")


def question_mix(index: SyntheticIndex, seed: int = 11) -> list[tuple[str, str, str | None]]:
    """(type, question, question asked before it in the same thread) triples, two thirds Chinese, mostly
    about the five biggest repos; only a follow-up has a question before it."""
    rng = random.Random(seed)

    def repo() -> tuple[str, str]:
        full = rng.choice(index.repos[:5]) if rng.random() < 0.8 else rng.choice(index.repos)
        return full, rng.choice((full.split("/")[1], full.split("/")[1], full))

    def zh() -> bool:
        return rng.random() < 0.67

    questions: list[tuple[str, str, str | None]] = []
    for kind, count in MIX.items():
        for _ in range(count):
            full, name = repo()
            wz, we = rng.choice(WINDOWS_ZH), rng.choice(WINDOWS_EN)
            module = rng.choice(index.modules[:10])
            author = rng.choice(index.authors[:40])
            first, last = index.numbers[full]
            number = rng.randint(first, last)
            chinese = zh()
            question = {
                "risks": f"{wz} {name} 有哪些风险？" if chinese else f"what are the risks in {name} {we}?",
                "highlights": f"{wz} {name} 有哪些改动？" if chinese else f"what changed in {name} {we}?",
                "report": f"周报 {name} {rng.choice(('上周', '2026-W24', '第 23 周'))}"
                if chinese
                else f"weekly report for {name} {rng.choice(('last week', '2026-W24'))}",
                "pr": f"{name} #{number} 讲了什么？" if chinese else f"what did {name} #{number} change?",
                "must_read": f"{wz} {name} 有什么值得精读的 PR？"
                if chinese
                else f"which {name} PRs deserve a close read {we}?",
                "topic": f"{wz} {name} {rng.choice((f'{module} 相关的改动', rng.choice(TOPICS_ZH)))}"
                if chinese
                else f"{module} changes in {name} {we}",
                "author": f"{name} 里 {author} 的 PR{rng.choice(('', ' ' + wz))}"
                if chinese
                else f"PRs by {author} in {name}{rng.choice(('', ' ' + we))}",
                "stats": f"{wz} {name} 合并了多少 PR，哪个模块最活跃？"
                if chinese
                else f"how many PRs did {name} merge {we}?",
                "compare": f"{name} 本周和上周相比怎么样？"
                if chinese
                else f"compare {name} {we} with the one before",
                "search": f"搜索 {name} 的 {rng.choice(SEARCH_TERMS)}"
                if chinese
                else f"search {name} for {rng.choice(SEARCH_TERMS)}",
                "words": f"{rng.choice(WINDOWS_MORE)} {name} 里 {rng.choice(SUBJECTS)} 相关的改动"
                if chinese
                else f"what {rng.choice(SUBJECTS)} changes did {name} merge {we}?",
                "path": f"{wz} 谁改了 {full.split('/')[1]}/{module}/ 下的代码"
                if chinese
                else f"which {name} PRs touched {module}/x{number}.py?",
                "limit": f"{rng.choice(WINDOWS_MORE)} {name} 最重要的 3 个 PR"
                if chinese
                else f"top 5 PRs in {name} {we}",
                "breaking": f"{name} {rng.choice(WINDOWS_MORE)}有哪些破坏性变更"
                if chinese
                else f"any breaking changes in {name} {we}?",
                "follow_up": rng.choice(FOLLOW_UPS),
                "help": "帮助" if chinese else "help",
            }[kind]
            before = f"{wz} {name} 有哪些风险？" if kind == "follow_up" else None
            questions.append((kind, question, before))
    return questions


@contextmanager
def database_url(url: str | None, scratch: bool) -> Iterator[str]:
    """The URL to benchmark: a temporary SQLite file, the given one, or a throwaway PostgreSQL database."""
    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{tmp}/bench-qa.db"
        return
    if not scratch:
        yield url
        return
    with scratch_postgres(url, "prhub_bench_qa") as scratch_url:
        yield scratch_url


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", help="default: a temporary SQLite file")
    parser.add_argument("--scratch", action="store_true", help="PostgreSQL: use a throwaway database")
    parser.add_argument("--prs", type=int, default=100_000)
    parser.add_argument("--repos", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3, help="warm rounds after the cold one")
    parser.add_argument("--profile", metavar="TYPE", help="profile the questions of one type (cProfile)")
    parser.add_argument(
        "--only", metavar="TYPE", help="ask only the questions of one type, and print each one's CPU time"
    )
    args = parser.parse_args()

    with database_url(args.database_url, args.scratch) as url:
        db = open_database(url)
        index = describe_index(db)
        if index is None:
            started = time.perf_counter()
            index = generate(db, args.prs, args.repos)
            print(
                f"generated {args.prs:,} PRs over {args.repos} repos in {time.perf_counter() - started:.1f} s"
            )
        bot = ChatBot(
            db, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze, channel_repo=lambda m: None
        )
        questions = [q for q in question_mix(index) if args.only in (None, q[0])]
        cold: dict[str, list[float]] = defaultdict(list)
        runs: list[list[float]] = [[] for _ in questions]
        # This process's CPU time per answer: on a box other work loads, the figure that compares
        # versions (SQLite's work is in it; a PostgreSQL server's is not).
        cpu_runs: list[list[float]] = [[] for _ in questions]
        misread: list[tuple[str, str, str]] = []
        for round_ in range(args.rounds + 1):
            for n, (kind, question, before) in enumerate(questions):
                thread = f"bench-{round_}-{n}"
                if before is not None:  # the question a follow-up continues, in the same thread (untimed)
                    bot.handle(Message(before, platform="bench", channel="C1", thread=thread))
                started, cpu_started = time.perf_counter(), time.process_time()
                answer = bot.handle(Message(question, platform="bench", channel="C1", thread=thread))
                elapsed = (time.perf_counter() - started) * 1000
                cpu = (time.process_time() - cpu_started) * 1000
                if round_ == 0:
                    cold[kind].append(elapsed)
                    if answer.query.intent != EXPECTED_INTENT.get(kind, kind):
                        misread.append((kind, answer.query.intent, question))
                else:
                    runs[n].append(elapsed)
                    cpu_runs[n].append(cpu)
        warm: dict[str, list[float]] = defaultdict(list)
        warm_cpu: dict[str, list[float]] = defaultdict(list)
        for (kind, _, _), samples, cpu_samples in zip(questions, runs, cpu_runs, strict=True):
            warm[kind].append(statistics.median(samples))
            warm_cpu[kind].append(statistics.median(cpu_samples))

        dialect = db.engine.dialect.name
        print(f"\n{dialect}: {len(questions)} questions, median of {args.rounds} warm rounds each (ms)")
        print(
            f"{'type':<11} {'n':>4} {'p50':>7} {'p95':>7} {'max':>7} {'cold max':>9} {'cpu p95':>8}  target"
        )
        for kind in (k for k in MIX if warm[k]):  # with --only, one type
            samples = warm[kind]
            p95 = percentile(samples, 0.95)
            print(
                f"{kind:<11} {len(samples):>4} {statistics.median(samples):>7.1f} {p95:>7.1f} "
                f"{max(samples):>7.1f} {max(cold[kind]):>9.1f} {percentile(warm_cpu[kind], 0.95):>8.1f}  "
                f"{'ok' if p95 <= TARGET_P95_MS else 'MISSED'}"
            )
        everything = [s for samples in warm.values() for s in samples]
        print(
            f"{'all':<11} {len(everything):>4} {statistics.median(everything):>7.1f} "
            f"{percentile(everything, 0.95):>7.1f} {max(everything):>7.1f}"
        )
        if args.only:
            # Each question's CPU time, slowest first: what a type's p95 is made of.
            for cpu, (_, question, _) in sorted(
                ((statistics.median(c), q) for q, c in zip(questions, cpu_runs, strict=True)), reverse=True
            ):
                print(f"{cpu:8.1f}  {question}")
        for kind, intent, question in misread:
            print(f"note: read as {intent}, not {kind}: {question}")

        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for n, (kind, question, before) in enumerate(questions):
                if kind == args.profile:
                    if before is not None:
                        bot.handle(Message(before, platform="bench", channel="C1", thread=f"profile-{n}"))
                    bot.handle(Message(question, platform="bench", channel="C1", thread=f"profile-{n}"))
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        db.dispose()


if __name__ == "__main__":
    main()
