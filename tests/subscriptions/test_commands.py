"""Subscription commands in Chinese and English, through the bot as users type them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.bot import BotConfig, ChatBot
from chatbot.clock import FixedClock
from chatbot.commands import parse_command
from chatbot.messages import say
from chatbot.models import Message
from chatbot.ports import SourceUnavailable
from chatbot.store.index import PRIndex
from chatbot.store.schema import SubscriptionEventRow, SubscriptionRow
from chatbot.subscriptions.service import SubscriptionPolicy, SubscriptionService
from tests.reports.fixtures import REPO, SHANGHAI, seed

NOW = datetime(2026, 6, 24, 2, 0, tzinfo=UTC)  # Wednesday 10:00 in Shanghai


class Validator:
    def __init__(self, existing: set[str], broken: bool = False) -> None:
        self.existing, self.broken, self.asked = existing, broken, []

    def repo_exists(self, repo: str) -> bool:
        self.asked.append(repo)
        if self.broken:
            raise SourceUnavailable("GitHub answered 502")
        return repo in self.existing


def make_bot(db, policy=None, validator=None, backfilled=None):  # type: ignore[no-untyped-def]
    clock = FixedClock(NOW)
    service = SubscriptionService(
        db,
        clock,
        policy or SubscriptionPolicy("Asia/Shanghai"),
        validator,
        backfilled.append if backfilled is not None else None,
    )
    return ChatBot(db, BotConfig(SHANGHAI), clock, HeuristicAnalyzer().analyze, subscriptions=service)


def say_in(bot, text, user="U1", channel="C1"):  # type: ignore[no-untyped-def]
    return bot.handle(
        Message(text, platform="slack", channel=channel, user=user, workspace="T1")
    ).reply.plain_text()


def test_commands_parse_options_in_any_order():
    command = parse_command(
        "订阅 verl-project/verl 周一 09:30 tz=Europe/Berlin lang=en modules=megatron,fsdp "
        "min-importance=6 exclude-authors=dependabot[bot]"
    )
    assert command is not None and command.kind == "subscribe" and command.repo == "verl-project/verl"
    assert command.options == {
        "weekday": "周一",
        "time": "09:30",
        "tz": "Europe/Berlin",
        "lang": "en",
        "modules": "megatron,fsdp",
        "min-importance": "6",
        "exclude-authors": "dependabot[bot]",
    }
    assert parse_command("本周 verl 有哪些风险？") is None
    assert parse_command("Subscriptions").kind == "list"


def test_subscribe_confirms_what_was_stored_with_the_next_push(db):
    seed(db)
    bot = make_bot(db)
    reply = say_in(bot, "订阅 acme/widgets 周一 09:30 modules=megatron min-importance=6")
    assert "已订阅 acme/widgets：每周一 09:30（Asia/Shanghai）" in reply
    assert "模块 megatron" in reply and "重要性 ≥ 6.0" in reply
    assert "下次推送：2026-06-29 09:30 CST" in reply
    with db.session() as session:
        [row] = session.scalars(select(SubscriptionRow)).all()
        assert (row.weekday, row.time_of_day, row.filters["modules"]) == (1, "09:30", ["megatron"])
        assert [e.action for e in session.scalars(select(SubscriptionEventRow))] == ["subscribed"]


def test_english_subscribe_update_list_and_unsubscribe(db):
    seed(db)
    bot = make_bot(db)
    assert "Subscribed to acme/widgets: every Monday at 09:00 (Asia/Shanghai)" in say_in(
        bot, "subscribe widgets"
    )
    assert "Updated the subscription" in say_in(
        bot, "subscribe acme/widgets fri 17:00 tz=Europe/Berlin lang=en"
    )
    listing = say_in(bot, "subscriptions")
    assert "every Friday at 17:00 (Europe/Berlin)" in listing and "next push 2026-06-26 17:00 CEST" in listing
    assert say("sub.unsubscribed", "en", repo=REPO) in say_in(bot, "unsubscribe widgets")
    assert "no subscriptions yet" in say_in(bot, "subscriptions")


def test_questions_in_a_subscribed_channel_default_to_its_repo(db):
    seed(db)
    bot = make_bot(db)
    say_in(bot, "subscribe acme/widgets")
    answer = bot.handle(Message("上周有哪些风险？", platform="slack", channel="C1", workspace="T1"))
    assert answer.query.repo == REPO


def test_a_new_repo_is_validated_through_github_and_backfilled(db):
    seed(db)
    backfilled: list[str] = []
    bot = make_bot(db, validator=Validator({"acme/new"}), backfilled=backfilled)
    reply = say_in(bot, "订阅 acme/new")
    assert "正在后台回填最近 8 周" in reply and backfilled == ["acme/new"]
    assert "找不到仓库 acme/missing" in say_in(bot, "订阅 acme/missing")
    assert "无法通过 GitHub 验证" in say_in(
        make_bot(db, validator=Validator(set(), broken=True)), "订阅 acme/other"
    )


def test_admins_and_the_allowlist_are_enforced_and_audited(db):
    seed(db)
    policy = SubscriptionPolicy(
        "Asia/Shanghai", admins=frozenset({"UADMIN"}), allowed_repos=frozenset({REPO})
    )
    bot = make_bot(db, policy=policy, validator=Validator({"acme/other"}))
    assert "只有管理员" in say_in(bot, "订阅 acme/widgets", user="USOMEONE")
    assert "PRHUB_ALLOWED_REPOS" in say_in(bot, "订阅 acme/other", user="UADMIN")
    assert "已订阅" in say_in(bot, "订阅 acme/widgets", user="UADMIN")
    with db.session() as session:
        actions = [(e.action, e.detail.get("reason")) for e in session.scalars(select(SubscriptionEventRow))]
    assert actions == [("refused", "permission"), ("refused", "allowlist"), ("subscribed", None)]


@pytest.mark.parametrize(
    "text",
    [
        "订阅 acme/widgets 周八",
        "subscribe acme/widgets tz=Mars/Base",
        "订阅 acme/widgets 25:99",
        "subscribe acme/widgets min-importance=11",
        "subscribe acme/widgets lang=fr",
    ],
)
def test_bad_options_are_refused_naming_them(db, text):
    seed(db)
    reply = say_in(make_bot(db), text)
    assert "看不懂" in reply or "can't read" in reply
    with db.session() as session:
        assert session.scalars(select(SubscriptionRow)).all() == []


@pytest.mark.parametrize(
    "name",
    [
        "../../rate_limit",
        "torvalds/linux/../../verl-project/verl",
        "verl-project/verl?x=1",
        "https://github.com/acme/new/../../x",
        "acme/..",
        "acme/<!channel>",
    ],
)
def test_names_that_are_not_github_repos_are_refused_before_github_is_asked(db, name):
    seed(db)
    validator = Validator({"acme/new", "rate_limit", "verl-project/verl"})
    reply = say_in(make_bot(db, validator=validator), f"subscribe {name}")
    assert "is not a GitHub repo name" in reply or "不是 GitHub 仓库名" in reply
    assert validator.asked == []
    with db.session() as session:
        assert session.scalars(select(SubscriptionRow)).all() == []


def test_the_allowlist_refusal_does_not_reveal_the_allowed_repos(db):
    seed(db)
    policy = SubscriptionPolicy("Asia/Shanghai", allowed_repos=frozenset({REPO, "secret/internal"}))
    reply = say_in(make_bot(db, policy=policy, validator=Validator({"acme/other"})), "subscribe acme/other")
    assert "PRHUB_ALLOWED_REPOS" in reply
    assert "secret/internal" not in reply and REPO not in reply


@pytest.mark.parametrize(
    "option",
    [
        "modules=" + ",".join(f"m{i}" for i in range(3000)),
        "exclude-authors=" + ",".join(f"bot{i}" for i in range(51)),
        "modules=" + "x" * 101,
    ],
)
def test_oversized_filters_are_refused_and_nothing_is_stored(db, option):
    seed(db)
    reply = say_in(make_bot(db), f"subscribe {REPO} {option}")
    assert "can't read" in reply
    assert len(reply) < 500
    with db.session() as session:
        assert session.scalars(select(SubscriptionRow)).all() == []


def test_filters_within_the_caps_are_kept(db):
    seed(db)
    modules = ",".join(f"m{i}" for i in range(50))
    reply = say_in(make_bot(db), f"subscribe {REPO} modules={modules}")
    assert "can't read" not in reply
    with db.session() as session:
        [row] = session.scalars(select(SubscriptionRow)).all()
        assert len(row.filters["modules"]) == 50


def test_a_channel_with_several_subscriptions_is_answered_across_its_own_repos(db):
    seed(db)
    with db.session() as session:
        index = PRIndex(session)
        for name in ("acme/gadgets", "acme/other"):
            index.ensure_repo(name, NOW)
    bot = make_bot(db, validator=Validator({REPO, "acme/gadgets"}))
    say_in(bot, f"订阅 {REPO}")
    say_in(bot, "订阅 acme/gadgets")

    here = say_in(bot, "本周有哪些风险？")
    elsewhere = say_in(bot, "本周有哪些风险？", channel="C2")
    assert say("qa.across.title", "zh", n=2, repos=f"acme/gadgets、{REPO}") in here
    assert "acme/other" in elsewhere and "acme/other" not in here
