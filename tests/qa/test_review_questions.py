"""Questions about reviews rather than authorship: who reviewed the most PRs in a window, which PRs one
person reviewed, which PRs merged without anyone's review (a bot's review or the author's own does not
count), and what the bot says when the index holds no reviews at all (an import from an export without
them). Several phrasings per class in both languages, over a small repo with plain titles (no `[module]`
tags, one Chinese description) and one imported without reviews, through parse → retrieve → compose on
SQLite and PostgreSQL. The clock is Wednesday 2026-06-24 10:00 in Asia/Shanghai (2026-W26)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from io import StringIO

import pytest
from rich.console import Console

from adapters.console import render_console
from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.messages import say
from chatbot.models import Message, PRFile, PullHeader, PullRequest, Review
from chatbot.qa.compose import Answer, window_text
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from tests.conftest import POSTGRES_URL
from tests.qa.other_repos import NOW, SHANGHAI
from tests.scratch_db import seeded_database

WIDGETS = "acme/widgets"
IMPORTED = "acme/imported"
CHANNELS = {"widgets": WIDGETS, "imported": IMPORTED}


def at(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, tzinfo=SHANGHAI)


# (number, merged, author, title, body, reviews as (reviewer, state)); plain titles, no [module] tags.
WIDGET_PRS: tuple[tuple[int, datetime, str, str, str, tuple[tuple[str, str], ...]], ...] = (
    # May 2026 ("last month"): bob reviewed 90, 91, 93; carol 91, 92; Chi-Zhang 90
    (90, at(5, 10), "mira", "Add an S3 storage backend", "Stores uploads in S3.",
     (("bob", "APPROVED"), ("Chi-Zhang", "COMMENTED"))),
    (91, at(5, 20), "alice", "Fix a memory leak in the image decoder", "Frees the buffers.",
     (("bob", "APPROVED"), ("carol", "COMMENTED"))),
    (92, at(5, 25), "bob", "Refactor the storage layer", "Splits the backends.", (("carol", "APPROVED"),)),
    (93, at(5, 28), "dan", "Add a healthcheck endpoint", "GET /healthz.", (("bob", "APPROVED"),)),
    # 2026-W25 ("last week"): alice reviewed 101, 103 (twice), 107; bob 101, 102; 104-106 unreviewed
    (101, at(6, 15), "mira", "Add retries to the upload client", "Retries three times with backoff.",
     (("alice", "APPROVED"), ("bob", "COMMENTED"))),
    (102, at(6, 16), "alice", "Fix a crash when the config file is empty", "Empty files are valid now.",
     (("bob", "APPROVED"), ("alice", "COMMENTED"))),
    (103, at(6, 17), "bob", "Speed up thumbnail generation", "Uses a thread pool.",
     (("alice", "CHANGES_REQUESTED"), ("alice", "APPROVED"), ("github-actions[bot]", "COMMENTED"))),
    (104, at(6, 18), "mira", "Update the contributor guide", "Explains the release steps.",
     (("coderabbitai[bot]", "COMMENTED"),)),
    (105, at(6, 19), "dan", "Remove the deprecated export flag", "The --legacy-export flag is gone.", ()),
    (106, at(6, 20), "mira", "Add Chinese documentation", "新增中文文档，覆盖安装和配置。", (("mira", "COMMENTED"),)),
    (107, at(6, 21), "dan", "Handle timeouts in the sync worker", "The worker retries on timeout.",
     (("alice", "APPROVED"),)),
    # 2026-W26 ("this week", up to the clock): carol reviewed 108, 109; bob 108; erin (who wrote no PR) 109
    (108, at(6, 22), "alice", "Add a progress bar to the CLI", "Shows upload progress.",
     (("carol", "APPROVED"), ("bob", "COMMENTED"))),
    (109, at(6, 23), "bob", "Fix the race in the cache warmer", "A lock guards the warm-up.",
     (("carol", "APPROVED"), ("erin", "APPROVED"))),
    (110, datetime(2026, 6, 23, 18, tzinfo=SHANGHAI), "carol", "Bump the pillow dependency",
     "Pillow 11 fixes a CVE.", ()),
)  # fmt: skip
# Imported from an export that carries no reviews: no PR has any.
IMPORTED_PRS = tuple(
    (n, at(6, d), "mira", title, "Imported.", ())
    for n, d, title in ((1, 16, "Add login page"), (2, 18, "Fix logout redirect"), (3, 22, "Add dark mode"))
)
LAST_WEEK_UNREVIEWED = {104, 105, 106}


def _pull_request(
    repo: str, spec: tuple[int, datetime, str, str, str, tuple[tuple[str, str], ...]]
) -> PullRequest:
    number, merged, author, title, body, reviews = spec
    header = PullHeader(
        repo=repo,
        number=number,
        title=title,
        body=body,
        author=author,
        created_at=merged - timedelta(days=1),
        updated_at=merged,
        merged_at=merged,
        html_url=f"https://github.com/{repo}/pull/{number}",
        base_ref="main",
    )
    files = (PRFile(f"src/{title.split()[-1].lower()}.py", "modified", 20, 4, "+x = 1\n-x = 0"),)
    reviewed = tuple(Review(who, state, "LGTM") for who, state in reviews)
    return PullRequest(header, files, reviewed, additions=20, deletions=4)


def seed(db: Database) -> None:
    analyzer = HeuristicAnalyzer()
    with db.session() as session:
        index = PRIndex(session)
        for name, specs in ((WIDGETS, WIDGET_PRS), (IMPORTED, IMPORTED_PRS)):
            repo = index.ensure_repo(name, NOW - timedelta(days=90))
            repo.last_synced_at = NOW - timedelta(minutes=10)
            prs = [_pull_request(name, spec) for spec in specs]
            for pr in prs:
                index.upsert(repo, pr, NOW)
            session.flush()
            rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
            for pr in prs:
                save_analysis(
                    session,
                    rows[pr.number],
                    analyzer.analyze(pr),
                    analyzer=analyzer.name,
                    version=analyzer.version,
                    language="zh",
                    now=NOW,
                )


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def review_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("reviews")
    with seeded_database(request.param, POSTGRES_URL, directory, seed, "prhub_reviews") as database:
        yield database


@pytest.fixture(scope="module")
def bot(review_db: Database) -> ChatBot:
    return ChatBot(
        review_db,
        BotConfig(SHANGHAI),
        FixedClock(NOW),
        HeuristicAnalyzer().analyze,
        channel_repo=lambda message: CHANNELS.get(message.channel or ""),
    )


def ask(bot: ChatBot, question: str, channel: str = "widgets", thread: str | None = None) -> Answer:
    return bot.handle(Message(question, platform="slack", channel=channel, user="U1", thread=thread))


def people(answer: Answer) -> list[tuple[str, str]]:
    """The @logins an answer lists, in order, each with the rest of its line."""
    lines = [line for line in answer.reply.plain_text().splitlines() if "• @" in line]
    return [(name, rest) for name, _, rest in (line.split("@", 1)[1].partition(" ") for line in lines)]


def ranked(answer: Answer) -> list[str]:
    return [name for name, _ in people(answer)]


def in_order(names: list[str], expected: list[str]) -> bool:
    """Whether `names` are `expected`, where "bob|erin" is either of two who tie (in either order)."""
    fits = all(name in choice.split("|") for name, choice in zip(names, expected, strict=False))
    return fits and len(names) == len(expected) == len(set(names))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("上周谁 review 的 PR 最多", ["alice", "bob"]),
        ("上周谁审的 PR 最多？", ["alice", "bob"]),
        ("who reviewed the most PRs last week?", ["alice", "bob"]),
        ("top reviewers last week", ["alice", "bob"]),
        ("本周评审最多的是谁", ["carol", "bob|erin", "bob|erin"]),
        ("top reviewers this week", ["carol", "bob|erin", "bob|erin"]),
        ("who did the most code reviews this week", ["carol", "bob|erin", "bob|erin"]),
        ("上个月谁 review 的 PR 最多", ["bob", "carol", "Chi-Zhang"]),
        ("who approved the most PRs last month?", ["bob", "carol", "Chi-Zhang"]),
        ("上个月的 review 排行", ["bob", "carol", "Chi-Zhang"]),
    ],
)
def test_who_reviewed_the_most_ranks_reviewers_not_authors(
    bot: ChatBot, question: str, expected: list[str]
) -> None:
    answer = ask(bot, question)
    assert answer.query.review == "reviewers" and not answer.query.terms, answer.query
    assert in_order(ranked(answer), expected), answer.reply.plain_text()
    assert say("qa.people.title.reviewers", answer.query.language) in answer.reply.plain_text()


def test_a_reviewers_line_counts_prs_once_and_leaves_out_bots_and_self_reviews(bot: ChatBot) -> None:
    answer = ask(bot, "who reviewed the most PRs last week?")
    lines = dict(people(answer))
    # alice reviewed #103 twice: one PR; mira's own review of #106 and the bots' reviews count for nobody
    assert lines["alice"].startswith("— " + say("qa.people.reviewed.many", "en", n=3)), lines
    assert "#101" in lines["alice"] and "#103" in lines["alice"] and "#107" in lines["alice"]
    assert not {"mira", "github-actions[bot]", "coderabbitai[bot]"} & set(lines)
    assert set(answer.cited) <= {101, 102, 103, 107}


@pytest.mark.parametrize(
    ("question", "reviewer", "expected"),
    [
        ("alice 上周 review 了哪些 PR", "alice", {101, 103, 107}),
        ("上周 alice 审过哪些 PR？", "alice", {101, 103, 107}),
        ("what did alice review last week", "alice", {101, 103, 107}),
        ("PRs reviewed by bob last week", "bob", {101, 102}),
        ("上周被 bob 评审过的 PR", "bob", {101, 102}),
        ("which PRs did erin approve this week?", "erin", {109}),
        ("erin 本周做了哪些 review", "erin", {109}),
        ("bob's reviews last month", "bob", {90, 91, 93}),
        ("PRs reviewed by chi-zhang last month", "Chi-Zhang", {90}),
        # no window: the past 30 days (from 05-25 10:00), as for a person's recent work
        ("PRs reviewed by carol", "carol", {92, 108, 109}),
        ("show me the PRs alice reviewed last week", "alice", {101, 103, 107}),
        ("列出 carol 本周 review 过的 PR", "carol", {108, 109}),
    ],
)
def test_a_persons_reviews_are_the_prs_they_reviewed_not_the_ones_they_wrote(
    bot: ChatBot, question: str, reviewer: str, expected: set[int]
) -> None:
    answer = ask(bot, question)
    assert answer.query.review == "by" and answer.query.reviewer == reviewer.lower(), answer.query
    assert set(answer.cited) == expected, answer.reply.plain_text()
    text = answer.reply.plain_text()
    assert say("qa.reviewed_by.title", answer.query.language, reviewer=reviewer) in text


@pytest.mark.parametrize(
    "question",
    [
        "what did erin do this week?",
        "erin 本周在干什么",
        "erin 本周看了哪些 PR",
        "erin 的 review",
        "erin 本周的 review",
        "what has erin been reviewing this week?",
        "has erin reviewed anything?",
        "anything erin approved this week",
    ],
)
def test_someone_who_only_reviewed_is_asked_about_through_their_reviews(bot: ChatBot, question: str) -> None:
    # erin wrote no PR of the index and reviewed #109
    answer = ask(bot, question)
    assert (answer.query.review, answer.query.reviewer, answer.query.terms) == ("by", "erin", ()), (
        answer.query
    )
    assert answer.cited == (109,), answer.reply.plain_text()


@pytest.mark.parametrize("question", ["what did zed do this week?", "zed 的 review", "zed 本周在干什么"])
def test_a_name_nobody_wrote_or_reviewed_with_is_no_reviewer(bot: ChatBot, question: str) -> None:
    assert ask(bot, question).query.reviewer is None


def test_someone_who_reviewed_nothing_in_the_window_is_told_so(bot: ChatBot) -> None:
    answer = ask(bot, "what did erin review last week?")
    assert answer.cited == ()
    window = window_text(answer.window, NOW, SHANGHAI, "en")
    assert (
        say("qa.reviewed_by.none", "en", reviewer="erin", repo=WIDGETS, window=window)
        in answer.reply.plain_text()
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("上周哪些 PR 没有经过 review 就合并了", LAST_WEEK_UNREVIEWED),
        ("上周无人审查的 PR", LAST_WEEK_UNREVIEWED),
        ("上周有哪些 PR 未经评审就合入了？", LAST_WEEK_UNREVIEWED),
        ("which PRs were merged without review last week", LAST_WEEK_UNREVIEWED),
        ("unreviewed PRs last week", LAST_WEEK_UNREVIEWED),
        ("show me last week's PRs that nobody reviewed", LAST_WEEK_UNREVIEWED),
        ("which PRs were merged without review this week", {110}),
        ("本周没人 review 的 PR 有哪些", {110}),
        ("上周合并的 PR 都有人 review 吗？", LAST_WEEK_UNREVIEWED),
        ("were all PRs reviewed last week?", LAST_WEEK_UNREVIEWED),
        ("本周的 PR 是否都经过了评审", {110}),
    ],
)
def test_prs_merged_without_a_review_leave_out_bot_and_self_reviews(
    bot: ChatBot, question: str, expected: set[int]
) -> None:
    answer = ask(bot, question)
    assert answer.query.review == "none" and not answer.query.terms, answer.query
    assert set(answer.cited) == expected, answer.reply.plain_text()


def test_the_unreviewed_answer_counts_them_against_the_windows_prs(bot: ChatBot) -> None:
    for question in (
        "上周哪些 PR 没有经过 review 就合并了",
        "which PRs were merged without review last week",
    ):
        answer = ask(bot, question)
        language = answer.query.language
        window = window_text(answer.window, NOW, SHANGHAI, language)
        # 7 PRs merged last week, 3 of them reviewed by nobody but a bot or their author
        assert say("qa.unreviewed.count", language, window=window, total=7, n=3) in answer.reply.plain_text()


@pytest.mark.parametrize(
    "question",
    [
        "本周谁 review 的 PR 最多",
        "which PRs were merged without review last week?",
        "上周哪些 PR 没有经过 review 就合并了",
        "what did alice review last week",
    ],
)
def test_an_index_without_any_review_says_so_instead_of_calling_every_pr_unreviewed(
    bot: ChatBot, question: str
) -> None:
    answer = ask(bot, question, channel="imported")
    text = answer.reply.plain_text()
    assert answer.cited == ()
    window = window_text(answer.window, NOW, SHANGHAI, answer.query.language)
    assert say("qa.reviews.unrecorded", answer.query.language, repo=IMPORTED, window=window) in text, text
    assert say("qa.unreviewed.title", answer.query.language) not in text


@pytest.mark.parametrize(
    "question",
    [
        "上周 review 里提到了哪些问题",
        "what did the reviewers say about retries last week?",
        "PRs where the reviewer asked for tests",
        "reviewer 要求加测试的 PR",
    ],
)
def test_asking_what_reviews_said_is_no_question_about_reviewers(bot: ChatBot, question: str) -> None:
    assert ask(bot, question).query.review is None


def test_questions_about_how_long_reviews_take_stay_statistics(bot: ChatBot) -> None:
    for question in ("平均 review 时间是多少", "what is the average review time?", "PR 要多久才合并"):
        answer = ask(bot, question)
        assert answer.query.review is None and answer.query.intent == "stats", answer.query


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("上周谁 review 的 PR 最多", "那本周呢？", ["carol", "bob|erin", "bob|erin"]),
        ("top reviewers this week", "and last week?", ["alice", "bob"]),
        ("top reviewers this week", "and the week before?", ["alice", "bob"]),
    ],
)
def test_a_follow_up_keeps_ranking_reviewers(
    bot: ChatBot, first: str, then: str, expected: list[str]
) -> None:
    thread = f"t-{first}-{then}"
    ask(bot, first, thread=thread)
    answer = ask(bot, then, thread=thread)
    assert answer.query.review == "reviewers", answer.query
    assert in_order(ranked(answer), expected), answer.reply.plain_text()


def test_a_follow_up_naming_another_person_asks_for_their_reviews(bot: ChatBot) -> None:
    thread = "t-person"
    ask(bot, "bob 上周 review 了哪些 PR", thread=thread)
    answer = ask(bot, "那 alice 呢？", thread=thread)
    assert answer.query.review == "by" and answer.query.reviewer == "alice", answer.query
    assert set(answer.cited) == {101, 103, 107}


@pytest.mark.parametrize("first", ["top reviewers last week", "alice 上周 review 了哪些 PR"])
def test_after_a_review_question_an_authorship_question_is_about_authors(bot: ChatBot, first: str) -> None:
    thread = f"t-authors-{first}"
    ask(bot, first, thread=thread)
    answer = ask(bot, "上周 mira 写了哪些 PR", thread=thread)
    assert answer.query.review is None
    assert set(answer.cited) == {101, 104, 106}


def test_the_console_shows_the_reviewer_ranking(bot: ChatBot) -> None:
    answer = bot.handle(Message("上周谁审的 PR 最多？", channel="widgets"))
    out = StringIO()
    render_console(answer.reply, Console(file=out, width=400, color_system=None, highlight=False))
    printed = out.getvalue()
    assert say("qa.people.title.reviewers", "zh") in printed
    assert printed.index("@alice") < printed.index("@bob")
    assert say("qa.people.reviewed.many", "zh", n=3) in printed
    assert "@mira" not in printed


@pytest.mark.parametrize(
    "question",
    ["谁 review 了 thumbnail 相关的 PR", "who reviewed the thumbnail changes?", "谁在审 thumbnail 的改动"],
)
def test_who_reviewed_a_subject_ranks_the_reviewers_of_its_prs(bot: ChatBot, question: str) -> None:
    answer = ask(bot, question)
    assert answer.query.review == "reviewers", answer.query
    # #103 "Speed up thumbnail generation": alice reviewed it (twice), a bot commented, its author bob did not
    assert ranked(answer) == ["alice"], answer.reply.plain_text()
    assert answer.cited == (103,)
    title = say("qa.people.title.reviewers_of", answer.query.language, subject="thumbnail")
    assert title in answer.reply.plain_text()
