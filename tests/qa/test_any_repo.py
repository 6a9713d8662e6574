"""Questions by class, in several phrasings each, over three repos shaped unlike verl
(tests/qa/other_repos.py), on SQLite and PostgreSQL. Expected PRs are read off the fixture by hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer, window_text
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import BY_KEY, FACTORY, NOW, SHANGHAI, TRL, TUNE, clock, seed
from tests.scratch_db import seeded_database


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def other_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("other")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_other") as database:
        yield database


@pytest.fixture(scope="module")
def bot(other_db: Database) -> ChatBot:
    return ChatBot(
        other_db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None
    )


def ask(bot: ChatBot, question: str) -> Answer:
    return bot.handle(Message(question))


def day(month: int, date: int, hour: int = 0, minute: int = 0, year: int = 2026) -> datetime:
    return datetime(year, month, date, hour, minute, tzinfo=SHANGHAI)


# A topic that is no module tag: the words of titles, descriptions and paths are searched --------------

TOPICS = [
    ("trl 上周有哪些 PEFT 相关的改动？", TRL, {3450}),
    ("What PEFT-related changes did trl merge in the last two weeks?", TRL, {3450, 3461}),
    ("trl 本周 PEFT 的 PR", TRL, {3461}),
    ("What vLLM-related changes did trl merge last week?", TRL, {3458}),
    ("trl 第23周 GRPO 相关的 PR", TRL, {3422, 3425}),
    ("trl W24 里 GRPO 的改动", TRL, {3440, 3444}),
    ("which GRPO PRs landed in trl in June?", TRL, {3422, 3425, 3440, 3444, 3461}),
    ("torchtune 六月 Qwen3 相关的改动", TUNE, {2805, 2824}),
    ("llamafactory 六月 Qwen3 的 PR", FACTORY, {7004, 7016}),
    ("llamafactory 上周 reward 相关", FACTORY, {7013}),
    ("show me trl PRs about tools from June", TRL, {3440}),
]

# A Chinese word for an English concept (and back), through the glossary --------------------------------

GLOSSARY = [
    ("trl 第 24 周显存相关的改动", TRL, {3433}),
    ("trl memory-related PRs in W24", TRL, {3433}),
    ("llamafactory 六月的显存问题", FACTORY, {7001, 7025}),
    ("OOM fixes in llamafactory this month", FACTORY, {7001, 7025}),
    ("trl 六月依赖有什么变化", TRL, {3436}),
    ("torchtune 六月的依赖变更", TUNE, {3433}),
    ("llamafactory 六月依赖更新", FACTORY, {7008}),
    ("trl 六月文档相关的改动", TRL, {3430}),
    ("torchtune 六月的文档", TUNE, {2810}),
    ("trl 六月测试相关的改动", TRL, {3422, 3452}),
    ("llamafactory 六月的测试", FACTORY, {7019}),
    ("trl 上周昇腾相关的改动", TRL, {3447}),
    ("llamafactory 六月 NPU 支持", FACTORY, {7010}),
    ("trl 六月有哪些回滚", TRL, {3425, 3444}),  # a revert is answered with the PR it reverted
    ("torchtune 本周的回退", TUNE, {2805, 2824}),
    ("which reverts did llamafactory merge last week?", FACTORY, {7004, 7016}),
]

# Files and directories: a path is a path, and its first segment may name the repo ---------------------

PATHS = [
    ("上周谁改了 trl/trainer/sft_trainer.py", TRL, {3447, 3450}),
    ("which PRs touched trl/trainer/grpo_trainer.py in June", TRL, {3422, 3425, 3440, 3444, 3461}),
    ("torchtune/models/qwen3 下的改动", TUNE, {2805, 2824}),  # the past 30 days: no window named
    ("六月 llamafactory 里 src/llamafactory/train 目录的改动", FACTORY, {7001, 7013}),
    ("who changed docs/source in trl this month?", TRL, {3430}),
]


@pytest.mark.parametrize(("question", "repo", "cited"), TOPICS + GLOSSARY + PATHS)
def test_the_prs_about_what_the_question_names_are_cited(
    bot: ChatBot, question: str, repo: str, cited: set[int]
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == repo
    assert set(answer.cited) == cited


def test_the_answer_says_what_it_searched_for_as_the_asker_wrote_it(bot: ChatBot) -> None:
    answer = ask(bot, "trl 上周有哪些 PEFT 相关的改动？")
    window = window_text(answer.window, NOW, SHANGHAI, "zh")
    assert say("qa.understood", "zh", words="'PEFT'", repo=TRL, window=window) in answer.reply.plain_text()


def test_a_word_nothing_mentions_gives_an_empty_answer_not_the_whole_week(bot: ChatBot) -> None:
    answer = ask(bot, "trl 上周 mixtral 相关的改动")
    assert answer.query.terms == ("mixtral",)
    assert answer.cited == ()


def test_a_path_answer_names_who_changed_it(bot: ChatBot) -> None:
    text = ask(bot, "上周谁改了 trl/trainer/sft_trainer.py").reply.plain_text()
    assert "@ji-huazhong" in text and "@kashif" in text


# PR numbers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "repo", "number"),
    [
        ("#3422 讲了什么？", TRL, 3422),
        ("PR 7013 有什么风险", FACTORY, 7013),
        ("What does #2815 do?", TUNE, 2815),
        ("2801 这个 PR 值得看吗", TUNE, 2801),
        ("https://github.com/huggingface/trl/pull/3450", TRL, 3450),
        ("trl 3433 这个 PR 值得看吗", TRL, 3433),
        ("torchtune pr#3433", TUNE, 3433),
        ("展开 #7016", FACTORY, 7016),
    ],
)
def test_a_pr_number_resolves_to_the_repo_that_has_it(
    bot: ChatBot, question: str, repo: str, number: int
) -> None:
    answer = ask(bot, question)
    assert (answer.query.intent, answer.query.repo, answer.cited) == ("pr", repo, (number,))
    assert BY_KEY[(repo, number)].title in answer.reply.plain_text()


@pytest.mark.parametrize("question", ["#3433 讲了什么", "what does PR 3433 change?", "3433 这个 PR 怎么样"])
def test_a_number_two_repos_have_is_asked_back_with_both(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.cited == ()
    assert answer.query.pr_candidates == (TRL, TUNE)
    assert TRL in answer.reply.plain_text() and TUNE in answer.reply.plain_text()


# Count limits, breaking changes, comparisons ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("trl 六月最重要的 3 个 PR", 3),
        ("top 2 PRs in torchtune this month", 2),
        ("llamafactory 六月最重要的两个改动", 2),
        ("the 4 most important trl changes in June", 4),
        ("给我 trl 六月前三的 PR", 3),
    ],
)
def test_a_count_in_the_question_limits_the_list(bot: ChatBot, question: str, limit: int) -> None:
    answer = ask(bot, question)
    assert answer.query.limit == limit
    assert len(answer.cited) == limit


@pytest.mark.parametrize(
    "question",
    [
        "trl 上周有没有 breaking change？",
        "trl 六月的破坏性变更",
        "any breaking changes in trl in June?",
        "trl 六月有哪些不兼容的改动",
    ],
)
def test_breaking_changes_are_a_filter(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.breaking
    assert set(answer.cited) == {3455}


@pytest.mark.parametrize(
    "question",
    [
        "trl 上周和上上周比怎么样",
        "trl 上周跟上上周相比",
        "how does trl's last week compare with the week before?",
        "trl 上周比上上周多了多少",
        "trl 2026-W25 和 W24 比怎么样",
        "trl 第25周跟第24周相比有什么变化",
        "trl W25 与 W24 对比一下",
        "compare trl W25 with W24",
    ],
)
def test_a_comparison_gives_both_windows_figures(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "compare"
    text = answer.reply.plain_text()
    language = answer.query.language
    delta = say("report.delta_up", language, n=1)
    assert say("qa.compare.count", language, now=5, before=4, delta=delta) in text


# Windows -------------------------------------------------------------------------------------------------

WINDOWS = [
    ("trl 六月有哪些改动", day(6, 1), day(7, 1)),
    ("trl 6月份的改动", day(6, 1), day(7, 1)),
    ("trl 五月的改动", day(5, 1), day(6, 1)),
    ("what did trl merge in May?", day(5, 1), day(6, 1)),
    ("trl 上周三合并了什么", day(6, 17), day(6, 18)),
    ("what did trl merge last Friday?", day(6, 19), day(6, 20)),
    ("trl 周一的改动", day(6, 22), day(6, 23)),
    ("trl 最近三天", day(6, 21), day(6, 24, 10)),
    ("trl changes in the past 3 days", day(6, 21), day(6, 24, 10)),
    ("trl between 2026-06-08 and 2026-06-14", day(6, 8), day(6, 15)),
    ("trl from June 8 to June 14", day(6, 8), day(6, 15)),
    ("trl 6月8日到6月14日", day(6, 8), day(6, 15)),
    ("trl 6 月 8 日到 14 日的改动", day(6, 8), day(6, 15)),
    ("trl since June 16", day(6, 16), day(6, 24, 10)),
    ("trl 自 6 月 16 日以来的改动", day(6, 16), day(6, 24, 10)),
    ("trl W25", day(6, 15), day(6, 22)),
    ("trl 第 25 周", day(6, 15), day(6, 22)),
    ("trl 2026-W24 的改动", day(6, 8), day(6, 15)),
    ("trl 今年的改动", day(1, 1), day(1, 1, year=2027)),
    ("what did trl merge this year?", day(1, 1), day(1, 1, year=2027)),
    ("trl 去年 12 月", day(12, 1, year=2025), day(1, 1)),
    ("trl 前天合并了什么", day(6, 22), day(6, 23)),
]


@pytest.mark.parametrize(("question", "start", "end"), WINDOWS)
def test_every_window_form_reads_as_its_dates(
    bot: ChatBot, question: str, start: datetime, end: datetime
) -> None:
    answer = ask(bot, question)
    assert answer.query.repo == TRL
    assert answer.query.window is not None
    assert (answer.query.window.start, answer.query.window.end) == (start, end)
    for number in answer.cited:
        assert start <= BY_KEY[(TRL, number)].merged < min(end, NOW)


@pytest.mark.parametrize(
    "question", ["本周 trl 有哪些改动？", "trl 本周 GRPO", "what did trl merge this month?", "trl 今年的改动"]
)
def test_nothing_merged_after_now_is_cited(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.cited
    assert not {3465, 3466} & set(answer.cited)


# Off-topic and greetings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "What's the weather like in Shanghai today?",
        "你好",
        "今天天气怎么样",
        "hello there",
        "讲个笑话吧",
        "thanks!",
    ],
)
def test_off_topic_questions_get_what_the_bot_does_not_which_repo(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.intent == "unknown"
    text = answer.reply.plain_text()
    assert say("qa.unknown", answer.query.language) in text
    assert TRL not in text


# The asker's language, from the first word to the last -------------------------------------------------

ENGLISH = [
    "What are the risks in trl last week?",
    "what changed in trl in June?",
    "which trl PRs from June are worth a close read?",
    "trl stats for June",
    "how does trl's last week compare with the week before?",
    "What PEFT-related changes did trl merge in the last two weeks?",
    "what changed in llamafactory in June?",
    "What does #3422 do?",
]


@pytest.mark.parametrize("question", ENGLISH)
def test_an_english_question_gets_no_chinese_but_what_the_prs_themselves_say(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question)
    assert answer.query.language == "en"
    quoted = "\n".join(pr.text for pr in BY_KEY.values())
    for run in re.findall(r"[\u3400-\u9fff]+", answer.reply.plain_text()):
        assert run.lower() in quoted, run
