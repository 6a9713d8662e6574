"""Any message of up to 2,000 characters gets a reply: no exception, not even one the bot catches and turns
into an apology, and every PR it cites exists in the index (SQLite, the written fixture index)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chatbot.bot import ChatBot
from chatbot.models import Message
from chatbot.store.db import Database, open_database
from tests.qa.conftest import make_bot
from tests.qa.fixture_repo import BY_KEY, seed_fixture

# Pieces of real questions, so that many examples reach retrieval rather than "I did not understand".
FRAGMENTS = (
    "本周", "上周", "上上周", "本月", "上个月", "最近 3 天", "过去两周", "今天", "昨天", "第 25 周", "W25",
    "2026-W25", "6月15日到21日", "6/15-6/21", "2026-06-15..2026-06-21", "自 6 月以来", "since June",
    "this week", "last week", "verl", "vllm", "verl-project/verl", "foo/bar", "https://github.com/verl-project/verl",
    "https://github.com/verl-project/verl/pull/6512", "#6512", "6512 讲了什么", "#99999999", "有哪些风险",
    "risks", "改动", "what changed", "周报", "report", "值得精读", "megatron", "megatorn", "显存", "OOM",
    "修复", "alice 的 PR", "@bob", "by dependabot[bot]", "合并了多少 PR", "哪个模块最活跃", "对比",
    "compare", "搜索", "search for", "关于", "帮助", "help", "？", "?", "，", "请问", "谢谢", " ", "\n",
    "\x00", "\ud800", "\u202e", "🤖", "<!channel>", "@all", "%", "_", "\\", "'", '"', "*", "(", ")", "[", "]",
)  # fmt: skip
ANY_CHARACTER = st.characters(exclude_categories=())  # surrogates and control characters included
MESSAGES = st.one_of(
    st.text(ANY_CHARACTER, max_size=2000),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(ANY_CHARACTER, max_size=4)), max_size=8).map(
        "".join
    ),
    st.text(
        st.sampled_from("本周上月天到至以来的了吗风险verlvm0123456789/-.wW? 　，。"),
        min_size=1000,
        max_size=2000,
    ),
).map(lambda text: text[:2000])


class Failures(logging.Handler):
    """Records what the bot logs at error level: a failure it caught and apologised for."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def sqlite_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    db = open_database(f"sqlite:///{Path(tmp_path_factory.mktemp('property')) / 'prhub.db'}")
    seed_fixture(db)
    yield db
    db.dispose()


@pytest.fixture(scope="module")
def failures() -> Iterator[Failures]:
    handler = Failures()
    logger = logging.getLogger("chatbot")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


@pytest.fixture(scope="module")
def sqlite_bot(sqlite_db: Database) -> ChatBot:
    return make_bot(sqlite_db)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=MESSAGES)
# Found by this test: a lone surrogate or a NUL in a search term made the database driver raise.
@example(text="搜索 verl \ud800abc")
@example(text="verl 关于 \x00\x00\x00 的 PR")
@example(text="x" * 2000)
def test_any_message_gets_a_reply_without_an_error(
    sqlite_bot: ChatBot, failures: Failures, text: str
) -> None:
    failures.records.clear()
    answer = sqlite_bot.handle(Message(text, channel="verl-channel"))

    assert answer.reply.blocks
    assert answer.reply.plain_text().strip()
    assert not failures.records, failures.records[0].getMessage()
    for number in answer.cited:
        assert (answer.query.repo, number) in BY_KEY
