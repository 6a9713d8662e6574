"""Classes of questions over five repos of shapes the other batteries lack (tests/qa/oct_repos.py: a Go
server and a Rust workspace with conventional commits, a TypeScript monorepo, a Chinese-only repo, an
ML library whose bodies are only issue links), asked in each repo's channel and in a channel subscribed
to three of them, on a Tuesday in October, in Chinese and English, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.oct_repos import BY_KEY, CADDY, HF, NOW, OCR, QUERY, SHANGHAI, TAURI, clock, seed
from tests.scratch_db import seeded_database

CHANNELS = {"caddy": (CADDY,), "tauri": (TAURI,), "query": (QUERY,), "ocr": (OCR,), "hf": (HF,)}
SEVERAL = "platform-team"  # subscribed to three repos
CHANNELS[SEVERAL] = (CADDY, TAURI, QUERY)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def oct_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("oct")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_oct") as database:
        yield database


@dataclass(frozen=True, slots=True)
class Channels:
    """The bot with each channel subscribed to its repos (one, or several for SEVERAL)."""

    bot: ChatBot

    def ask(self, channel: str, question: str, thread: str | None = None) -> Answer:
        return self.bot.handle(Message(question, platform="slack", channel=channel, user="U1", thread=thread))


@pytest.fixture(scope="module")
def bot(oct_db: Database) -> Channels:
    def repos(message: Message) -> tuple[str, ...]:
        return CHANNELS.get(message.channel or "", ())

    def repo(message: Message) -> str | None:
        subscribed = repos(message)
        return subscribed[0] if len(subscribed) == 1 else None

    return Channels(
        ChatBot(
            oct_db,
            BotConfig(SHANGHAI),
            clock(),
            HeuristicAnalyzer().analyze,
            channel_repo=repo,
            channel_repos=repos,
        )
    )


def day(month: int, day_: int) -> datetime:
    return datetime(2026, month, day_, tzinfo=SHANGHAI)


def test_no_answer_cites_a_pr_merged_after_the_clock(bot: Channels) -> None:
    answer = bot.ask("caddy", "最近合了什么")
    assert all(BY_KEY[(CADDY, n)].merged <= NOW for n in answer.cited)


# Names written apart, run together, in CamelCase or snake_case -----------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("tauri", "tray icon 的修复", {11052}),  # TrayIcon
        ("tauri", "any fixes for the tray icon?", {11052}),
        ("tauri", "Tray Icon 有啥问题修了", {11052}),
        ("tauri", "asset resolver 相关", {11058}),  # AssetResolver
        ("tauri", "assetresolver perf", {11058}),
        ("tauri", "webview window 背景色 八月以来", {11001}),  # WebviewWindow
        ("query", "what changed around infinite queries?", {8137, 8155}),  # useInfiniteQuery
        ("query", "suspense queries", {8110}),  # useSuspenseQueries
        ("query", "base query 的修复", {8125, 8142}),  # useBaseQuery.ts, createBaseQuery.ts
        ("hf", "RMSNorm 相关的 PR", {34066}),  # rms_norm (this month); RMSNorm (September) is older
        ("hf", "rms norm fixes since September", {34015, 34066}),
        ("hf", "RMSNorm 自九月以来", {34015, 34066}),
        ("hf", "rms_norm 九月以来的改动", {34015, 34066}),
        (
            "hf",
            "FlashAttention since August",
            {34001, 34022},
        ),  # FlashAttention-2, flash_attn, flash_attention
        ("hf", "flash attention 八月以来", {34001, 34022}),
        ("hf", "kv cache", {34048}),
        ("caddy", "reverse proxy 最近改了啥", {6661, 6664}),  # reverseproxy/
        ("caddy", "what changed in the reverse proxy lately?", {6661, 6664}),
        ("caddy", "health check 相关改动", {6664}),  # healthchecks.go
        ("caddy", "healthcheck", {6664}),
        ("caddy", "file server docs", {6641}),  # file_server, fileserver/
        ("ocr", "text detector 有测试吗", {14063}),  # text_detector
        ("ocr", "label file 改了什么", {14052}),  # label_file.py
    ],
)
def test_a_name_finds_its_other_spellings(
    bot: Channels, channel: str, question: str, cited: set[int]
) -> None:
    """ "tray icon" finds `TrayIcon`, "RMSNorm" `rms_norm`, "reverse proxy" `reverseproxy/`: the words
    of a name are one name however code spells it."""
    answer = bot.ask(channel, question)
    assert answer.query.intent == "topic"
    assert set(answer.cited) == cited


@pytest.mark.parametrize("question", ["proxy 配置", "proxy settings", "what changed about proxies?"])
def test_a_word_alone_is_not_found_inside_a_name(bot: Channels, question: str) -> None:
    """Only the words of a name together find it run together: "proxy" alone is no mention in
    `reverseproxy/`, the only place #6664 and #6661 say it."""
    assert not {6661, 6664} & set(bot.ask("caddy", question).cited)


# A longer phrase over a generic glossary one -------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("hf", "local model support?", {34053}),
        ("hf", "any local model support?", {34053}),
        ("hf", "Local model support", {34053}),
        ("hf", "offline mode?", {34053}),
    ],
)
def test_a_word_before_a_generic_phrase_makes_it_specific(
    bot: Channels, channel: str, question: str, cited: set[int]
) -> None:
    """ "local model support": the PRs about local models, not every model PR with "local" dropped."""
    answer = bot.ask(channel, question)
    assert answer.query.topics == ()
    assert set(answer.cited) == cited


@pytest.mark.parametrize(
    "question", ["any new model support this month?", "最近有没有新模型支持", "有新的模型支持吗"]
)
def test_new_model_support_stays_the_concept(bot: Channels, question: str) -> None:
    assert bot.ask("hf", question).query.topics == ("new_models",)


# 新增 qualifying a thing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question", "topic", "cited"),
    [
        ("ocr", "新增了哪些文档", "docs", {14046}),
        ("ocr", "新增了哪些文档？", "docs", {14046}),
        ("ocr", "最近新增的文档", "docs", {14046}),
        ("hf", "新增了哪些文档", "docs", {34062}),
        ("tauri", "新增了什么文档", "docs", {11061}),
        ("ocr", "最近新增的测试", "test", {14063}),
        ("ocr", "新增了哪些测试", "test", {14063}),
        ("caddy", "新增了哪些测试", "test", {6650, 6668}),  # #6650 adds lexer_test.go
    ],
)
def test_added_before_a_thing_asks_about_that_thing(
    bot: Channels, channel: str, question: str, topic: str, cited: set[int]
) -> None:
    """ "新增了哪些文档": the docs added, not new features about docs."""
    answer = bot.ask(channel, question)
    assert answer.query.topics == (topic,)
    assert answer.query.change_types == ()
    assert set(answer.cited) == cited


@pytest.mark.parametrize("question", ["新增了哪些功能", "上个月新增了什么功能", "有哪些新功能"])
def test_added_alone_is_still_new_features(bot: Channels, question: str) -> None:
    assert bot.ask("ocr", question).query.change_types == ("feat",)


# Small talk ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channel", "question"),
    [
        ("caddy", "what time is it?"),
        ("caddy", "What's the time?"),
        ("tauri", "what day is it today?"),
        ("tauri", "what's the date today?"),
        ("query", "今天几号"),
        ("query", "今天几号？"),
        ("hf", "今天星期几"),
        ("hf", "现在几点了"),
        ("ocr", "你是谁"),
        ("ocr", "who are you?"),
        ("caddy", "hey, how are you?"),
        ("caddy", "你好吗"),
        (SEVERAL, "今天几号"),
        (SEVERAL, "what time is it"),
    ],
)
def test_small_talk_gets_what_the_bot_does(bot: Channels, channel: str, question: str) -> None:
    """Asking the date, the time or who the bot is names a day perhaps, but asks nothing about PRs."""
    answer = bot.ask(channel, question)
    assert answer.query.intent == "unknown"
    assert answer.cited == ()
    assert say("qa.unknown", answer.query.language) in answer.reply.plain_text()


@pytest.mark.parametrize(
    "question",
    [
        "what happened last week?",
        "what happened in october",
        "what's been going on this month?",
        "上周发生了什么",
        "这个月有什么动态",
    ],
)
def test_what_happened_in_a_span_asks_about_its_prs(bot: Channels, question: str) -> None:
    """In a channel of several repos (no repo in mind), a span and "what happened" ask about PRs; without
    a span the same words are small talk ("what happened to the weather?")."""
    answer = bot.ask(SEVERAL, question)
    assert answer.query.intent != "unknown" and answer.cited, (question, answer.query.intent)
    assert bot.ask(SEVERAL, "what happened to the weather in Beijing?").query.intent == "unknown"


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("caddy", "今天合了什么", {6675}),
        ("caddy", "今天有新 PR 吗", {6675}),
        ("caddy", "what was merged today?", {6675}),
        ("hf", "OOM", {34057}),
        ("hf", "显存", {34057}),
        ("tauri", "Kotlin?", {11061}),
    ],
)
def test_short_real_questions_are_still_answered(
    bot: Channels, channel: str, question: str, cited: set[int]
) -> None:
    assert set(bot.ask(channel, question).cited) == cited


# Comparisons ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "start", "before"),
    [
        ("比上周多了吗", day(10, 19), day(10, 12)),
        ("比上周多吗", day(10, 19), day(10, 12)),
        ("跟上周比怎么样", day(10, 19), day(10, 12)),
        ("和上周相比呢", day(10, 19), day(10, 12)),
        ("did we merge more than last week?", day(10, 19), day(10, 12)),
        ("more PRs than last week?", day(10, 19), day(10, 12)),
        ("compared to last week?", day(10, 19), day(10, 12)),
        ("compare with last week", day(10, 19), day(10, 12)),
        ("本周和上周比", day(10, 19), day(10, 12)),
        ("this week vs last week", day(10, 19), day(10, 12)),
        ("比上个月多吗", day(10, 1), day(9, 1)),
        ("this month vs last month", day(10, 1), day(9, 1)),
        ("这个月比上个月怎么样", day(10, 1), day(9, 1)),
        ("上周比上上周多吗", day(10, 12), day(10, 5)),
        ("上周和上上周比怎么样", day(10, 12), day(10, 5)),
        ("W42 对比 W41", day(10, 12), day(10, 5)),
        ("W42 vs W41", day(10, 12), day(10, 5)),
        ("八月和九月比", day(9, 1), day(8, 1)),
        ("九月比八月多吗", day(9, 1), day(8, 1)),
    ],
)
def test_a_comparison_gives_both_windows(
    bot: Channels, question: str, start: datetime, before: datetime
) -> None:
    """ "比上周多了吗" compares this week with last week: the window named after 比 / than is the
    baseline; both windows' figures are in the answer."""
    answer = bot.ask("caddy", question)
    assert answer.query.intent == "compare"
    assert answer.window is not None and answer.window.start == start
    text = answer.reply.plain_text()
    assert f"{before:%Y-%m-%d}" in text


# Windows, limits, numbers, authors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("2026-10 的 PR", day(10, 1), day(11, 1)),
        ("what was merged in 2026-09?", day(9, 1), day(10, 1)),
        ("2026/09 合并了多少 PR", day(9, 1), day(10, 1)),
        ("2026-10-05 合了啥", day(10, 5), day(10, 6)),
        ("上个月合了什么", day(9, 1), day(10, 1)),
        ("10/1 到 10/15", day(10, 1), day(10, 16)),
        ("八月份的改动", day(8, 1), day(9, 1)),
        ("what landed in August?", day(8, 1), day(9, 1)),
    ],
)
def test_window_forms(bot: Channels, question: str, start: datetime, end: datetime) -> None:
    answer = bot.ask("caddy", question)
    assert answer.window is not None
    assert (answer.window.start, answer.window.end) == (start, end)


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("top-3 this month", 3),
        ("top 3 this month", 3),
        ("本月最重要的两个 PR", 2),
        ("本月前三", 3),
        ("这个月三个最重要的", 3),
        ("10 月最值得看的 5 个", 5),
    ],
)
def test_limits(bot: Channels, question: str, limit: int) -> None:
    answer = bot.ask("hf", question)
    assert answer.query.limit == limit
    assert 0 < len(answer.cited) <= limit


@pytest.mark.parametrize(
    ("channel", "question"),
    [
        ("query", "https://github.com/caddyserver/caddy/pull/6661"),
        ("caddy", "PR6661 讲了什么"),
        ("caddy", "#6661 呢"),
        ("caddy", "6661 这个 PR 有风险吗"),
        ("caddy", "what does PR 6661 do?"),
    ],
)
def test_pr_number_forms(bot: Channels, channel: str, question: str) -> None:
    answer = bot.ask(channel, question)
    assert (answer.query.repo, answer.query.pr_number, answer.cited) == (CADDY, 6661, (6661,))


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("@mholt 最近合了什么", {6661, 6655}),
        ("mholt 这个月的 PR", {6661, 6655}),
        ("what did mholt merge this month?", {6661, 6655}),
        ("francislavoie 十月做了什么", {6650, 6671}),
    ],
)
def test_authors(bot: Channels, question: str, cited: set[int]) -> None:
    assert set(bot.ask("caddy", question).cited) == cited


@pytest.mark.parametrize(
    ("channel", "question", "cited"),
    [
        ("query", "any breaking changes this month?", {8150}),
        ("query", "这个月有破坏性变更吗", {8150}),
        ("tauri", "breaking changes in October", {11046}),
        ("caddy", "十月有哪些不兼容的改动", {6655}),
    ],
)
def test_breaking_changes(bot: Channels, channel: str, question: str, cited: set[int]) -> None:
    answer = bot.ask(channel, question)
    assert answer.query.breaking
    assert set(answer.cited) == cited


# A channel subscribed to several repos ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "我们订阅的仓库本周有什么风险",
        "本周有哪些风险？",
        "what are the risks this week?",
        "上周合了什么",
        "这周合了啥",
    ],
)
def test_a_channel_of_several_repos_is_answered_across_them(bot: Channels, question: str) -> None:
    answer = bot.ask(SEVERAL, question)
    assert answer.query.intent != "unknown"
    assert answer.cited
    assert {repo for (repo, number) in BY_KEY if number in answer.cited} <= {CADDY, TAURI, QUERY}


# Follow-ups in a thread -----------------------------------------------------------------------------------


def test_a_thread_keeps_what_a_follow_up_does_not_change(bot: Channels) -> None:
    """Each follow-up changes one thing and keeps the rest; a question with an ask of its own ("上周合了什
    么") is a new question in the thread, not the last one's risks with another window."""
    thread = "oct-thread-1"
    first = bot.ask("caddy", "上周有哪些风险？", thread)
    assert (first.query.intent, first.window and first.window.start) == ("risks", day(10, 12))
    before = bot.ask("caddy", "那上上周呢", thread)
    assert (before.query.intent, before.window and before.window.start) == ("risks", day(10, 5))
    breaking = bot.ask("caddy", "只看破坏性的", thread)
    assert (breaking.query.intent, breaking.query.breaking, breaking.cited) == ("risks", True, (6655,))
    fresh = bot.ask("caddy", "上周合了什么", thread)
    assert (fresh.query.intent, fresh.query.breaking) == ("highlights", False)
    assert set(fresh.cited) == {6661, 6664, 6668}
    second = bot.ask("caddy", "第二个讲了什么", thread)
    assert (second.query.intent, second.cited) == ("pr", (fresh.cited[1],))


@pytest.mark.parametrize(
    ("follow", "intent", "start", "modules"),
    [
        ("and the week before?", "highlights", day(10, 5), ()),
        ("那上上周呢", "highlights", day(10, 5), ()),
        ("那 reverseproxy 呢", "highlights", day(10, 12), ("reverseproxy",)),
        ("and in caddytls?", "highlights", day(10, 12), ("caddytls",)),
        ("top 2", "highlights", day(10, 12), ()),
    ],
)
def test_a_follow_up_changes_one_slot(
    bot: Channels, follow: str, intent: str, start: datetime, modules: tuple[str, ...]
) -> None:
    thread = f"oct-{follow}"
    bot.ask("caddy", "上周合了什么", thread)
    answer = bot.ask("caddy", follow, thread)
    assert answer.query.intent == intent
    assert answer.window is not None and answer.window.start == start
    assert answer.query.modules == modules


@pytest.mark.parametrize(
    "question",
    [
        "anything on flash attn lately?",
        "flash attn since August",
        "flashattn?",
        "flash_attn 最近的改动",
        "Flash-Attn",
    ],
)
def test_a_glossary_name_is_read_in_any_spelling(bot: Channels, question: str) -> None:
    """ "flash attn", "flashattn", "flash_attn": the glossary's flash-attn however the asker spaces it, so
    both #34001 (FlashAttention-2) and #34022 (flash_attn) are found."""
    answer = bot.ask("hf", question)
    assert answer.query.topics == ("attention",)
    assert {34001, 34022} <= set(answer.cited)


@pytest.mark.parametrize(
    "question",
    [
        "十月有不兼容的改动吗",
        "10 月有哪些破坏性变更",
        "breaking changes in October?",
        "十月有不再兼容的改动吗",
    ],
)
def test_a_breaking_change_stated_as_no_longer_compatible(bot: Channels, question: str) -> None:
    """#14052 says only "不再兼容旧版本的标注格式": no longer compatible is a breaking change."""
    answer = bot.ask("ocr", question)
    assert answer.query.breaking
    assert set(answer.cited) == {14052}
