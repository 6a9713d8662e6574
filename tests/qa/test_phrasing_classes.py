"""Classes of phrasing that new users type and the parser used to misread: a narrow term that named a
whole glossary concept (FP8 found every NaN fix), changed defaults, questions about "learning from" a
design, "all" of something, and questions with no repo that are still about code. Parsed with several
phrasings in both languages; answered over the repos of tests/qa/other_repos.py (clock: Wednesday
2026-06-24) on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from chatbot.bot import ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.glossary import default_glossary, parse_glossary
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.qa.query import LIST_MAX, Query
from tests.qa.other_repos import FACTORY, NOW, PRS, SHANGHAI, TRL, TUNE
from tests.qa.test_any_repo import bot, other_db  # noqa: F401  (the shared fixtures)

AUTHORS = frozenset(p.author.lower() for p in PRS)  # as the bot knows them from the index
ONE_REPO = ParseContext(NOW, SHANGHAI, (KnownRepo(TRL),), authors=AUTHORS)
THREE_REPOS = ParseContext(
    NOW, SHANGHAI, (KnownRepo(TRL), KnownRepo(FACTORY), KnownRepo(TUNE)), authors=AUTHORS
)


def parse(text: str, context: ParseContext = ONE_REPO) -> Query:
    return parse_query(text, context)


def ask(bot: ChatBot, question: str) -> Answer:  # noqa: F811
    return bot.handle(Message(question))


# Narrow terms: an instance a concept finds is not the concept ---------------------------------------


@pytest.mark.parametrize(
    ("question", "searched"),
    [
        ("有没有和 FP8 相关的 PR", "fp8"),
        ("any fp8 work in trl lately?", "fp8"),
        ("最近 bf16 的改动", "bf16"),
        ("which PRs fixed NaN losses?", "nan"),
        ("AWQ 量化支持了吗", None),  # 量化 names the concept; awq is one of its instances
    ],
)
def test_a_narrow_term_is_searched_alone_not_as_its_whole_concept(
    question: str, searched: str | None
) -> None:
    query = parse(question)
    if searched is None:
        assert "quantization" in query.topics
        return
    assert "precision" not in query.topics and "quantization" not in query.topics
    assert searched in query.terms


def test_a_concept_still_finds_its_narrower_terms() -> None:
    glossary = default_glossary()
    assert [name for name, _ in glossary.find("精度相关的问题")] == ["precision"]
    assert {"fp8", "nan", "bf16"} <= set(glossary.terms("precision"))
    assert glossary.find("fp8 rollout") == []
    custom = parse_glossary('[concepts.color]\nterms = ["颜色", "color"]\nnarrower = ["red"]\n')
    assert custom.terms("color") == ("颜色", "color", "red")
    assert custom.find("the red one") == []


def test_a_term_two_concepts_share_names_the_one_listed_first_in_every_process() -> None:
    custom = parse_glossary(
        '[concepts.zeta]\nterms = ["版本升级"]\n[concepts.alpha]\nterms = ["版本升级", "升级"]\n'
    )
    assert [name for name, _ in custom.find("版本升级相关")] == ["zeta"]
    # the shipped glossary, whatever the hash seed (a set's order made it differ from run to run)
    script = (
        "from chatbot.qa.glossary import default_glossary; "
        "print([n for n, _ in default_glossary().find('vllm 版本升级相关的 pr')])"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(4)
    }
    assert len(seen) == 1


# Changed defaults ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "llamafactory 最近改了哪些默认值？",
        "llamafactory 这周有没有改默认配置的 PR",
        "did llamafactory change any defaults this week?",
        "which llamafactory PRs changed a default value recently?",
    ],
)
def test_changed_defaults_find_the_pr_that_changed_one(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert "defaults" in answer.query.topics
    assert 7025 in answer.cited  # gpu_memory_utilization 默认值从 0.9 调到 0.7
    assert 7022 not in answer.cited


# "What can I learn from": the reading list ----------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "有什么值得我学习的设计吗，最近两周",
        "trl 最近有哪些值得借鉴的实现？",
        "上周 trl 有哪些值得大家学习的地方",
        "anything in trl worth learning from last week?",
        "which recent trl PRs are well-designed enough to study?",
    ],
)
def test_asking_what_to_learn_from_is_a_reading_list_question(question: str) -> None:
    query = parse(question)
    assert query.intent == "must_read"
    assert not {"设计", "实现", "地方", "学习", "learning"} & set(query.terms)


# "All" of something ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "列出 trl 六月所有的 PR",
        "trl 六月合并的全部 PR",
        "list all the PRs trl merged in June",
        "show every PR of trl in June",
    ],
)
def test_asking_for_all_lists_more_than_the_usual_eight(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.limit == LIST_MAX
    june = {p.number for p in PRS if p.repo == TRL and p.merged.month == 6 and p.merged <= NOW}
    assert len(june) > 8
    assert set(answer.cited) == june


@pytest.mark.parametrize(
    "question", ["所有仓库本周的风险", "all time most important trl PRs", "show all repos' risks this week"]
)
def test_all_of_the_repos_or_of_time_is_no_count(question: str) -> None:
    assert parse(question, THREE_REPOS).limit is None


def test_all_the_risks_of_a_past_week_are_every_prs_own_not_the_reports_short_list(
    bot: ChatBot,  # noqa: F811
) -> None:
    short = ask(bot, "trl 上周有哪些风险？").reply.plain_text()
    every = ask(bot, "trl 上周所有的风险").reply.plain_text()
    assert say("qa.risks.from_report", "zh", week="2026-W25", version=1) in short
    assert "2026-W25" not in every


# No repo named, but about code -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "这周有人动 checkpoint 相关的东西吗",
        "最近有人改 tokenizer 吗",
        "上周有没有人动过显存相关的代码",
        "anyone touch the checkpointing code this week?",
        "did someone fix the tokenizer lately?",
    ],
)
def test_a_question_about_code_that_names_no_repo_is_still_about_prs(question: str) -> None:
    query = parse(question)
    assert query.intent not in ("unknown", "help")
    assert query.repo == TRL  # the one indexed repo
    assert not {"人动", "有人", "动过", "someone", "anyone"} & set(query.terms)
    # with several repos, the bot asks which one instead of saying what it does
    assert parse(question, THREE_REPOS).intent not in ("unknown", "help")


@pytest.mark.parametrize(
    "question", ["What's the weather like in Shanghai today?", "今天有什么活动", "上海明天下雨吗", "hello"]
)
def test_off_topic_questions_still_get_what_the_bot_does(question: str) -> None:
    assert parse(question).intent == "unknown"


# Comparisons --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["trl 上周和上上周比怎么样", "compare trl last week with the week before", "trl 本月和上月相比"],
)
def test_a_comparison_names_only_the_modules_whose_count_moved(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.intent == "compare"
    language = answer.query.language
    label = say("qa.compare.modules", language) + ("：" if language == "zh" else ": ")
    lines = [line for line in answer.reply.plain_text().splitlines() if label in line]
    moves = [  # "ci 9→25 (+16)"
        move.split()[1]
        for line in lines
        for move in line.split(label)[1].split("、" if language == "zh" else ", ")
    ]
    assert moves and all(before != after for before, after in (move.split("→") for move in moves))


# Questions over the repos ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "哪个仓库上周最活跃",
        "哪个项目上周合并的 PR 最多",
        "which repo merged the most PRs last week?",
        "PRs per repo last week",
    ],
)
def test_which_repo_is_most_active_ranks_every_indexed_repo(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    language = answer.query.language
    counts = (
        say("qa.across.count", language, repo=TRL, n=5),
        say("qa.across.count", language, repo=FACTORY, n=3),
        say("qa.across.count", language, repo=TUNE, n=2),
    )
    ranking = say("qa.across.ranking", language, repos=("、" if language == "zh" else ", ").join(counts))
    assert ranking in answer.reply.plain_text()


@pytest.mark.parametrize(
    "question", ["各个仓库上周的风险", "每个仓库上周有哪些风险", "risks in each repo last week"]
)
def test_a_question_over_each_repo_answers_for_every_repo(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.across and answer.query.intent == "risks"
    text = answer.reply.plain_text()
    assert all(repo in text for repo in (TRL, FACTORY, TUNE))
    assert 3455 in answer.cited  # trl's breaking change


# Upgrading -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "trl 有哪些改动会影响我们升级",
        "trl 升级前要注意什么",
        "what in trl could break us when we upgrade?",
        "anything in trl that affects our upgrade?",
    ],
)
def test_what_could_bite_on_upgrading_is_a_risk_question_not_a_search_for_upgrade(question: str) -> None:
    query = parse(question)
    assert query.intent == "risks"
    assert "upgrade" not in query.topics and not {"break", "upgrade", "升级"} & set(query.terms)


@pytest.mark.parametrize(
    "question", ["what in trl could break us?", "did trl merge anything that breaks our configs?"]
)
def test_breaking_us_is_the_breaking_filter(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.breaking
    assert 3455 in answer.cited


# Weekends and holidays (now: Wednesday 2026-06-24) -----------------------------------------------------


def _days(query: Query) -> tuple[str, str]:
    assert query.window is not None
    return query.window.start.strftime("%Y-%m-%d"), query.window.end.strftime("%Y-%m-%d")


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("trl 上周末合并了什么", ("2026-06-20", "2026-06-22")),
        ("周末有人合并 trl 的 PR 吗", ("2026-06-20", "2026-06-22")),
        ("what landed in trl over the weekend?", ("2026-06-20", "2026-06-22")),
        ("trl changes last weekend", ("2026-06-20", "2026-06-22")),
        ("上上周末 trl 的改动", ("2026-06-13", "2026-06-15")),
        ("这周末 trl 有合并吗", ("2026-06-27", "2026-06-29")),
        ("春节前后 trl 有什么大改动", ("2026-02-10", "2026-02-25")),
        ("trl changes around Chinese New Year", ("2026-02-10", "2026-02-25")),
        ("国庆期间 trl 合并了哪些 PR", ("2025-10-01", "2025-10-08")),  # this year's has not begun
    ],
)
def test_weekends_and_holidays_are_windows(question: str, days: tuple[str, str]) -> None:
    query = parse(question)
    assert _days(query) == days
    assert not {"前后", "期间", "weekend", "周末", "around", "chinese", "year"} & set(query.terms)


# A superlative in the singular asks for one ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("what's the biggest change in trl this month", 1),
        ("the riskiest PR in trl last week?", 1),
        ("trl 本月最大的改动是什么", 1),
        ("trl 本月最重要的 PR 是哪个", 1),
        ("trl 上周最值得关注的风险是什么", 1),
        ("what are the biggest changes in trl this month", None),
        ("trl 本月最重要的 PR 有哪些", None),
        ("trl 最重要的 3 个 PR", 3),
    ],
)
def test_a_superlative_in_the_singular_asks_for_one(question: str, limit: int | None) -> None:
    assert parse(question).limit == limit


def test_the_biggest_change_is_the_one_most_important_pr(bot: ChatBot) -> None:  # noqa: F811
    answer = ask(bot, "what's the biggest change in trl this month?")
    assert answer.cited == (3433,)  # the month's most important PR, alone


@pytest.mark.parametrize("question", ["anything interesting in trl lately?", "trl 最近有什么有意思的改动"])
def test_asking_for_anything_interesting_is_the_windows_highlights(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert not answer.query.terms and answer.cited


# A window and little else asks what the window holds, with one repo indexed ----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "去年12月有哪些重要PR",
        "12 月有哪些重要pr",
        "第10周有啥",
        "W10 有啥？",
        "最近三天有什么新pr",
        "最近两天有啥",
        "上周有哪些新的PR",
        "anything new last week?",
    ],
)
def test_a_window_and_little_else_asks_for_its_changes(text: str) -> None:
    query = parse(text)
    assert query.intent == "highlights" and query.repo == TRL, query
    assert query.window is not None and not query.terms, query


@pytest.mark.parametrize("text", ["上海今天天气怎么样", "今天天气有啥变化", "今天有什么好吃的"])
def test_a_window_in_an_off_topic_question_still_gets_what_the_bot_does(text: str) -> None:
    assert parse(text).intent == "unknown"


@pytest.mark.parametrize(
    ("text", "limit"),
    [("top 3 authors in may", 3), ("top authors last month", None), ("top 5 people this month", 5)],
)
def test_top_authors_rank_people_not_prs(text: str, limit: int | None) -> None:
    query = parse(text)
    assert query.maintainers and query.limit == limit and not query.terms, query


@pytest.mark.parametrize("text", ["这周有新人贡献吗", "这周有没有新人提交 PR", "any newcomers this week?"])
def test_newcomer_questions_search_no_words(text: str) -> None:
    query = parse(text)
    assert query.newcomers and not query.terms, query


@pytest.mark.parametrize("text", ["compare may vs april activity", "5月和4月的活跃度对比"])
def test_activity_in_a_comparison_is_no_search_word(text: str) -> None:
    query = parse(text)
    assert query.intent == "compare" and not query.terms, query
