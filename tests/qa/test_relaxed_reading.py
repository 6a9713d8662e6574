"""When the question as read finds nothing, it is read more loosely, and the answer says so: words no PR
contains rank rather than filter when something else in the question narrows the PRs, and a window the
asker did not name widens. Over the repos of tests/qa/other_repos.py (clock: Wednesday 2026-06-24), on
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from chatbot.bot import ChatBot
from chatbot.messages import join, say
from chatbot.models import Message
from chatbot.qa.compose import Answer, window_text
from chatbot.qa.query import Window
from tests.qa.other_repos import FACTORY, NOW, SHANGHAI, TRL
from tests.qa.test_any_repo import bot, day, other_db  # noqa: F401  (the shared fixtures)


def ask(bot: ChatBot, question: str) -> Answer:  # noqa: F811
    return bot.handle(Message(question))


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("trl 六月有没有需要团队留心的破坏性变更", {3455}),
        ("any breaking changes in trl in June our downstream team should worry about?", {3455}),
        ("trl 六月下游用户会受影响的不兼容改动", {3455}),
    ],
)
def test_words_no_pr_contains_do_not_empty_a_filtered_answer(
    bot: ChatBot,  # noqa: F811
    question: str,
    cited: set[int],
) -> None:
    answer = ask(bot, question)
    assert answer.query.breaking
    assert set(answer.cited) == cited


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("trl 六月 GRPO 熵正则相关的改动", ("熵正则",)),
        ("GRPO entropy bonus work in trl in June", ("entropy", "bonus")),
    ],
)
def test_the_terms_some_pr_contains_are_kept_and_the_others_named(
    bot: ChatBot,  # noqa: F811
    question: str,
    missing: tuple[str, ...],
) -> None:
    answer = ask(bot, question)
    assert set(answer.cited) == {3422, 3425, 3440, 3444, 3461}  # not #3465, #3466: merged after now
    language = answer.query.language
    quoted = join((f"'{word}'" for word in missing), language)
    assert say("qa.relaxed.terms", language, terms=quoted) in answer.reply.plain_text()
    assert not set(missing) & set(answer.query.understood)


@pytest.mark.parametrize(
    ("question", "repo", "cited"),
    [
        ("trl 有没有改 DPO 的 PR", TRL, {3433, 3452, 3455}),
        ("has trl changed anything about DPO?", TRL, {3433, 3452, 3455}),
        ("llamafactory 有没有 reward 相关的修复", FACTORY, {7013}),
    ],
)
def test_a_subject_asked_without_a_window_is_answered_from_the_past_30_days(
    bot: ChatBot,  # noqa: F811
    question: str,
    repo: str,
    cited: set[int],
) -> None:
    """A question about a subject that names no window wants the relevant recent PRs, not only this
    week's: the past 30 days, named in the answer (nothing was widened, so no note says so)."""
    answer = ask(bot, question)
    assert (answer.query.repo, set(answer.cited)) == (repo, cited)
    assert answer.window is not None
    assert (NOW - answer.window.start).days == 30 and answer.window.end == NOW
    language = answer.query.language
    text = answer.reply.plain_text()
    assert window_text(answer.window, NOW, SHANGHAI, language) in text
    this_week = Window(day(6, 22), day(6, 29))
    assert window_text(this_week, NOW, SHANGHAI, language) not in text


@pytest.mark.parametrize("question", ["trl 本周 DPO 相关的改动", "trl DPO changes this week"])
def test_a_window_the_asker_named_is_not_widened(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.cited == ()
    assert answer.window is not None and answer.window.start.date().isoformat() == "2026-06-22"


@pytest.mark.parametrize("question", ["trl 有没有 mixtral 相关的改动", "anything about mixtral in trl?"])
def test_a_word_no_pr_ever_contains_still_gets_an_empty_answer(bot: ChatBot, question: str) -> None:  # noqa: F811
    assert ask(bot, question).cited == ()


@pytest.mark.parametrize(
    ("question", "intent", "limit"),
    [
        ("which trl PRs from June should I read thoroughly, just 2", "must_read", 2),
        ("trl June highlights, only three please", "highlights", 3),
        ("llamafactory 六月哪些 PR 值得团队精读，给我两个", "must_read", 2),
    ],
)
def test_a_filler_word_and_a_count_keep_the_intent_and_the_count(
    bot: ChatBot,  # noqa: F811
    question: str,
    intent: str,
    limit: int,
) -> None:
    answer = ask(bot, question)
    assert (answer.query.intent, answer.query.limit, len(answer.cited)) == (intent, limit, limit)


@pytest.mark.parametrize(
    "question",
    ["trl 六月 DPO 相关的风险", "risks of trl's DPO changes in June", "trl 里 dpo 的改动有什么隐患"],
)
def test_a_narrowed_risk_answer_states_each_prs_risk_not_a_category_count(
    bot: ChatBot,  # noqa: F811
    question: str,
) -> None:
    answer = ask(bot, question)
    text = answer.reply.plain_text()
    language = answer.query.language
    severity = say("report.severity.high", language)
    assert f"[{severity}] #3455 " in text  # the PR, then what its analysis says could break
    assert "max_length is removed from DPOConfig" in text  # where it shows, in the author's words
    assert say("report.risk.missing-tests", language, n=2, prs="") in text  # untested: one line


@pytest.mark.parametrize(
    ("question", "authors"),
    [
        ("trl 六月谁在改 GRPO", {"@qgallouedec", "@lewtun", "@edbeeching", "@kashif"}),
        ("who worked on vLLM in trl this month?", {"@qgallouedec", "@edbeeching"}),
        ("llamafactory 六月哪些人修了显存问题", {"@hiyouga"}),
    ],
)
def test_a_question_asking_who_names_each_prs_author(
    bot: ChatBot,  # noqa: F811
    question: str,
    authors: set[str],
) -> None:
    answer = ask(bot, question)
    assert answer.query.asks_who and answer.cited
    assert all(author in answer.reply.plain_text() for author in authors)


@pytest.mark.parametrize("question", ["what broke in torchtune in June?", "torchtune 六月有什么东西坏了"])
def test_what_broke_finds_the_prs_that_say_something_broke(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert set(answer.cited) == {2824, 3433}
    assert "Revert: add Qwen3 builders" in answer.reply.plain_text()  # a revert's line says it is one


THREADS = iter(range(1, 1_000_000))


def conversation(bot: ChatBot, *questions: str) -> list[Answer]:  # noqa: F811
    thread = f"relaxed-{next(THREADS)}"
    return [
        bot.handle(Message(q, platform="slack", channel="C9", workspace="T1", thread=thread))
        for q in questions
    ]


@pytest.mark.parametrize(
    ("first", "switch", "language"),
    [
        ("trl 上周有哪些风险？", "and in English?", "en"),
        ("trl 上周有哪些风险？", "can you say that in English please", "en"),
        ("what were trl's risks last week?", "用中文说", "zh"),
        ("what were trl's risks last week?", "中文版呢", "zh"),
    ],
)
def test_asking_for_the_other_language_repeats_the_last_answer_in_it(
    bot: ChatBot,  # noqa: F811
    first: str,
    switch: str,
    language: str,
) -> None:
    before, after = conversation(bot, first, switch)
    assert after.query.language == language
    assert (after.query.intent, after.query.repo, after.window) == (
        before.query.intent,
        before.query.repo,
        before.window,
    )
    assert after.cited == before.cited
    assert say("qa.risks.title", language) in after.reply.plain_text()


def test_what_one_answer_relaxed_is_not_carried_into_the_next(bot: ChatBot) -> None:  # noqa: F811
    relaxed, following = conversation(bot, "GRPO entropy bonus work in trl in June", "and the week before?")
    assert relaxed.query.notes
    assert following.cited == () and following.query.notes == ()  # no GRPO PR in May: nothing relaxed


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("Summarize what happened in trl during the first half of June", day(6, 1), day(6, 16)),
        ("trl 上半月的改动", day(6, 1), day(6, 16)),
        ("trl 6月下半月有哪些风险", day(6, 16), day(7, 1)),
        ("what did trl ship in the second half of last month?", day(5, 16), day(6, 1)),
        ("trl 上个月下半月合并了什么", day(5, 16), day(6, 1)),
    ],
)
def test_half_a_month_is_its_days_and_no_word_of_it_is_searched(
    bot: ChatBot,  # noqa: F811
    question: str,
    start: object,
    end: object,
) -> None:
    answer = ask(bot, question)
    assert answer.query.window is not None
    assert (answer.query.window.start, answer.query.window.end) == (start, end)
    assert answer.query.terms == ()
    assert answer.cited


@pytest.mark.parametrize(
    "question",
    [
        "What happened in trl during June?",
        "Could you summarize what trl shipped in June?",
        "Give me an overview of trl in June, if there is one",
    ],
)
def test_the_words_of_asking_are_not_searched(bot: ChatBot, question: str) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert answer.query.terms == ()
    assert len(answer.cited) >= 5


@pytest.mark.parametrize("question", ["trl 本周和上周相比怎么样", "compare trl this week with last week"])
def test_a_week_not_over_is_compared_with_the_same_part_of_the_week_before(
    bot: ChatBot,  # noqa: F811
    question: str,
) -> None:
    answer = ask(bot, question)
    language = answer.query.language
    same_part = Window(day(6, 15), day(6, 17, 10))  # Monday 00:00 to Wednesday 10:00, as now is
    heading = say("qa.compare.title", language, previous=window_text(same_part, NOW, SHANGHAI, language))
    assert heading in answer.reply.plain_text()
    before = say("qa.compare.count", language, now=2, before=1, delta=say("report.delta_up", language, n=1))
    assert before in answer.reply.plain_text()  # #3450 (Wednesday 12:00) and later are not counted


@pytest.mark.parametrize(
    ("question", "number"),
    [
        ("3455 这个改动对我们升级有影响吗", 3455),
        ("is trl 3450 safe to pick up?", 3450),
        ("trl 的 3455 改了哪些默认配置", 3455),
        ("llamafactory 7013 有没有风险", 7013),
        ("should we worry about torchtune 2815?", 2815),
    ],
)
def test_a_bare_number_with_no_unit_is_a_pr(bot: ChatBot, question: str, number: int) -> None:  # noqa: F811
    answer = ask(bot, question)
    assert (answer.query.intent, answer.cited) == ("pr", (number,))


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("trl 2026 年的改动", day(1, 1), day(1, 1, year=2027)),
        ("what did trl merge in 2026?", day(1, 1), day(1, 1, year=2027)),
        ("trl 2025年有哪些风险", day(1, 1, year=2025), day(1, 1)),
        ("trl 最近 100 个 PR", None, None),
        ("trl 3月以来 1000 行以上的改动", day(3, 1), NOW),
    ],
)
def test_a_year_or_a_count_is_no_pr_number(
    bot: ChatBot,  # noqa: F811
    question: str,
    start: object,
    end: object,
) -> None:
    answer = ask(bot, question)
    assert answer.query.intent != "pr" and answer.query.pr_number is None
    if start is not None:
        assert answer.query.window is not None
        assert (answer.query.window.start, answer.query.window.end) == (start, end)


def test_an_analysis_quoting_the_description_back_is_not_a_second_mention() -> None:
    from chatbot.qa.retrieve import SHORT_TEXT, _Group
    from chatbot.store.analyses import ANALYSIS_MARK

    filler = "The tracker now retries three times before it gives up on the remote server. " * 8
    assert len(filler) > SHORT_TEXT
    body = f"{filler}\n2. Keys are cached, with minor\n`memory` usage."
    quoted = "Keys are cached, with minor memory usage."
    memory = _Group.of(["memory", "oom"])

    def document(*analysis: str) -> str:
        return "\n".join(
            ["fix: retry the tracker", body, ANALYSIS_MARK, "fix: retry the tracker", *analysis]
        ).lower()

    assert not memory.occurrence(document(quoted, quoted)).salient  # the author's one passing mention
    assert memory.occurrence(document(quoted, "Frees the cache after each step to avoid OOM")).salient


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("trl 六月哪些 PR 没有测试", {3433, 3463, 3455, 3425, 3458, 3440, 3444, 3461, 3447, 3450, 3436}),
        ("which trl PRs in June were merged without tests?", None),
        ("trl 六月 GRPO 相关的改动有没有测试", {3425, 3440, 3444, 3461}),
        ("untested GRPO changes in trl in June", {3425, 3440, 3444, 3461}),
    ],
)
def test_without_tests_is_a_filter_not_a_search_for_tests(
    bot: ChatBot,  # noqa: F811
    question: str,
    cited: set[int] | None,
) -> None:
    answer = ask(bot, question)
    assert answer.query.untested and "test" not in answer.query.topics
    assert 3422 not in answer.cited and 3452 not in answer.cited  # they changed tests
    if cited is not None:
        assert set(answer.cited) <= cited and answer.cited


@pytest.mark.parametrize(
    "question", ["trl 六月 NPU 相关的破坏性变更", "breaking changes about NPU in trl in June"]
)
def test_no_breaking_change_about_a_subject_gives_the_windows_breaking_changes_said_so(
    bot: ChatBot,  # noqa: F811
    question: str,
) -> None:
    answer = ask(bot, question)
    assert answer.cited == (3455,)
    assert say("qa.relaxed.subject", answer.query.language, subject="'NPU'") in answer.reply.plain_text()
