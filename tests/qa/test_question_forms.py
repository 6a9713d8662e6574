"""Forms of question the parser or the answer used to get wrong, each with several phrasings in both
languages on repos of other shapes (tests/qa/other_repos.py, clock: Wednesday 2026-06-24; a one-PR repo
for what needs a richer PR), on SQLite and PostgreSQL:
- words about the answer's shape ("in 3 bullets", "用三句话总结", "briefly", "tl;dr") are never searched,
  and a number of bullets caps the list;
- asking whether we must change our code is asking for the breaking changes;
- a list line shows the key point that speaks to the question; a PR card lists its files when asked;
- "new models" is a concept (model families are its narrower terms); "does trl support X" names trl;
- "what's new" in a quiet week answers from the most recent span that has PRs, and says so."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.qa.query import Window
from chatbot.store.db import open_database
from tests.qa.other_repos import BY_KEY, FACTORY, NOW, SHANGHAI, TRL, TUNE, Written, at, clock, store_written
from tests.qa.test_any_repo import bot, other_db  # noqa: F401  (the shared fixtures)

CONTEXT = ParseContext(NOW, SHANGHAI, (KnownRepo(TRL), KnownRepo(FACTORY), KnownRepo(TUNE)))


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("summarize trl's last two weeks in 3 bullets", 3),
        ("what happened in torchtune this month, in two sentences", 2),
        ("用三句话总结一下 trl 上周", 3),
        ("llamafactory 上周的改动，列 5 点", 5),
        ("briefly, what happened in trl last week?", None),
        ("trl 上周简单说说", None),
        ("tl;dr of torchtune last week", None),
        ("llamafactory 这周一句话概括", None),
    ],
)
def test_the_answers_shape_is_no_search_word(question: str, limit: int | None) -> None:
    query = parse_query(question, CONTEXT)
    assert query.intent == "highlights", query
    assert not query.terms, query
    assert query.limit == limit


@pytest.mark.parametrize(
    "question",
    [
        "Summarize last week for a manager, no jargon.",
        "give me a summary of last week",
        "上周总结一下",
        "给老板总结一下上周",
        "recap of the past two weeks?",
        "用大白话讲讲上周干了什么",
        "what should I tell my boss about this week?",
        "向领导汇报一下本月的进展",
        "this month in plain english, please",
    ],
)
def test_a_summary_for_any_reader_is_the_highlights_of_the_one_repo(question: str) -> None:
    one_repo = ParseContext(NOW, SHANGHAI, (KnownRepo(TRL),))
    query = parse_query(question, one_repo)
    assert (query.intent, query.repo) == ("highlights", TRL), query
    assert not query.terms, query  # the reader ("manager", "老板") is no search word
    several = parse_query(question, CONTEXT)
    assert several.intent == "highlights" and len(several.repo_candidates) == 3, several


@pytest.mark.parametrize("question", ["What's the weather like in Shanghai today?", "今天天气怎么样", "你好"])
def test_off_topic_questions_still_get_what_the_bot_does(question: str) -> None:
    assert parse_query(question, ParseContext(NOW, SHANGHAI, (KnownRepo(TRL),))).intent == "unknown"


@pytest.mark.parametrize(
    "question", ["summarize trl's last two weeks in 3 bullets", "用三句话总结一下 trl 最近两周"]
)
def test_a_number_of_bullets_caps_the_list(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = bot.handle(Message(question))
    assert 1 <= len(answer.cited) <= 3, answer.reply.plain_text()


def test_a_topic_keeps_its_words_beside_a_shape(bot: ChatBot) -> None:  # noqa: F811
    answer = bot.handle(Message("briefly: what changed about PEFT in trl this month?"))
    assert "peft" in {t.lower() for t in (*answer.query.terms, *answer.query.topics)}
    assert answer.cited and "#3450" in answer.reply.plain_text()


# What makes users change their code is the breaking filter, and those words are not searched -------


@pytest.mark.parametrize(
    "question",
    [
        "trl 最近合并的 PR 里，有需要我们改代码的吗",
        "torchtune 这周的改动需要用户跟着修改调用吗",
        "anything in trl this month that means we have to change our code?",
        "will torchtune's changes this month force us to update our scripts?",
        "do we need to migrate our code after llamafactory's last two weeks?",
    ],
)
def test_what_makes_us_change_our_code_is_the_breaking_filter(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.breaking, query
    assert not {"change", "code", "scripts", "update", "means", "改代码", "代码"} & set(query.terms), query


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("trl 有没有影响 checkpoint 兼容性的改动？", "checkpoint"),
        ("torchtune 最近哪些改动破坏了 tokenizer 的向后兼容", "tokenizer"),
        ("llamafactory 上周有打破配置兼容性的 PR 吗", "配置"),
        ("did anything in trl affect checkpoint compatibility this month?", "checkpoint"),
        ("which torchtune PRs break tokenizer backward compatibility?", "tokenizer"),
        ("any llamafactory change impacting dataset compat lately?", "dataset"),
    ],
)
def test_breaking_what_sits_between_the_verb_and_compatibility_keeps_it_the_subject(
    question: str, subject: str
) -> None:
    query = parse_query(question, CONTEXT)
    assert query.breaking, query
    searched = {*query.terms, *query.topics, *query.modules}
    assert subject in searched or subject in query.understood, query
    assert not {"兼容", "兼容性", "compatibility", "compat", "影响", "affect", "break"} & searched, query


def test_changing_our_code_finds_the_removed_argument(bot: ChatBot) -> None:  # noqa: F811
    answer = bot.handle(Message("trl 最近合并的 PR 里，有需要我们改代码的吗"))
    assert "#3455" in answer.reply.plain_text()  # "Remove deprecated max_length argument from DPOConfig"


# A list line shows the key point that speaks to the question ------------------------------------------

WIDGETS = "acme/widgets"
MIXED = Written(
    WIDGETS,
    41,
    at(6, 22),
    "dana",
    "Speed up the exporter",
    "- Stream rows to the exporter instead of building the whole table in memory.\n"
    "- Bump pyarrow to 16.1 in requirements.txt, needed for the streaming writer.\n"
    "- Add a --chunk-size flag to the export command.",
    ("widgets/export.py", "requirements.txt"),
)


# Three more PRs of the same week, open 12 days, 3 hours and 2.5 days before they merged.
WAITED = (
    Written(
        WIDGETS,
        42,
        at(6, 23),
        "Eli-M",
        "Fix the CSV quoting",
        "Quote fields with commas.",
        ("widgets/csv.py",),
        open_days=12,
    ),
    Written(WIDGETS, 43, at(6, 23), "dana", "Typo in the README", "", ("README.md",), open_days=0.125),
    Written(
        WIDGETS, 44, at(6, 22), "fay", "Retry uploads", "Retry on 503.", ("widgets/upload.py",), open_days=2.5
    ),
)


@pytest.fixture(scope="module")
def widgets_bot(tmp_path_factory: pytest.TempPathFactory) -> ChatBot:
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('widgets') / 'prhub.db'}")
    store_written(db, [MIXED, *WAITED], NOW)
    return ChatBot(db, BotConfig(SHANGHAI), clock(), HeuristicAnalyzer().analyze, channel_repo=lambda _: None)


@pytest.mark.parametrize(
    ("question", "point"),
    [
        ("widgets 最近依赖有变化吗", "pyarrow"),
        ("any dependency bumps in widgets lately?", "pyarrow"),
        ("widgets 最近有新的命令行参数吗", "chunk-size"),
        ("what new CLI flags did widgets add?", "chunk-size"),
    ],
)
def test_a_list_line_shows_the_key_point_that_speaks_to_the_question(
    widgets_bot: ChatBot, question: str, point: str
) -> None:
    line = next(
        line
        for line in widgets_bot.handle(Message(question)).reply.plain_text().splitlines()
        if "#41" in line
    )
    assert point in line, line


@pytest.mark.parametrize(
    "question",
    [
        "widgets #41 改了哪些文件",
        "41 这个 PR 动了哪些文件？",
        "which files did #41 change?",
        "widgets PR 41: files changed?",
    ],
)
def test_asking_which_files_a_pr_changed_lists_them(widgets_bot: ChatBot, question: str) -> None:
    text = widgets_bot.handle(Message(question)).reply.plain_text()
    heading = say("pr.section.files", "zh" if "改" in question or "动" in question else "en")
    assert heading in text, text
    files = text.split(heading, 1)[1]
    assert "widgets/export.py" in files and "requirements.txt" in files


@pytest.mark.parametrize("question", ["widgets #41 讲了什么", "what does #41 do?"])
def test_a_pr_card_lists_files_only_when_asked(widgets_bot: ChatBot, question: str) -> None:
    text = widgets_bot.handle(Message(question)).reply.plain_text()
    assert say("pr.section.files", "zh") not in text and say("pr.section.files", "en") not in text


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("torchtune 最近有没有新模型支持", {2805, 2824}),
        ("any new models in torchtune lately?", {2805, 2824}),
        ("llamafactory 最近支持了哪些新模型", {7004, 7016}),
        (
            "does trl support any new models lately?",
            set(),
        ),  # "Fix GRPO loss scaling with PEFT models" is none
    ],
)
def test_new_models_are_prs_adding_a_model_family(bot: ChatBot, question: str, cited: set[int]) -> None:  # noqa: F811
    answer = bot.handle(Message(question))
    assert "new_models" in answer.query.topics, answer.query
    assert set(answer.cited) == cited, answer.reply.plain_text()


@pytest.mark.parametrize(
    ("question", "repo"),
    [
        ("does trl support DPO with PEFT?", TRL),
        ("does torchtune support Qwen3 yet?", TUNE),
        ("vLLM support in trl?", TRL),
    ],
)
def test_support_as_a_verb_after_a_repo_name_keeps_the_repo(question: str, repo: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.repo == repo and "support" not in query.terms, query


@pytest.mark.parametrize(
    "question",
    ["what's new in trl?", "trl 有什么新东西", "trl 有什么值得看的", "anything worth reading in trl?"],
)
def test_a_quiet_week_answers_from_the_most_recent_span_with_prs(bot: ChatBot, question: str) -> None:  # noqa: F811
    """At Monday 06-22 08:00 trl's week has no PR yet (#3461 and #3463 come later that week)."""
    early = ChatBot(
        bot.db,
        BotConfig(SHANGHAI),
        FixedClock(datetime(2026, 6, 22, 8, tzinfo=SHANGHAI)),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda _: None,
    )
    answer = early.handle(Message(question))
    assert answer.cited, answer.reply.plain_text()
    assert answer.window is not None and answer.window.start < datetime(2026, 6, 15, tzinfo=SHANGHAI)
    assert not {3461, 3463} & set(answer.cited)  # merged after that clock


# Which of two subjects saw more -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "single", "subjects"),
    [
        ("trl 六月 GRPO 和 PEFT 哪个改动多", "trl 六月 {} 相关的 PR", ("GRPO", "PEFT")),
        ("which had more PRs in trl in June, GRPO or PEFT?", "trl PRs about {} in June", ("GRPO", "PEFT")),
        ("torchtune 六月 recipes 和 models 哪边更活跃", "torchtune 六月 {} 的改动", ("recipes", "models")),
    ],
)
def test_which_subject_saw_more_counts_each_side_as_its_own_question_would(
    bot: ChatBot,  # noqa: F811
    question: str,
    single: str,
    subjects: tuple[str, str],
) -> None:
    answer = bot.handle(Message(question))
    assert answer.query.versus, answer.query
    text = answer.reply.plain_text()
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    assert len(lines) == 2, text
    counts = {}
    for subject in subjects:
        alone = bot.handle(Message(single.format(subject)))
        assert alone.count, alone.reply.plain_text()
        counts[subject] = alone.count
        line = next(line for line in lines if subject.lower() in line.lower())
        assert f" {alone.count} " in line, (line, alone.count)
    first = max(counts, key=lambda s: counts[s])
    assert subjects[0 if counts[subjects[0]] >= counts[subjects[1]] else 1].lower() in lines[0].lower()
    assert first.lower() in text.splitlines()[2].lower() or "tie" in text.lower() or "一样多" in text


@pytest.mark.parametrize(
    "question",
    [
        "trl 六月 GRPO 和 PEFT 哪边改得多？",
        "trl 六月 GRPO 跟 PEFT 哪个动得多",
        "trl 六月 GRPO 和 PEFT 谁改得更多",
        "trl 六月 GRPO 和 PEFT 哪一边更活跃",
        "which changed more in trl in June, GRPO or PEFT?",
        "GRPO or PEFT: which of the two grew more in trl this month?",
    ],
)
def test_which_side_changed_more_in_other_words_is_a_comparison(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.versus, query
    assert not {t for t in query.terms if t not in ("grpo", "peft")}, query


@pytest.mark.parametrize(
    "question", ["trl 六月 GRPO 的改动多吗", "which trl PRs about GRPO had more reviews?"]
)
def test_one_subject_is_no_comparison(question: str) -> None:
    assert not parse_query(question, CONTEXT).versus


@pytest.mark.parametrize(
    ("question", "since"),
    [
        ("the risks in trl from May", False),
        ("trl PRs from May onwards", True),
        ("trl 从五月开始的改动", True),
        ("since May, what changed in trl?", True),
    ],
)
def test_from_a_month_names_that_month_unless_it_says_onwards(question: str, since: bool) -> None:
    window = parse_query(question, CONTEXT).window
    assert window is not None and window.start == datetime(2026, 5, 1, tzinfo=SHANGHAI)
    assert (window.end == NOW) is since, window


# The largest PRs, by lines changed ---------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "trl 六月改动最大的几个 PR",
        "trl 六月哪些 PR 改动最大",
        "biggest PRs in trl in June",
        "trl 六月的 PR 按改动行数排一下",
        "which trl PRs changed the most lines in June?",
    ],
)
def test_the_largest_prs_are_ranked_by_lines_changed_and_say_their_size(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = bot.handle(Message(question))
    assert answer.query.order == "size" and not answer.query.terms, answer.query
    sizes = [
        BY_KEY[(TRL, n)].pull_request().additions + BY_KEY[(TRL, n)].pull_request().deletions
        for n in answer.cited
    ]
    assert len(sizes) >= 3 and sizes == sorted(sizes, reverse=True), (answer.cited, sizes)
    first = next(line for line in answer.reply.plain_text().splitlines() if line.startswith("• "))
    assert f"+{BY_KEY[(TRL, answer.cited[0])].pull_request().additions}" in first, first


def test_the_largest_pr_alone_is_the_one_with_most_lines(bot: ChatBot) -> None:  # noqa: F811
    answer = bot.handle(Message("trl 六月改动最大的 PR 是哪个"))
    sizes = {
        n: w.pull_request().additions + w.pull_request().deletions
        for (r, n), w in BY_KEY.items()
        if r == TRL and w.merged.month == 6 and w.merged <= NOW
    }
    assert len(answer.cited) == 1 and sizes[answer.cited[0]] == max(sizes.values()), answer.cited


@pytest.mark.parametrize("question", ["trl 六月最大的改动是什么", "what was trl's biggest change in June?"])
def test_the_biggest_change_is_still_the_most_important_one(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.order is None and query.limit == 1, query


# Comparisons: "多了还是少了" compares, and a month cut short at now is compared with the same part -------


@pytest.mark.parametrize(
    "question",
    [
        "trl 最近一个月合并了多少 PR，和之前比是多了还是少了",
        "trl 这个月的 PR 变多了还是变少了",
        "trl 本月 PR 数量跟上个月比是增加还是减少",
    ],
)
def test_more_or_fewer_than_before_is_a_comparison(question: str) -> None:
    assert parse_query(question, CONTEXT).intent == "compare"


def test_a_month_cut_short_at_now_is_compared_with_the_same_part_of_the_month_before() -> None:
    june = Window(datetime(2026, 6, 1, tzinfo=SHANGHAI), NOW)
    before = june.comparable_previous()
    assert before.start == datetime(2026, 5, 1, tzinfo=SHANGHAI)
    assert before.end - before.start == NOW - june.start
    march = Window(datetime(2026, 3, 1, tzinfo=SHANGHAI), datetime(2026, 3, 31, 9, tzinfo=SHANGHAI))
    assert march.comparable_previous().end == datetime(2026, 3, 1, tzinfo=SHANGHAI)  # February is shorter
    whole = Window(datetime(2026, 5, 1, tzinfo=SHANGHAI), datetime(2026, 6, 1, tzinfo=SHANGHAI))
    assert whole.comparable_previous() == Window(datetime(2026, 4, 1, tzinfo=SHANGHAI), whole.start)


# How long PRs were open before merging ---------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "widgets 本周哪些 PR 等了最久才合并",
        "which widgets PRs were open the longest this week?",
        "widgets 这周拖得最久的 PR",
    ],
)
def test_prs_open_longest_are_ranked_by_time_open(widgets_bot: ChatBot, question: str) -> None:
    answer = widgets_bot.handle(Message(question))
    assert answer.query.order == "open" and not answer.query.terms, answer.query
    assert answer.cited[:2] == (42, 44), answer.reply.plain_text()
    first = next(line for line in answer.reply.plain_text().splitlines() if line.startswith("• "))
    assert "12" in first, first


@pytest.mark.parametrize(
    "question", ["widgets 本周 PR 的平均 review 时间", "how long do widgets PRs take to merge this week?"]
)
def test_time_to_merge_is_a_statistic_with_the_median_and_the_longest(
    widgets_bot: ChatBot, question: str
) -> None:
    answer = widgets_bot.handle(Message(question))
    assert answer.query.intent == "stats" and not answer.query.terms, answer.query
    line = next(
        line
        for line in answer.reply.plain_text().splitlines()
        if say("qa.stats.open", answer.query.language) in line
    )
    # open 12 days, 2.5 days, 1 day (#41) and 3 hours: the median (upper) is 2.5 days, the longest #42
    assert "2.5" in line and "12" in line and "#42" in line, line


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("trl 上周有哪些改动可能影响 PEFT 用户", "peft"),
        ("torchtune 的 recipes 后端最近有 bug 修复吗", "recipes"),
        ("trl 最近的改动会不会影响 GRPO 的使用者", "grpo"),
    ],
)
def test_generic_words_around_a_subject_are_not_searched(question: str, subject: str) -> None:
    query = parse_query(question, CONTEXT)
    searched = {w.lower() for w in (*query.terms, *query.modules, *query.topics)}
    assert subject in searched and not {"影响", "用户", "后端", "使用者", "会不会"} & searched, query


@pytest.mark.parametrize("question", ["PRs by eli-m this week", "eli-m 这周的 PR"])
def test_an_authors_list_names_the_login_as_github_spells_it(widgets_bot: ChatBot, question: str) -> None:
    answer = widgets_bot.handle(Message(question))
    assert answer.cited == (42,), answer.reply.plain_text()
    assert "Eli-M" in answer.reply.plain_text().splitlines()[1], answer.reply.plain_text()


@pytest.mark.parametrize(
    "question", ["what config keys were removed in trl this month?", "trl 这个月删了哪些配置项"]
)
def test_config_keys_are_the_config_concept(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert "config" in query.topics and not {"keys", "配置项"} & set(query.terms), query


@pytest.mark.parametrize(
    ("question", "counts"),
    [
        ("trl 六月 kashif 和 qgallouedec 谁的 PR 更多", {"qgallouedec": 5, "kashif": 3}),
        ("who merged more in trl in June, kashif or qgallouedec?", {"qgallouedec": 5, "kashif": 3}),
    ],
)
def test_which_person_merged_more_counts_each_persons_prs(
    bot: ChatBot,  # noqa: F811
    question: str,
    counts: dict[str, int],
) -> None:
    answer = bot.handle(Message(question))
    assert answer.query.versus, answer.query
    lines = [line for line in answer.reply.plain_text().splitlines() if line.startswith("• ")]
    for (login, n), line in zip(sorted(counts.items(), key=lambda kv: -kv[1]), lines, strict=True):
        assert line.startswith(f"• {login}") and f" {n} " in line, lines


@pytest.mark.parametrize(
    "question",
    [
        "trl 上周哪个模块改动最多",
        "trl 这周和上周比哪个模块变化最大",
        "which module changed the most in trl last week?",
    ],
)
def test_which_module_changed_most_is_about_modules_not_the_largest_prs(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.order is None and query.intent in ("stats", "compare") and not query.terms, query


@pytest.mark.parametrize(
    "question",
    [
        "trl 过去两周有哪些值得我们团队跟进的改动",
        "torchtune 最近有什么值得跟进的 PR",
        "llamafactory 有哪些值得我们留意的改动",
    ],
)
def test_worth_following_up_is_a_reading_list_question(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert query.intent == "must_read" and not query.terms, query


@pytest.mark.parametrize(
    "question",
    [
        "trl 圣诞前后合并了什么",
        "what did trl merge over the holidays?",
        "trl 圣诞节期间的改动",
        "trl PRs around Christmas",
    ],
)
def test_christmas_and_new_year_are_a_window(question: str) -> None:
    """The latest begun by the clock (2026-06-24): 18 December 2025 to 3 January 2026."""
    window = parse_query(question, CONTEXT).window
    assert window == Window(datetime(2025, 12, 18, tzinfo=SHANGHAI), datetime(2026, 1, 4, tzinfo=SHANGHAI))


@pytest.mark.parametrize(
    "question",
    [
        "trl 这个月有没有影响训练稳定性的改动？",
        "torchtune 最近有哪些解决训练不稳定的 PR",
        "llamafactory 上周修了 loss 发散的问题吗",
        "any trl changes for training stability this month?",
        "did torchtune fix the loss spikes lately?",
    ],
)
def test_training_stability_is_a_concept_in_both_languages(question: str) -> None:
    query = parse_query(question, CONTEXT)
    assert "stability" in query.topics, query
    assert not {"训练稳定性", "稳定性", "stability", "不稳定", "发散"} & set(query.terms), query


def test_a_kl_divergence_is_no_question_about_stability() -> None:
    assert "stability" not in parse_query("trl 六月 KL divergence 相关的 PR", CONTEXT).topics


@pytest.mark.parametrize(
    "question",
    ["which trl PRs touched trl/trainer/grpo_trainer.py in June?", "trl 六月谁改了 trl/trainer/ 下的代码"],
)
def test_prs_touching_a_path_are_listed_most_important_first(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = bot.handle(Message(question))
    text = answer.reply.plain_text()
    scores = [float(s) for s in re.findall(r"(?:importance|重要性) (\d+\.\d)", text)]
    assert len(scores) >= 3, text
    assert scores == sorted(scores, reverse=True), text


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("anything about PEFT in trl in the last month?", 30),
        ("trl PRs over the last month", 30),
        ("what did torchtune merge in the last week?", 7),
        ("risks in llamafactory during the last week", 7),
    ],
)
def test_in_the_last_month_or_week_is_the_span_up_to_now(question: str, days: int) -> None:
    window = parse_query(question, CONTEXT).window
    assert window is not None and window.end == NOW, window
    assert (window.end - window.start).days == days, window


def test_bare_last_month_is_still_the_calendar_month() -> None:
    window = parse_query("anything about PEFT in trl last month?", CONTEXT).window
    assert window is not None and (window.start, window.end) == (
        datetime(2026, 5, 1, tzinfo=SHANGHAI),
        datetime(2026, 6, 1, tzinfo=SHANGHAI),
    )


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("trl 五月最后一周合并了什么", (5, 25), (6, 1)),
        ("trl 5月的最后一个星期有什么风险", (5, 25), (6, 1)),
        ("what did trl merge in the last week of May?", (5, 25), (6, 1)),
        ("trl 上个月第一周的改动", (5, 1), (5, 8)),
        ("torchtune 五月第三周有什么", (5, 15), (5, 22)),
        ("the second week of May in torchtune", (5, 8), (5, 15)),
        ("what changed in trl in the first week of last month?", (5, 1), (5, 8)),
    ],
)
def test_a_week_of_a_month_is_that_months_seven_days(
    question: str, start: tuple[int, int], end: tuple[int, int]
) -> None:
    query = parse_query(question, CONTEXT)
    assert query.window is not None, query
    assert (query.window.start, query.window.end) == (
        datetime(2026, *start, tzinfo=SHANGHAI),
        datetime(2026, *end, tzinfo=SHANGHAI),
    ), query.window
    assert query.limit is None and not query.terms, query  # "最后一" is no count, "week" no search word


def test_the_last_week_of_last_year_is_its_last_seven_days() -> None:
    window = parse_query("trl 去年最后一周合并了什么", CONTEXT).window
    assert window is not None
    assert (window.start, window.end) == (
        datetime(2025, 12, 25, tzinfo=SHANGHAI),
        datetime(2026, 1, 1, tzinfo=SHANGHAI),
    )


@pytest.mark.parametrize("question", ["trl 第 25 周的改动", "trl 2026年第25周"])
def test_a_week_number_is_still_an_iso_week(question: str) -> None:
    window = parse_query(question, CONTEXT).window
    assert window is not None and window.start == datetime(2026, 6, 15, tzinfo=SHANGHAI), window


@pytest.mark.parametrize(
    ("question", "intent", "breaking"),
    [
        ("trl 六月有哪些 breaking change？列出来并说明影响", "topic", True),
        ("list trl's breaking changes in June and explain the impact", "topic", True),
        ("详细说说 trl 上周的风险", "risks", False),
        ("分析一下 torchtune 上周的风险", "risks", False),
        ("what changed in trl in June, in detail", "highlights", False),
        ("llamafactory 上周的改动，顺便解释一下", "highlights", False),
    ],
)
def test_how_to_answer_is_no_search_word(question: str, intent: str, breaking: bool) -> None:
    query = parse_query(question, CONTEXT)
    assert (query.intent, query.breaking) == (intent, breaking), query
    assert not query.terms, query
