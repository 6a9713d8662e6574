"""Slots a question states in passing, asked over two repos written for these tests: harbor/dock (a Go
service, plain titles, Chinese bodies, bots among the authors) and lumen/lamp (a Python service, English
bodies). Asked with no channel repo on Wednesday 2026-12-02 15:00 Asia/Shanghai (2026-W49), on SQLite
and PostgreSQL: the repo a path names, the answer's language a directive names, several PR numbers,
bots' logins, a reviewer ranking after a repo's name, the glossary's engineering concepts, words that are
no typos, and windows ("上上上周", 国庆, "so far", a config key's value)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import Language, join, say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import Written, store_written
from tests.scratch_db import seeded_database

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 12, 2, 15, 0, tzinfo=SHANGHAI)
DOCK = "harbor/dock"
LAMP = "lumen/lamp"


def at(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, tzinfo=SHANGHAI)


def dock(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(DOCK, number, merged, author, title, body, files, "看起来没问题")


def lamp(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(LAMP, number, merged, author, title, body, files)


PRS: tuple[Written, ...] = (
    dock(101, at(9, 10), "wang-li", "Add NATS sink", "新增 NATS sink，支持批量发送。",
         "internal/sink/nats/writer.go", "go.mod"),
    dock(105, at(9, 24), "chen-y", "消息队列改为环形缓冲区", "用 ring buffer 替换切片追加，p99 从 40ms 降到 9ms。",
         "internal/queue/ring/ring.go"),
    dock(108, at(10, 3), "dependabot[bot]", "Bump golang.org/x/net from 0.28.0 to 0.30.0",
         "Bumps golang.org/x/net.", "go.mod", "go.sum"),
    dock(110, at(10, 5), "chen-y", "Security: reject unsigned admin tokens",
         "管理接口接受了未签名的 token，任何人都能调用。现在拒绝 alg=none。", "internal/admin/token.go"),
    dock(112, at(11, 11), "wang-li", "Helm chart: add PodDisruptionBudget",
         "为 chart 增加 PDB 和资源限制。", "deploy/charts/dock/templates/pdb.yaml"),
    dock(114, at(11, 12), "zhou-m", "接入 OpenTelemetry 链路追踪", "每条消息生成一个 span，通过 OTLP 导出。",
         "internal/trace/otel.go", "cmd/dockd/main.go"),
    dock(116, at(11, 18), "chen-y", "按租户限流", "新增 token bucket 限流，配置项 tenants[].rate_limit。",
         "internal/ratelimit/bucket.go"),
    dock(118, at(11, 25), "zhou-m", "优雅退出：停止前排空在途消息", "收到 SIGTERM 后等待 shutdown_grace 再退出。",
         "cmd/dockd/main.go", "docs/README.md"),
    dock(120, at(11, 26), "wang-li", "把 sink.timeout 默认值从 30s 改为 10s", "sink.timeout 默认 10s，慢 sink 会更早超时。",
         "internal/config/defaults.go"),
    lamp(7, at(9, 15), "ana", "Add OAuth login for the dashboard", "Users sign in with OAuth; sessions expire after 8h.",
         "lamp/auth/oauth.py", "pyproject.toml"),
    lamp(9, at(10, 2), "renovate[bot]", "Update dependency fastapi to v0.115", "This PR updates fastapi.",
         "pyproject.toml"),
    lamp(12, at(11, 19), "ben", "Expose Prometheus metrics for request latency",
         "Adds a /metrics endpoint with a request latency histogram.", "lamp/server/metrics.py", "docs/README.md"),
    lamp(14, at(11, 24), "ana", "Fix leak of weak references in the session cache",
         "Sessions were kept alive by the cache; it now holds weak references.", "lamp/server/cache.py"),
)  # fmt: skip


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("unplaced")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_unplaced") as db:
        yield db


@pytest.fixture(scope="module")
def bot(database: Database) -> ChatBot:
    return ChatBot(database, BotConfig(SHANGHAI), FixedClock(NOW), HeuristicAnalyzer().analyze)


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question, platform="console", user="U1"))


def context(**kwargs: object) -> ParseContext:
    repos = [KnownRepo(DOCK), KnownRepo(LAMP)]
    return ParseContext(NOW, SHANGHAI, repos, **kwargs)  # type: ignore[arg-type]


# The repo a path names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "repo", "cited"),
    [
        ("谁改了 internal/queue/ring？", DOCK, {105}),
        ("Which PRs touched cmd/dockd/main.go in the last month?", DOCK, {114, 118}),
        ("who changed go.mod in september", DOCK, {101}),
        ("go.mod 十月被谁改过", DOCK, {108}),
        ("PRs that modified internal/config/defaults.go", DOCK, {120}),
        ("lamp/server/cache.py 最近谁改过", LAMP, {14}),
        ("which PRs touched pyproject.toml since september?", LAMP, {7, 9}),
    ],
)
def test_a_path_only_one_indexed_repo_holds_names_that_repo(
    bot: ChatBot, question: str, repo: str, cited: set[int]
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == repo
    assert set(answer.cited) == cited


@pytest.mark.parametrize(
    ("question", "language"), [("谁改了 docs/README.md？", "zh"), ("who touched docs/README.md?", "en")]
)
def test_a_path_several_repos_hold_asks_which_of_them(
    bot: ChatBot, question: str, language: Language
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo is None and answer.cited == ()
    assert set(answer.query.path_candidates) == {DOCK, LAMP}
    known = join(answer.query.path_candidates, language)
    example = answer.query.path_candidates[0].split("/", 1)[1]
    expected = say("qa.paths.which_repo", language, path="docs/README.md", known=known, example=example)
    assert answer.reply.plain_text() == expected


@pytest.mark.parametrize(
    "question",
    ["How many PRs did each indexed repo merge last week?", "每个已索引的仓库上周合并了多少 PR？"],
)
def test_each_indexed_repo_is_one_answer_across_them(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    text = answer.reply.plain_text()
    assert answer.query.every_repo
    assert DOCK in text and LAMP in text


# The answer's language ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Summarize dock's week 48 in English.", "en"),
        ("dock 上周有哪些改动，用英文回答", "en"),
        ("dock 上周有哪些改动？请用英语说", "en"),
        ("what did dock merge last week? answer in Chinese", "zh"),
        ("what did dock merge last week, 用中文说", "zh"),
        ("dock 上周合并了什么 (in English)", "en"),
        ("summarize dock last week in chinese please", "zh"),
    ],
)
def test_a_language_directive_sets_the_language_and_is_no_search_word(question: str, language: str) -> None:
    query = parse_query(question, context())
    assert query.language == language
    assert query.terms == ()
    assert query.window is not None and query.window.start.date().isoformat() == "2026-11-23"


def test_an_answer_asked_in_english_lists_the_weeks_prs(bot: ChatBot) -> None:
    answer = ask(bot, "Summarize dock's last week in English.")
    assert answer.query.language == "en"
    assert set(answer.cited) == {118, 120}


# Several PR numbers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("Summarize dock PRs 101 and 105", (101, 105)),
        ("dock #105、#110 讲了什么", (105, 110)),
        ("dock 的 101, 108 和 112 分别是什么", (101, 108, 112)),
        ("what do #12 and #14 in lamp do?", (12, 14)),
    ],
)
def test_several_pr_numbers_are_each_answered(bot: ChatBot, question: str, cited: tuple[int, ...]) -> None:
    answer = ask(bot, question)
    assert answer.cited == cited
    text = answer.reply.plain_text()
    assert all(f"#{n}" in text for n in cited)


@pytest.mark.parametrize(
    "question", ["dock 最重要的 3 个和 5 个", "dock 2025 and 2026 PRs", "dock 9月15日到9月20日"]
)
def test_counts_years_and_dates_are_no_list_of_prs(question: str) -> None:
    assert parse_query(question, context()).more_prs == ()


# People --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["dock 上个月谁 review 的 PR 最多？", "dock 上个月谁 review 最多", "上个月 dock 谁审的 PR 最多"],
)
def test_a_reviewer_ranking_after_the_repos_name_ranks_the_reviewers(question: str) -> None:
    query = parse_query(question, context(authors=frozenset({"wang-li", "chen-y"})))
    assert query.review == "reviewers" and query.reviewer is None


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("PRs by dependabot in dock", {108}),
        ("dock 里 dependabot 的 PR", {108}),
        ("PRs by renovate", {9}),
        ("renovate 提交的 PR 有哪些", {9}),
    ],
)
def test_a_bots_name_finds_its_login(bot: ChatBot, question: str, cited: set[int]) -> None:
    answer = ask(bot, question)
    assert set(answer.cited) == cited
    assert "[bot]" not in " ".join(answer.query.terms)


# Glossary ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("dock 最近三个月有哪些安全相关的修复？", {110}),
        ("lamp 的鉴权相关改动", {7}),
        ("dock 最近三个月部署相关的改动", {112}),
        ("Any deployment changes in dock since november?", {112}),
        ("What tracing changes did dock merge in november?", {114}),
        ("dock 十一月的链路追踪", {114}),
        ("dock 最近的限流改动", {116}),
        ("anything about rate limiting in dock since november?", {116}),
        ("dock 的优雅退出是哪个 PR", {118}),
        ("graceful shutdown in dock", {118}),
        ("lamp 监控相关的 PR", {12}),
        ("lamp 延迟指标", {12}),
    ],
)
def test_common_engineering_concepts_are_found_across_languages(
    bot: ChatBot, question: str, cited: set[int]
) -> None:
    assert set(ask(bot, question).cited) == cited


def test_every_word_of_a_security_title_is_searched(bot: ChatBot) -> None:
    """'Security: reject …' declares no change type: its first word finds it like any other."""
    assert 110 in ask(bot, "dock security PRs since october").cited


# Words that are no typos ---------------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["tracing 相关的 PR", "PRs about tracing", "trcking 相关的 PR"])
def test_a_dictionary_word_is_no_typo_of_a_module(question: str) -> None:
    query = parse_query(question, context(modules=frozenset({"tracking"})))
    if "trcking" in question:
        assert query.modules == ("tracking",)  # a real typo is still read as the module
    else:
        assert query.modules == () and "tracing" in (*query.topics, *query.terms)


@pytest.mark.parametrize(("question", "module"), [("fsdp2 work", "fsdp"), ("rollouts 相关的改动", "rollout")])
def test_a_modules_name_with_a_version_or_an_ending_is_the_module(question: str, module: str) -> None:
    assert parse_query(question, context(modules=frozenset({"fsdp", "rollout"}))).modules == (module,)


def test_a_dictionary_word_is_not_respelled_to_a_title_word(bot: ChatBot) -> None:
    answer = ask(bot, "lamp weak references since november")
    assert answer.cited == (14,)
    assert "weak" in answer.query.terms and "leak" not in answer.query.terms


# Windows -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("dock 上上上周", "2026-11-09", "2026-11-16"),
        ("dock 上上上个星期有哪些改动", "2026-11-09", "2026-11-16"),
        ("dock 上上上上周", "2026-11-02", "2026-11-09"),
        ("dock 国庆期间合并了哪些 PR", "2026-10-01", "2026-10-08"),
        ("dock 国庆节的改动", "2026-10-01", "2026-10-08"),
        ("what did dock merge during the national day holiday", "2026-10-01", "2026-10-08"),
        ("dock 国庆前后的改动", "2026-09-28", "2026-10-11"),
        ("dock 五一合并了什么", "2026-05-01", "2026-05-06"),
        ("dock 元旦合并了什么", "2026-01-01", "2026-01-02"),
    ],
)
def test_named_weeks_and_holidays(question: str, start: str, end: str) -> None:
    window = parse_query(question, context()).window
    assert window is not None
    assert (window.start.date().isoformat(), window.end.date().isoformat()) == (start, end)


@pytest.mark.parametrize(
    "question",
    [
        "dock 到目前为止所有 tracing 相关的 PR",
        "all tracing PRs in dock so far",
        "has dock ever touched tracing?",
        "dock all-time tracing changes",
        "dock 有史以来的链路追踪改动",
        "dock 把 sink.timeout 默认值改成多少了",
        "What's the default of --max-inflight in dock?",
    ],
)
def test_so_far_ever_and_a_config_keys_value_are_all_time(question: str) -> None:
    query = parse_query(question, context())
    assert query.all_time and query.window is None
    assert not {"ever", "far", "time"} & set(query.terms)


@pytest.mark.parametrize(
    "question",
    [
        "dock 这个月到目前为止合并了多少",
        "dock 上周 tracing 相关的 PR",
        "internal/config/defaults.go 改了什么",
        "dock 的 README.md 改了什么",
    ],
)
def test_a_named_window_or_a_file_is_no_all_time(question: str) -> None:
    assert not parse_query(question, context()).all_time


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("dock 到目前为止所有链路追踪相关的 PR", {114}),
        ("dock 把 sink.timeout 默认值改成 10s 是哪个 PR", {120}),
    ],
)
def test_an_all_time_question_finds_prs_older_than_the_default_span(
    bot: ChatBot, question: str, cited: set[int]
) -> None:
    assert cited <= set(ask(bot, question).cited)


@pytest.mark.parametrize(
    ("question", "understood"),
    [
        ("Any TLS or certificate fixes in dock?", "TLS or certificate"),
        ("dock 有哪些 TLS 或者证书相关的修复", "TLS 或 证书"),
    ],
)
def test_alternatives_naming_one_concept_are_each_said(question: str, understood: str) -> None:
    """'TLS or certificate' are one concept's terms: the answer says it searched for both as written."""
    query = parse_query(question, context())
    assert query.topics == ("tls",)
    assert understood in query.understood


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("dock 把 sink.timeout 默认值改成多少了", "timeout"),
        ("dock 的 --max-inflight 默认是多少", "max-inflight"),
        ("What's the default of --max-inflight in dock?", "max-inflight"),
        ("what is queue.capacity set to in dock", "capacity"),
        ("dock 里 retry.max_backoff 设为多少", "retry"),
    ],
)
def test_a_config_keys_value_is_asked_of_the_key_not_counted_or_searched_as_a_word(
    question: str, key: str
) -> None:
    query = parse_query(question, context())
    assert query.intent != "stats"
    assert any(key in word for word in (*query.terms, *query.topics)), (query.terms, query.topics)
    assert not {"default", "默认", "默认值", "改成", "设为", "value", "set", "to"} & set(query.terms), (
        query.terms
    )


@pytest.mark.parametrize(
    "question", ["dock 上个月合并了多少个 PR", "dock 上周合并了多少", "how many PRs did dock merge"]
)
def test_how_many_is_still_a_count(question: str) -> None:
    assert parse_query(question, context()).intent == "stats"
