"""Configuration questions answered from the config facts the heuristic analyzer recorded of real
patches (`acme/dials`, tests/qa/settings_repo.py), on SQLite and PostgreSQL: a default written anew is a
changed default, an interpolation whose source moved is not, and every line names its keys as code in
the asker's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import BulletList, Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import language_of
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import SHANGHAI
from tests.qa.settings_repo import DEFAULTS_CHANGED, SOURCES_MOVED, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def dials_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("dials")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_dials") as database:
        yield database


@pytest.fixture(scope="module")
def bot(dials_db: Database) -> ChatBot:
    return ChatBot(
        dials_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question, platform="test", channel="C1"))


def lines(answer: Answer) -> dict[int, tuple[str, tuple[str, ...]]]:
    """Each cited PR's line in the answer: its text after the title, and its code spans."""
    found: dict[int, tuple[str, tuple[str, ...]]] = {}
    for block in answer.reply.blocks:
        if not isinstance(block, BulletList):
            continue
        for item in block.items:
            number = re.match(r"#(\d+)", item[0].text)
            if number:
                text = "".join(span.text for span in item)
                code = tuple(span.text for span in item if span.style == "code")
                found[int(number.group(1))] = (text.split(" — ", 2)[-1], code)
    return found


DEFAULT_QUESTIONS = [
    "dials 上周改了哪些默认值？",
    "上周 dials 哪些 PR 改了默认参数",
    "what defaults changed in dials last week?",
    "did dials change any default values last week?",
    "上周 dials 哪些配置的默认值变了",
    "which config defaults did dials change last week",
]


@pytest.mark.parametrize("question", DEFAULT_QUESTIONS)
def test_a_defaults_answer_lists_the_defaults_written_anew_not_the_keys_that_now_follow_another(
    bot: ChatBot, question: str
) -> None:
    """YAML, dataclass and argparse defaults, an `oc.env` fallback and values made required are changed
    defaults; `oc.select`, `${..x}`, `${VAR:-x}` and `II(...)` pointed elsewhere are not."""
    answer = ask(bot, question)
    assert set(answer.cited) == set(DEFAULTS_CHANGED), answer.reply.plain_text()
    assert (
        say("qa.understood.config.default", language_of(question)).lower()
        in answer.reply.plain_text().lower()
    )


@pytest.mark.parametrize("question", DEFAULT_QUESTIONS)
def test_each_defaults_line_names_its_key_as_code_in_the_askers_language(bot: ChatBot, question: str) -> None:
    language = language_of(question)
    shown = lines(ask(bot, question))
    text, code = shown[706]
    assert code == ("TrainConfig.batch_size", "32", "64")
    assert text.startswith(say("qa.config.default_changed", language, items=""))
    text, code = shown[711]
    assert code == ("data.train_path", "/data/train")
    assert text.startswith(say("qa.config.required", language, items=""))
    if language == "en":
        assert not any(re.search(r"[\u4e00-\u9fff]", text) for text, _ in shown.values())


CONFIG_QUESTIONS = [
    "dials 3 月改了哪些配置项，列出前 12 个",
    "dials 本月最重要的 12 个配置改动",
    "top 12 config changes in dials this month",
]


@pytest.mark.parametrize("question", CONFIG_QUESTIONS)
def test_a_config_answer_says_each_moved_source_is_followed_not_a_new_default(
    bot: ChatBot, question: str
) -> None:
    """Every recorded change is listed; a key pointed at another is said to follow it (the old source,
    or the literal it replaced, beside it), in the asker's language."""
    language = language_of(question)
    answer = ask(bot, question)
    assert set(answer.cited) == set(DEFAULTS_CHANGED) | set(SOURCES_MOVED), answer.reply.plain_text()
    shown = lines(answer)
    for number in SOURCES_MOVED:
        assert shown[number][0].startswith(say("qa.config.follows", language, items="")), shown[number]
    assert shown[702][1] == ("rollout.temperature", "sampling.temperature", "actor.temperature")
    assert shown[705][1] == ("server.host", "$HOST", "$DIALS_HOST")
    assert shown[709][1] == ("EvalConfig.eval_lr", "optim.lr", "1e-4")  # the literal it replaced
    assert shown[710][1] == ("optim.warmup", "schedule.warmup", "100")


@pytest.mark.parametrize(
    "question", ["any new CLI flags in dials last week?", "dials 上周新增了哪些命令行参数"]
)
def test_a_cli_answer_lists_the_new_options(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.cited == (708,)
    assert lines(answer)[708][1] == ("--dry-run",)
