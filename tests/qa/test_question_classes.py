"""Classes of questions new users type, each in several phrasings in both languages, asked of repos of
three shapes at once: tests/qa/other_repos.py (trl, llamafactory, torchtune; clock 2026-06-24),
tests/qa/fresh_repos.py (OpenRLHF, ms-swift, axolotl; clock 2026-03-25) and tests/qa/kit_repo.py (one
repo, asked in a channel subscribed to it, so questions name no repo). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.bot import TOPIC_DAYS, BotConfig, ChatBot
from chatbot.messages import say
from chatbot.models import Message
from chatbot.qa.compose import Answer
from chatbot.qa.parse import KnownRepo, ParseContext, parse_query
from chatbot.qa.query import COUPLE, FEW
from chatbot.store.db import Database
from tests.conftest import POSTGRES_URL
from tests.qa import fresh_repos, kit_repo, other_repos
from tests.qa.other_repos import Written, store_written
from tests.scratch_db import seeded_database

RELAY = "acme/relay"  # reverts named only by a quoted title or a commit, one "revert" of no PR
RELAY_PRS = (
    Written(RELAY, 11, other_repos.at(6, 1), "ana", "Add streaming export", "支持流式导出。",
            ("relay/export.py",), merge_commit_sha="a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"),
    Written(RELAY, 12, other_repos.at(6, 3), "bo", "Cache tokenizer results", "缓存分词结果。",
            ("relay/tokenize.py",), merge_commit_sha="b2c3d4e5f60718293a4b5c6d7e8f901234567890"),
    Written(RELAY, 13, other_repos.at(6, 10), "ana", 'Revert "Add streaming export"', "", ("relay/export.py",)),
    Written(RELAY, 14, other_repos.at(6, 12), "bo", "Undo tokenizer caching",
            "This reverts commit b2c3d4e. 缓存导致多进程下结果错乱。", ("relay/tokenize.py",)),
    Written(RELAY, 15, other_repos.at(6, 15), "cy", "[ci] fix: revert the CUDA version in CI",
            "Revert CUDA to 12.4 until the runners are upgraded.", (".github/workflows/ci.yml",)),
)  # fmt: skip


def _seed(db: Database) -> None:
    other_repos.seed(db)
    fresh_repos.seed(db)
    kit_repo.seed(db)
    store_written(db, RELAY_PRS, other_repos.NOW)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def shapes_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    directory = tmp_path_factory.mktemp("shapes")
    with seeded_database(request.param, POSTGRES_URL, directory, _seed, "prhub_shapes") as database:
        yield database


@pytest.fixture(scope="module")
def bots(shapes_db: Database) -> dict[str, ChatBot]:
    """A bot at each fixture's clock; the kit bot answers in a channel subscribed to acme/kit."""

    def bot(clock: object, channel: str | None) -> ChatBot:
        return ChatBot(
            shapes_db,
            BotConfig(other_repos.SHANGHAI),
            clock,  # type: ignore[arg-type]
            HeuristicAnalyzer().analyze,
            channel_repo=lambda _: channel,
        )

    return {
        "other": bot(other_repos.clock(), None),
        "fresh": bot(fresh_repos.clock(), None),
        "kit": bot(kit_repo.clock(), kit_repo.KIT),
    }


def ask(bots: dict[str, ChatBot], shape: str, question: str) -> Answer:
    return bots[shape].handle(Message(question))


# "A few": a short ranked list, not a count ------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "limit"),
    [
        ("other", "trl 六月最重要的几个 PR", FEW),
        ("other", "挑几个 torchtune 六月的 PR 给我看看", FEW),
        ("other", "a couple of PRs worth reading in torchtune this month", COUPLE),
        ("fresh", "a few important PRs in axolotl this month", FEW),
        ("fresh", "OpenRLHF 这个月几个值得看的 PR", FEW),
        ("kit", "a few important PRs lately", FEW),
        ("kit", "最近几个重要的改动", FEW),
    ],
)
def test_a_few_is_a_short_ranked_list_not_statistics(
    bots: dict[str, ChatBot], shape: str, question: str, limit: int
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.intent != "stats"
    assert answer.query.limit == limit
    assert 0 < len(answer.cited) <= limit


def test_a_few_important_prs_are_the_most_important_ones(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "fresh", "a few important PRs in axolotl this month")
    # March's five most important, in order; dropping legacy strings (#2616) is breaking, ranked last.
    assert answer.cited == (2604, 2619, 2622, 2610, 2616)


@pytest.mark.parametrize(
    ("shape", "question"),
    [
        ("other", "trl 本周合并了几个 PR"),
        ("fresh", "how many PRs did axolotl merge this month?"),
        ("kit", "上周有几个 PR"),
    ],
)
def test_how_many_is_still_a_count(bots: dict[str, ChatBot], shape: str, question: str) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.intent == "stats" and answer.query.limit is None


# A person's recent work --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("kit", "lin 最近在做什么", {506, 507, 511}),  # a three-letter login, nothing in the past week
        ("kit", "what has lin been working on lately?", {506, 507, 511}),
        ("kit", "mei 这阵子在忙啥", {508, 510}),
        ("other", "kashif 最近在做什么", {3433, 3450, 3461}),
        ("fresh", "zhuzilin 这段时间在搞什么", {1275, 1285, 1294, 1306}),
        ("fresh", "what's hjh0119 been up to recently?", {4111, 4117, 4126}),
    ],
)
def test_what_a_person_has_been_doing_lately_is_their_prs_of_the_past_month(
    bots: dict[str, ChatBot], shape: str, question: str, cited: set[int]
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.intent == "author"
    assert set(answer.cited) == cited


# Vague time words and vague interest ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question"),
    [
        ("kit", "这阵子有哪些修复"),
        ("fresh", "ms-swift 这段时间显存相关的修复"),
        ("other", "trl 近来有什么 PEFT 的改动"),
        ("other", "any PEFT fixes in trl these days?"),
    ],
)
def test_vague_time_words_are_a_window_not_a_search_term(
    bots: dict[str, ChatBot], shape: str, question: str
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.vague_window
    assert not {"这阵子", "这段时间", "近来", "these", "days"} & set(answer.query.terms)
    assert answer.cited and not answer.query.notes


@pytest.mark.parametrize(
    ("shape", "question"),
    [
        ("other", "trl 最近有啥好玩的"),
        ("kit", "最近几天有啥好玩的"),
        ("fresh", "anything fun in axolotl lately?"),
    ],
)
def test_asking_for_fun_is_asking_for_highlights(bots: dict[str, ChatBot], shape: str, question: str) -> None:
    answer = ask(bots, shape, question)
    assert not answer.query.terms and answer.cited


def test_the_past_few_days_are_three_days(bots: dict[str, ChatBot]) -> None:
    for question in ("最近几天有啥好玩的", "what landed in the past few days?"):
        window = ask(bots, "kit", question).query.window
        assert window is not None and (window.end - window.start).days == 3


# Alternatives: "X 或 Y", "X or Y", and "X 和 Y" joining two topics, search their union ------------------


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("other", "llamafactory 显存或者性能相关的 PR", {7001, 7025}),
        ("fresh", "openrlhf 显存或者性能相关的 PR", {1285, 1306}),
        ("fresh", "memory or perf changes in OpenRLHF this month?", {1285, 1306}),
        ("kit", "dataloader 或者显存相关的 PR", {501, 504, 505, 506, 507, 508}),
        ("kit", "有没有改默认值或者不再支持什么的", {510, 511}),
        ("kit", "did anything change defaults or drop support this month", {510, 511}),
        ("fresh", "did anything in axolotl change defaults or drop support this month?", {2616}),
        ("fresh", "openrlhf 本月 vllm 和 deepspeed 相关的改动", {1275, 1285, 1288, 1306}),
        ("fresh", "vLLM and DeepSpeed changes in OpenRLHF this month", {1275, 1285, 1288, 1306}),
        ("other", "trl 六月 NPU、文档或者依赖相关的 PR", {3430, 3436, 3447}),
    ],
)
def test_alternatives_find_the_prs_about_any_of_them(
    bots: dict[str, ChatBot], shape: str, question: str, cited: set[int]
) -> None:
    answer = ask(bots, shape, question)
    assert len(answer.query.alternatives) >= 2
    assert set(answer.cited) == cited
    assert not answer.query.notes  # nothing relaxed: the union itself finds them


@pytest.mark.parametrize(
    ("shape", "question"),
    [("other", "trl 的 GRPO 和 PEFT 相关改动"), ("other", "GRPO or PEFT changes in trl")],
)
def test_a_pr_about_every_alternative_ranks_first(
    bots: dict[str, ChatBot], shape: str, question: str
) -> None:
    answer = ask(bots, shape, question)
    assert set(answer.cited[:2]) == {3422, 3461}  # the two whose titles name GRPO and PEFT
    assert {3425, 3440, 3450} <= set(answer.cited)


@pytest.mark.parametrize(
    ("shape", "question"),
    [("other", "trl PRs about both GRPO and PEFT"), ("other", "trl 同时涉及 GRPO 和 PEFT 的改动")],
)
def test_both_keeps_every_topic_required(bots: dict[str, ChatBot], shape: str, question: str) -> None:
    answer = ask(bots, shape, question)
    assert not answer.query.alternatives
    assert set(answer.cited) == {3422, 3461}


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("other", "trl 上周有哪些修复或改进", {3447, 3450, 3455, 3458}),
        ("other", "trl fixes and improvements last week", {3447, 3450, 3455, 3458}),
        ("fresh", "axolotl 上周有哪些修复或改进", {2616, 2619}),
        ("kit", "上周的修复和改进", {505, 507, 508, 509, 510}),  # not #511, a chore
    ],
)
def test_fixes_or_improvements_are_both_kinds(
    bots: dict[str, ChatBot], shape: str, question: str, cited: set[int]
) -> None:
    answer = ask(bots, shape, question)
    assert set(answer.cited) == cited  # no docs, tests or chores


def test_a_question_with_alternatives_says_so(bots: dict[str, ChatBot]) -> None:
    zh = ask(bots, "other", "llamafactory 显存或者性能相关的 PR").reply.plain_text()
    en = ask(bots, "fresh", "memory or perf changes in OpenRLHF this month?").reply.plain_text()
    assert "'显存 或 性能'" in zh and "'memory or perf'" in en


# Reverts: the answer names the PR that was reverted, then the revert -----------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "pairs"),
    [
        ("other", "trl 哪些 PR 被回滚了", [(3425, 3444)]),
        ("other", "which trl PRs were reverted in June?", [(3425, 3444)]),
        ("other", "torchtune 有哪些 PR 被 revert 了", [(2805, 2824)]),
        ("other", "llamafactory 最近回滚了什么", [(7004, 7016)]),
        ("fresh", "ms-swift 这个月哪些改动被回退了", [(4126, 4129)]),
        ("fresh", "any reverts in axolotl this month?", [(2610, 2625)]),
        ("other", "relay 六月哪些 PR 被回滚了", [(12, 14), (11, 13)]),  # by commit, by quoted title
        ("other", "what got rolled back in relay this month?", [(12, 14), (11, 13)]),
    ],
)
def test_a_revert_question_names_the_reverted_pr_and_its_revert(
    bots: dict[str, ChatBot], shape: str, question: str, pairs: list[tuple[int, int]]
) -> None:
    answer = ask(bots, shape, question)
    lines = answer.reply.plain_text().splitlines()
    for reverted, revert in pairs:
        assert (reverted, revert) == tuple(n for n in answer.cited if n in (reverted, revert))
        line = next(line for line in lines if f"#{revert}" in line)
        assert line.index(f"#{reverted}") < line.index(f"#{revert}")
        assert other_repos.BY_KEY.get((answer.query.repo, reverted), None) is None or (
            other_repos.BY_KEY[(answer.query.repo or "", reverted)].title.split(": ")[-1] in line
        )


def test_a_revert_of_no_indexed_pr_is_listed_as_it_is(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "other", "relay 六月哪些 PR 被回滚了")
    line = next(line for line in answer.reply.plain_text().splitlines() if "#15" in line)
    assert "revert the CUDA version" in line and 15 in answer.cited


# Upgrading: with no window, a longer span than this week, said so; breaking, dependencies, defaults, reverts


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("other", "trl 升级到新版本要注意什么", {3455, 3436, 3425, 3444}),
        ("other", "what should I watch for upgrading trl to the latest release", {3455, 3436, 3425, 3444}),
        ("other", "anything to watch out for before we upgrade torchtune?", {3433, 2805, 2824}),
        ("fresh", "ms-swift 升级到新版本要注意什么", {4120, 4114, 4126, 4129}),
        ("fresh", "axolotl 升级有啥坑", {2616, 1288, 2610, 2625}),
        ("kit", "升级要注意啥", {509, 510, 511}),
        ("kit", "what should we check before upgrading to the latest version?", {509, 510, 511}),
    ],
)
def test_an_upgrade_question_covers_the_past_month_and_says_so(
    bots: dict[str, ChatBot], shape: str, question: str, cited: set[int]
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.upgrade
    assert answer.window is not None and (answer.window.end - answer.window.start).days == TOPIC_DAYS
    assert say("qa.upgrade.span", answer.query.language, days=TOPIC_DAYS) in answer.reply.plain_text()
    assert set(answer.cited) == cited


def test_an_upgrade_answer_puts_breaking_changes_first(bots: dict[str, ChatBot]) -> None:
    text = ask(bots, "other", "trl 升级到新版本要注意什么").reply.plain_text()
    sections = [say(f"qa.upgrade.{name}", "zh") for name in ("breaking", "dependency", "revert")]
    assert [text.index(s) for s in sections] == sorted(text.index(s) for s in sections)
    assert text.index("#3455") < text.index(sections[1])


def test_an_upgrade_question_with_a_window_keeps_it(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "other", "trl 上周的改动升级要注意什么")
    assert answer.query.upgrade and answer.window is not None and answer.window.week is not None
    assert set(answer.cited) == {3455}
    assert say("qa.upgrade.span", "zh", days=TOPIC_DAYS) not in answer.reply.plain_text()


# The newest merges: newest first, the one when asked in the singular -----------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("kit", "最新合并的 PR 是哪个", (504,)),  # 504 and 503 merged on 06-23; 504 has the higher number
        ("kit", "what was the last PR merged?", (504,)),
        ("kit", "最后合并的几个 PR", (504, 503, 502, 501, 505)),
        ("other", "trl 最新合并的 PR 是哪个", (3463,)),
        ("other", "the latest PRs in torchtune", (2824, 2821, 2818, 2815, 3433, 2810, 2805, 2801)),
        ("fresh", "axolotl 最新的三个 PR", (2625, 2622, 2619)),
        (
            "fresh",
            "what were the latest merges in ms-swift?",
            (4129, 4126, 4123, 4120, 4117, 4114, 4111, 4108),
        ),
    ],
)
def test_the_latest_prs_are_listed_newest_first(
    bots: dict[str, ChatBot], shape: str, question: str, cited: tuple[int, ...]
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.order == "newest"
    assert answer.cited == cited
    assert say("qa.newest.title", answer.query.language) in answer.reply.plain_text()


# People: short logins, "what did X fix", 干嘛 ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "author"),
    [
        ("kit", "ivy 最近在干嘛", "ivy"),
        ("kit", "what did sam change last week?", "sam"),
        ("kit", "which PRs has lin merged this month", "lin"),
        ("other", "what did kashif ship in June?", "kashif"),
        ("fresh", "what has chenyang done this month?", "chenyang"),
    ],
)
def test_a_known_login_asked_about_is_the_author(
    bots: dict[str, ChatBot], shape: str, question: str, author: str
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.author == author and not answer.query.terms
    assert answer.cited


# Function words: the longest first; 删掉 is a removal; 几次 counts ----------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question"),
    [
        ("kit", "有没有人改 dataloader"),
        ("kit", "最近有没有人动过显存相关的代码"),
        ("other", "trl 有没有人改 GRPO"),
    ],
)
def test_asking_whether_anyone_changed_something_leaves_no_stray_words(
    bots: dict[str, ChatBot], shape: str, question: str
) -> None:
    answer = ask(bots, shape, question)
    assert not {t for t in answer.query.terms if "人" in t}
    assert answer.cited and not answer.query.notes


def test_removing_a_parameter_in_plain_words_finds_the_removals(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "kit", "有没有删掉什么参数")
    assert "cleanup" in answer.query.topics and not answer.query.terms
    assert 510 in answer.cited  # 旧的 warmup_ratio 参数被移除


@pytest.mark.parametrize(
    ("shape", "question"), [("other", "trl grpo 这个月改了几次"), ("fresh", "axolotl 的 grpo 这个月改了几次")]
)
def test_how_many_times_is_a_count(bots: dict[str, ChatBot], shape: str, question: str) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.intent == "stats" and "grpo" in (*answer.query.terms, *answer.query.modules)
    assert answer.count is not None and 0 < answer.count < 10  # the GRPO PRs, not the whole month


# Follow-ups keep what the classes above read --------------------------------------------------------------

THREADS = iter(range(10_000))


def converse(bot: ChatBot, *questions: str) -> list[Answer]:
    thread = f"thread-{next(THREADS)}"
    return [
        bot.handle(Message(q, platform="slack", channel="C1", workspace="T1", thread=thread))
        for q in questions
    ]


def test_a_follow_up_keeps_the_alternatives(bots: dict[str, ChatBot]) -> None:
    first, then = converse(bots["other"], "trl 六月显存或者性能相关的 PR", "那 llamafactory 呢")
    assert then.query.alternatives == first.query.alternatives == ("memory", "performance")
    assert set(then.cited) == {7001, 7025}


def test_a_follow_up_keeps_the_upgrade_reading(bots: dict[str, ChatBot]) -> None:
    _, then = converse(bots["other"], "trl 升级到新版本要注意什么", "那 torchtune 呢")
    assert then.query.upgrade and then.query.repo == other_repos.TUNE
    assert {2805, 2824} <= set(then.cited)


def test_a_new_intent_in_the_thread_drops_the_upgrade_reading(bots: dict[str, ChatBot]) -> None:
    _, then = converse(bots["other"], "trl 升级到新版本要注意什么", "那上周值得读的呢")
    assert then.query.intent == "must_read" and not then.query.upgrade


def test_a_module_named_like_an_upgrade_word_is_not_searched(bots: dict[str, ChatBot]) -> None:
    context = ParseContext(
        other_repos.NOW, other_repos.SHANGHAI, (KnownRepo(other_repos.TRL),), modules=frozenset({"release"})
    )
    query = parse_query("what should I watch for upgrading trl to the latest release", context)
    assert query.upgrade and not query.modules and not query.terms


# Several repos named: one answer across them ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "repos"),
    [
        ("fresh", "openrlhf vs axolotl 这个月谁更活跃", (fresh_repos.RLHF, fresh_repos.AXOLOTL)),
        ("fresh", "compare openrlhf and ms-swift this month", (fresh_repos.RLHF, fresh_repos.SWIFT)),
        ("fresh", "openrlhf 和 axolotl 本月的风险", (fresh_repos.RLHF, fresh_repos.AXOLOTL)),
        ("other", "trl 和 torchtune 上周合并了什么", (other_repos.TRL, other_repos.TUNE)),
        (
            "other",
            "which of llamafactory and torchtune was busier last week?",
            (other_repos.FACTORY, other_repos.TUNE),
        ),
    ],
)
def test_a_question_naming_several_repos_is_answered_across_them(
    bots: dict[str, ChatBot], shape: str, question: str, repos: tuple[str, ...]
) -> None:
    answer = ask(bots, shape, question)
    assert set(answer.query.repo_candidates) == set(repos)
    assert not answer.query.terms
    text = answer.reply.plain_text()
    assert all(repo in text for repo in repos)
    assert answer.cited or answer.query.intent == "stats"  # statistics cite no PR


def test_comparing_repos_ranks_them_by_prs_merged(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "fresh", "openrlhf vs axolotl 这个月谁更活跃")
    counts = (
        say("qa.across.count", "zh", repo=fresh_repos.RLHF, n=11),
        say("qa.across.count", "zh", repo=fresh_repos.AXOLOTL, n=9),
    )
    assert say("qa.across.ranking", "zh", repos="、".join(counts)) in answer.reply.plain_text()


# When: each line says when it was merged; "最近几个 PR" are the latest few -------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "number", "date"),
    [
        ("fresh", "openrlhf REINFORCE++ 是什么时候加的", 1279, "2026-03-04"),
        ("fresh", "when was ring attention added to openrlhf?", 1270, "2026-02-24"),
        ("other", "trl 的 NPU 支持是哪天合并的", 3447, "2026-06-16"),
    ],
)
def test_asking_when_dates_each_pr(
    bots: dict[str, ChatBot], shape: str, question: str, number: int, date: str
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.asks_when and not {t for t in answer.query.terms if "候" in t or "天" in t}
    line = next(line for line in answer.reply.plain_text().splitlines() if f"#{number}" in line)
    assert say("qa.merged_on", answer.query.language, date=date) in line


@pytest.mark.parametrize(
    ("shape", "question", "cited"),
    [
        ("fresh", "axolotl 最近几个 PR 都是谁提的", (2625, 2622, 2619, 2616, 2613)),
        ("fresh", "ms-swift 最近的几个 PR", (4129, 4126, 4123, 4120, 4117)),
        ("kit", "最近几个PR", (504, 503, 502, 501, 505)),
    ],
)
def test_the_latest_few_are_the_newest_five(
    bots: dict[str, ChatBot], shape: str, question: str, cited: tuple[int, ...]
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.intent != "stats" and answer.cited == cited


def test_fixed_yet_is_a_fix(bots: dict[str, ChatBot]) -> None:
    answer = ask(bots, "fresh", "axolotl 的 lora 合并 OOM 修好了吗")
    assert answer.query.change_types == ("fix",) and not answer.query.terms
    assert answer.cited == (2604,)


# Several people: each one's PRs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "question", "people"),
    [
        ("kit", "ivy 和 lin 最近在干嘛", {"ivy": {501, 504, 505, 512}, "lin": {506, 507, 511}}),
        ("kit", "what did sam and mei work on this month?", {"sam": {502, 503, 509}, "mei": {508, 510}}),
        (
            "other",
            "qgallouedec 和 kashif 最近在做什么",
            {"qgallouedec": {3410, 3425, 3436, 3444, 3452, 3455}, "kashif": {3433, 3450, 3461}},
        ),
        (
            "fresh",
            "zhuzilin、hijkzzz 这个月的 PR",
            {"zhuzilin": {1275, 1285, 1294, 1306}, "hijkzzz": {1279, 1288, 1297}},
        ),
    ],
)
def test_several_people_get_each_ones_prs(
    bots: dict[str, ChatBot], shape: str, question: str, people: dict[str, set[int]]
) -> None:
    answer = ask(bots, shape, question)
    assert answer.query.authors == tuple(people) and not answer.query.terms
    text = answer.reply.plain_text()
    headings = [text.index(say("qa.author.title", answer.query.language, author=p)) for p in people]
    assert headings == sorted(headings)
    for person, numbers in people.items():
        start = text.index(say("qa.author.title", answer.query.language, author=person))
        section = text[start:]
        shown = {n for n in numbers if f"#{n}" in section}
        assert shown == numbers or len(shown) == 5  # at most five each
    assert set(answer.cited) <= set().union(*people.values())
