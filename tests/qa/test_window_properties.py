"""Properties of the windows questions name, at any "now": a window never starts after now (but for the
next week, which the bot answers as not begun), what the bot reads never ends after now, 上周三 and
"last Friday" are one day of the right weekday, and month names map to their months."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from chatbot.qa.parse import KnownRepo, ParseContext, parse_query

TZ = ZoneInfo("Asia/Shanghai")
NOWS = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2027, 12, 31)).map(
    lambda moment: moment.replace(tzinfo=UTC).astimezone(TZ)
)
CN_MONTHS = "一二三四五六七八九十"
ZH_WEEKDAYS = "一二三四五六日"
N = st.integers(min_value=1, max_value=12)
# fmt: off
PHRASES = st.one_of(
    st.sampled_from(
        [
            "本周",
            "上周",
            "上上周",
            "本月",
            "上个月",
            "今年",
            "去年",
            "昨天",
            "前天",
            "今天",
            "最近",
            "this week",
            "last week",
            "this month",
            "last month",
            "this year",
            "last year",
            "yesterday",
            "today",
            "recently",
            "past week",
        ]
    ),
    N.map(lambda n: f"{n}月"),
    N.map(lambda n: f"去年 {n} 月"),
    N.map(lambda n: f"in {calendar.month_name[n]}"),
    N.map(lambda n: f"since {calendar.month_name[n]} 3"),
    N.map(lambda n: f"自 {n} 月 2 日以来"),
    N.map(lambda n: f"最近 {n} 天"),
    N.map(lambda n: f"past {n} weeks"),
    N.map(lambda n: f"{n}/1-{n}/9"),
    N.map(lambda n: f"{n}月1日到{n}月7日"),
    st.integers(min_value=1, max_value=52).map(lambda n: f"W{n}"),
    st.integers(min_value=1, max_value=52).map(lambda n: f"第 {n} 周"),
    st.sampled_from(ZH_WEEKDAYS).map(lambda d: f"上周{d}"),
    st.sampled_from(ZH_WEEKDAYS).map(lambda d: f"周{d}"),
    st.sampled_from(list(calendar.day_name)).map(lambda d: f"last {d}"),
    N.map(lambda n: f"{n}月上旬"),
    N.map(lambda n: f"{n}月中旬"),
    N.map(lambda n: f"{n}月下旬"),
    N.map(lambda n: f"{n}月初"),
    N.map(lambda n: f"{n}月底"),
    N.map(lambda n: f"early {calendar.month_name[n]}"),
    N.map(lambda n: f"mid-{calendar.month_name[n]}"),
    N.map(lambda n: f"late {calendar.month_name[n]}"),
    st.sampled_from(["月初", "上个月底", "上个月中旬", "end of last month", "early this month"]),
)
# fmt: on
PARTS = {
    0: ("{m}月上旬", "{m}月初", "early {name}", "the beginning of {name}"),
    1: ("{m}月中旬", "mid-{name}", "mid {name}", "the middle of {name}"),
    2: ("{m}月下旬", "{m}月底", "{m}月末", "late {name}", "the end of {name}"),
}


def parse(text: str, now: datetime):  # type: ignore[no-untyped-def]
    return parse_query(text, ParseContext(now, TZ, (KnownRepo("huggingface/trl"),)))


@given(now=NOWS, phrase=PHRASES)
def test_a_window_starts_before_now_and_is_not_empty(now: datetime, phrase: str) -> None:
    query = parse(f"trl {phrase} 有哪些改动", now)
    assert query.terms == ()  # a window's words are never searched
    window = query.window
    if window is None:  # W53 of a year without one, 2 月 30 日: no window rather than a wrong one
        return
    assert window.start < window.end
    seen_end = min(window.end, now)  # what the bot reads (chatbot/bot.py)
    assert window.start <= seen_end


@given(now=NOWS, day=st.sampled_from(ZH_WEEKDAYS))
def test_last_weeks_weekday_is_that_one_day_of_last_week(now: datetime, day: str) -> None:
    window = parse(f"trl 上周{day}合并了什么", now).window
    assert window is not None
    assert window.end - window.start == timedelta(days=1)
    assert window.start.weekday() == ZH_WEEKDAYS.index(day)
    this_monday = now.date() - timedelta(days=now.weekday())
    assert this_monday - timedelta(days=7) <= window.start.date() < this_monday


@given(now=NOWS, day=st.sampled_from(list(calendar.day_name)))
def test_last_friday_is_the_latest_such_day_before_today(now: datetime, day: str) -> None:
    window = parse(f"what did trl merge last {day}?", now).window
    assert window is not None
    assert window.end - window.start == timedelta(days=1)
    assert calendar.day_name[window.start.weekday()] == day
    assert now.date() - timedelta(days=7) <= window.start.date() < now.date()


@given(now=NOWS, month=N)
def test_month_names_map_to_their_months_in_both_languages(now: datetime, month: int) -> None:
    phrases = [
        f"trl {month}月的改动",
        f"trl {CN_MONTHS[month - 1] if month <= 10 else '十' + CN_MONTHS[month - 11]}月份的改动",
        f"what did trl merge in {calendar.month_name[month]}?",
    ]
    for phrase in phrases:
        window = parse(phrase, now).window
        assert window is not None, phrase
        assert (window.start.month, window.start.day, window.start.hour) == (month, 1, 0), phrase
        assert (window.end - timedelta(days=1)).month == month, phrase
        assert window.start <= now, phrase  # a month not yet begun this year is last year's


@given(now=NOWS, month=N, part=st.sampled_from(sorted(PARTS)))
def test_a_part_of_a_month_is_its_third_of_that_month(now: datetime, month: int, part: int) -> None:
    whole = parse(f"trl {month}月的改动", now).window
    assert whole is not None
    first, end = ((1, 11), (11, 21), (21, None))[part]
    if whole.start.replace(day=first) > now:  # a part not yet begun is last year's, as for a month
        whole = parse(f"trl {whole.start.year - 1} 年 {month} 月的改动", now).window
        assert whole is not None
    for form in PARTS[part]:
        phrase = form.format(m=month, name=calendar.month_name[month])
        query = parse(f"what did trl merge in {phrase}?", now)
        window = query.window
        assert window is not None, phrase
        assert query.terms == (), phrase
        assert window.start == whole.start.replace(day=first), phrase
        assert window.end == (whole.end if end is None else whole.start.replace(day=end)), phrase
