"""Follow-ups: a question asked in a conversation (a thread, a direct chat, `prhub chat`) is read
against the conversation's last question. "那上上周呢？", "那 fsdp 呢？", "and the week before?",
"only the breaking ones" change one slot and keep the others; "第二个讲了什么" and "展开 #6512" open a PR of
the last answer, and the list it came from stays the conversation's ("第三个", "只看 megatron 的"). The last
question is stored as JSON (`query_to_dict`, with the list under LISTED) in the conversations table."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from datetime import datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from chatbot.messages import Language, join, say
from chatbot.qa.parse import cn_number
from chatbot.qa.query import INTENTS, Query, Window
from chatbot.weeks import Week

# Words that mark a question as a continuation of the last one.
_FOLLOW_UP = re.compile(
    r"^\s*(?:那|那么|那如果|还有|再看看?|换成|改成|只看|只要|仅看|and\b|what about|how about|only\b|just\b|same for)"
    r"|(?:呢|怎么样|如何)\s*[?？。!！]?\s*$|\bthe (?:same|ones?)\b|只看|只要"
    # "which of those have no tests", "其中哪些是破坏性的": the last answer's PRs, narrowed
    r"|\b(?:of|among) (?:those|these|them)\b|其中|这些(?:里|中|当中|里面)|它们(?:中|里|当中)|里面哪些"
)
# A follow-up that narrows the last answer ("只看修复", "only the fixes", "其中哪些是破坏性的"): what it names is
# added to the last question's subject, which stays ("GRPO 相关的 PR" then "只看修复": GRPO's fixes).
_NARROWS = re.compile(
    r"^\s*(?:那\s*)?(?:只看|只要|仅看|只留|只有|only|just)\b|只看|只要|\bonly\b"
    r"|\b(?:of|among) (?:those|these|them)\b|其中|这些(?:里|中|当中|里面)|它们(?:中|里|当中)|里面哪些"
)
# Who wrote the last answer's PRs ("who wrote them?", "谁写的这些", "这些都是谁写的", "作者都是谁"): its people.
_WHO_OF_THE_LIST = re.compile(
    r"\bwho (?:wrote|authored|made|did|opened|sent|merged)\s+(?:them|those|these|all (?:of )?(?:them|those|these))\b"
    r"|\bwho (?:are|were) (?:the|their) authors\b|\b(?:their|the) authors\b"
    r"|谁(?:写|提|做|改|合)的(?:这些|那些)|(?:这些|那些|它们)\s*(?:pr)?\s*(?:都)?是谁(?:写|提|做|改|合)?的?"
    r"|作者(?:都|分别)是谁|作者们?都?有谁"
)
# "the week before" in a follow-up is the week before the last question's window, not before now.
_WINDOW_BEFORE = re.compile(
    r"the week before|the previous (?:week|one)|week before that|前一周|再往前一?周|再前一周|之前一周|更早一周"
)
_ORDINAL_EN = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_ORDINAL = re.compile(
    r"第\s*([零〇一二两三四五六七八九十百千\d]+)\s*(?:个|条|项|篇)"
    r"|\b(?:the )?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last) (?:one|pr|item|change)\b"
    r"|\b(?:number|no\.)\s*(\d{1,2})\b|\bthe (\d{1,2})(?:st|nd|rd|th) (?:one|pr|item|change)\b"
    r"|(最后)\s*(?:一|那)?\s*(?:个|条|项|篇)"
)
# A follow-up that only asks for the last answer in the other language ("and in English?", "用中文说").
_IN_LANGUAGE = re.compile(
    r"^\s*(?:(?:and|now|again|same|but|please|pls|can you|could you)\s+)*(?:(?:say|answer|reply|give|show|write)"
    r"(?: (?:it|that|me|this))*\s+)?(?:in|into)?\s*(english|chinese|中文|英文)(?:\s+(?:please|pls|version|too))*"
    r"\s*[?？。!！.]*\s*$"
    r"|^\s*(?:那|请|麻烦)?(?:用|换成|改成|切换到|翻译成|给我)?\s*(中文|英文|英语|汉语)\s*(?:说|回答|版|版本|讲|再说一遍|回复|呢)?(?:一下|一遍|吧)?\s*[?？。!！]*\s*$",
    re.IGNORECASE,
)
_LANGUAGES = {"english": "en", "英文": "en", "英语": "en", "chinese": "zh", "中文": "zh", "汉语": "zh"}
# Intents a question settles by itself; the others (a topic, a bare window) keep the last question's.
_EXPLICIT_INTENTS = frozenset(("risks", "must_read", "stats", "compare", "report", "author", "search"))
SUBJECT = (
    "modules",
    "topics",
    "terms",
    "understood",
    "alternatives",
    "paths",
    "author",
    "change_types",
    "alternative_types",
)


# The key of a stored PR question holding the list question it was opened from, and that list's PRs.
LISTED = "listed"
# The key of a stored question holding the people its answer ranked, first first.
PEOPLE = "people"
# One of the people the last answer ranked: "the top one", "the top author", "the second person",
# "第一个人", "第一名", "排第二的", "他" (the first); `_person_position` reads which.
_PERSON = re.compile(
    r"\b(?:the )?(?P<en>top|first|second|third|fourth|fifth|last) (?:one|person|guy|author|contributor|name)\b"
    r"|\b(?:the )?(?P<top>top|most active) (?:one|person|author|contributor)\b"
    r"|第\s*(?P<zh>[一二三四五12345])\s*(?:个人|位|名)|排(?:名)?(?:在)?第\s*(?P<rank>[一二三四五12345])"
    r"|(?P<last>最后)\s*(?:一)?\s*(?:个人|位|名)|(?P<pronoun>他|她|\bta\b|\b(?:he|she|him|her|they|them)\b)"
)
_PERSON_ORDINALS = {"top": 1, **_ORDINAL_EN}


def listed_from(remembered: dict[str, Any], cited: tuple[int, ...]) -> dict[str, Any] | None:
    """What a PR opened after the remembered question keeps as its list: the remembered question itself
    when it listed PRs, or the list a remembered PR question was itself opened from."""
    if remembered.get("intent") != "pr":
        return {"query": {k: v for k, v in remembered.items() if k != LISTED}, "cited": list(cited)}
    kept = remembered.get(LISTED)
    return kept if isinstance(kept, dict) else None


def people_of(remembered: dict[str, Any]) -> tuple[str, ...]:
    """The people stored with a question (`PEOPLE`), first first."""
    kept = remembered.get(PEOPLE)
    return tuple(str(name) for name in kept) if isinstance(kept, list) else ()


def _person_position(text: str) -> int | None:
    """Which of the last answer's people a follow-up asks about (1 = the first, -1 = the last), or None
    when it names none."""
    m = _PERSON.search(text.lower())
    if m is None:
        return None
    if m["en"] == "last" or m["last"]:
        return -1
    if m["top"] or m["pronoun"]:
        return 1
    word = m["en"] or m["zh"] or m["rank"] or ""
    return _PERSON_ORDINALS.get(word) or cn_number(word)


def listed_query(remembered: dict[str, Any]) -> tuple[Query, tuple[int, ...]] | None:
    """The list question stored with a PR question (`listed_from`), read back."""
    kept = remembered.get(LISTED)
    if not isinstance(kept, dict) or not isinstance(kept.get("query"), dict):
        return None
    query = query_from_dict(kept["query"])
    try:
        cited = tuple(int(n) for n in kept.get("cited", ()))
    except (TypeError, ValueError):
        return None
    return (query, cited) if query is not None else None


def query_to_dict(query: Query) -> dict[str, Any]:
    """The query as JSON-ready data (windows as ISO dates and their week)."""
    data: dict[str, Any] = {}
    for f in fields(query):
        value = getattr(query, f.name)
        if isinstance(value, Window):
            value = {
                "start": value.start.isoformat(),
                "end": value.end.isoformat(),
                "week": [value.week.year, value.week.week, str(value.week.tz)] if value.week else None,
            }
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def query_from_dict(data: dict[str, Any]) -> Query | None:
    """The query stored by `query_to_dict`, or None when it cannot be read back (an older shape)."""
    try:
        values: dict[str, Any] = {}
        for f in fields(Query):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in ("window", "baseline") and value is not None:
                week = value.get("week")
                value = Window(
                    datetime.fromisoformat(value["start"]),
                    datetime.fromisoformat(value["end"]),
                    Week(int(week[0]), int(week[1]), ZoneInfo(week[2])) if week else None,
                )
            elif isinstance(value, list):
                value = tuple(value)
            values[f.name] = value
        query = Query(**values)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return query if query.intent in INTENTS else None


def _position(text: str) -> int | None:
    """The position in the last answer's list a "第二个" / "the second one" / "最后一个" asks for (-1:
    the last), or None when the question names none."""
    m = _ORDINAL.search(text)
    if not m:
        return None
    if m.group(2) == "last" or m.group(5):
        return -1
    number = m.group(1) or m.group(3) or m.group(4)
    return cn_number(number) if number else _ORDINAL_EN.get(m.group(2) or "")


def is_follow_up(text: str, current: Query) -> bool:
    """Whether the question continues the last one: it says so ("那…呢", "and …?", "only …"), or it
    names no repo and asks nothing of its own beyond a window or a filter ("上上周", "哪个最重要"; not "上周
    合了什么", which asks for a span's changes whatever was asked before)."""
    if _FOLLOW_UP.search(text.strip()) or _WINDOW_BEFORE.search(text.lower()):
        return True
    # Without such a word, a question the rules could not place ("what is the weather") is not one.
    return (
        not current.repo_named
        and current.intent in ("highlights", "topic")
        and not (current.intent == "highlights" and current.confidence >= 1.0 and current.window_named)
        and (
            current.window_named
            or current.maintainers  # "谁写的最多": of the last answer's PRs
            or current.breaking
            or current.untested
            or current.semantics
            or current.limit is not None
            or any(getattr(current, name) for name in SUBJECT)
        )
    )


# "它的风险呢", "what about its tests": a follow-up about the PR just opened, not the list it came from.
_ABOUT_IT = re.compile(r"它|这个\s*pr|这个改动|该\s*pr|\bits?\b|\bthis (?:one|pr)\b|\bthat (?:one|pr)\b")
# What one asks of a PR without naming it, as Chinese drops the pronoun ("谁写的", "有测试吗", "风险大吗",
# "什么时候合并的", "who's the author?"): after a PR's card, about that PR when nothing else is named.
_OF_A_PR = re.compile(
    r"谁(?:写|提|做|改|合)的|作者|有(?:没有)?(?:加)?测试|测试(?:了|过)?吗|风险(?:大|高)?吗|有(?:什么|哪些)风险"
    r"|值得(?:精?读|看)吗|什么时候合(?:并|进)?的|何时合并|合并时间|改了(?:哪些文件|什么)|讲了什么|是做什么的|破坏性吗"
    r"|\bwho (?:wrote|authored|made|did|opened|sent)\b|\bwho'?s the author\b|\bauthor\b|\bwhen was (?:it |this )?merged\b"
    r"|\bany tests\b|\btested\b|\brisky\b|\bworth (?:reading|a read)\b|\bbreaking\?"
)


# What may surround a question asked of a PR ("作者是谁？", "was it tested?") without naming anything else.
_FILLER = re.compile(
    r"[\W_]+|是谁|谁|是|吗|呢|的|了|么|\b(?:is|was|the|it|this|who|what|any|there|does|did|has)\b"
)


def _only_asks_of_a_pr(current: Query) -> bool:
    """Whether the question asks something of a PR (`_OF_A_PR`) and names nothing else: no window, and
    no words beyond the asking."""
    text = current.text.lower()
    return (
        not current.window_named
        and _OF_A_PR.search(text) is not None
        and not _FILLER.sub("", _OF_A_PR.sub("", text))
    )


def _narrowed(kept: Any, added: Any) -> Any:
    """One subject slot of a narrowing follow-up: the last question's words and the new ones (both must
    match), or the new author in place of the old."""
    if isinstance(kept, tuple):
        return tuple(dict.fromkeys((*kept, *added)))
    return added or kept


def _asks_who_wrote_the_list(current: Query) -> bool:
    """Whether the question only asks who wrote the last answer's PRs (`_WHO_OF_THE_LIST`)."""
    text = current.text.lower()
    return _WHO_OF_THE_LIST.search(text) is not None and not _FILLER.sub("", _WHO_OF_THE_LIST.sub("", text))


def _only_names(text: str, person: str) -> bool:
    """Whether a follow-up names `person` and asks nothing else ("那 bob 呢？", "what about alice?")."""
    return not _FILLER.sub("", _FOLLOW_UP.sub("", text.replace(person.lower(), " ")))


def _review_kept(previous: Query, current: Query, intent: str) -> tuple[Any, str | None]:
    """What a follow-up asks about reviews: what it says itself, else the last question's while it asks
    nothing else ("谁审的 PR 最多" then "那上周呢？" still ranks reviewers; then "kashif 写了哪些" does not)."""
    if current.review is not None:
        return current.review, current.reviewer
    if previous.review == "by" and current.author and _only_names(current.text.lower(), current.author):
        return previous.review, previous.reviewer  # "那 bob 呢", "and alice?": another person's reviews
    if previous.review is not None and (intent == previous.intent or current.intent not in _EXPLICIT_INTENTS):
        return previous.review, previous.reviewer
    return None, None


def ordinal_missing(listed: tuple[int, ...], position: int, language: Language) -> str:
    """What to say when a follow-up asks for a position ("第二个") the last answer's list lacks."""
    if not listed:
        return say("qa.ordinal.none", language, position=position)
    prs = join((f"#{n}" for n in listed), language)
    key = "qa.ordinal.missing.one" if len(listed) == 1 else "qa.ordinal.missing"
    return say(key, language, n=len(listed), prs=prs, position=position)


def follow_up(
    previous: Query,
    cited: tuple[int, ...],
    current: Query,
    listed: tuple[Query, tuple[int, ...]] | None = None,
    people: tuple[str, ...] = (),
) -> Query:
    """`current` read in the conversation whose last question was `previous` (its answer cited
    `cited`): the slots `current` sets replace the previous ones, the others are kept. `listed` is the
    list question a PR was opened from ("第二个讲了什么"): "第三个" and "只看 megatron 的" after it are
    about that list, not the one PR. `people` are those the last answer ranked: "the top one" and
    "第二个人" after it ask for that person's PRs over the last question's window and subject."""
    text = current.text
    asked = _IN_LANGUAGE.match(text)
    if asked:
        language = _LANGUAGES[(asked.group(1) or asked.group(2)).lower()]
        return replace(previous, language=cast(Language, language), notes=())
    if previous.intent == "pr" and current.pr_number is None and not current.repo_named:
        if (_ABOUT_IT.search(text.lower()) or _only_asks_of_a_pr(current)) and not _ORDINAL.search(text):
            # its risks, its tests, who wrote it: the PR's card answers them all
            return replace(
                previous, text=text, language=current.language, notes=(), asks_files=current.asks_files
            )
        if listed is not None and (_ORDINAL.search(text) or is_follow_up(text, current)):
            previous, cited = listed
    person = _person_position(text) if people and current.pr_number is None and not current.author else None
    if person is not None and (person == -1 or 1 <= person <= len(people)):
        return replace(
            previous,
            text=text,
            language=current.language,
            intent="author",
            author=people[person - 1 if person > 0 else -1],
            window=current.window if current.window_named else previous.window,
            window_named=current.window_named or previous.window_named,
            authors=(),
            maintainers=False,
            newcomers=False,
            asks_who=False,
            review=None,
            reviewer=None,
            limit=None,
            busiest=None,
            notes=(),
            confidence=1.0,
        )
    position = _position(text) if current.pr_number is None else None
    if position is not None:
        if not cited or (position != -1 and not 1 <= position <= len(cited)):
            # The last answer has no such position: the answer says what it had (and the
            # conversation keeps it).
            return replace(current, intent="help", missing_from=cited, position=position)
        return replace(
            current,
            intent="pr",
            pr_number=cited[position - 1 if position > 0 else -1],
            repo=previous.repo,
            repo_candidates=(),
            terms=(),
            understood=(),
        )
    if current.intent in ("help",) or current.unknown_repo:
        return current
    if previous.intent not in ("pr", "help", "unknown") and _asks_who_wrote_the_list(current):
        # the people of the last answer's PRs, over the same question
        return replace(
            previous, text=text, language=current.language, maintainers=True, asks_who=True, notes=()
        )
    repo = current.repo if current.repo_named else previous.repo or current.repo
    if current.intent == "pr":
        return replace(current, repo=repo, repo_candidates=() if repo else current.repo_candidates)
    if not is_follow_up(text, current):
        # A new question in the same conversation: it keeps the conversation's repo when it names none.
        if current.repo is None and current.intent != "unknown" and previous.repo:
            return replace(current, repo=previous.repo, repo_candidates=())
        return current
    window, window_named = previous.window, previous.window_named
    if _WINDOW_BEFORE.search(text.lower()) and previous.window is not None:
        window, window_named = previous.window.previous(), True
    elif current.window_named:
        window, window_named = current.window, True
    intent = previous.intent
    if current.intent in _EXPLICIT_INTENTS or (current.intent == "highlights" and current.confidence >= 1.0):
        intent = current.intent
    elif intent in ("help", "unknown", "pr") or current.maintainers:
        intent = current.intent if current.intent != "unknown" else "highlights"
    subject = current if any(getattr(current, name) for name in SUBJECT) else previous
    narrowed = {name: getattr(subject, name) for name in SUBJECT}
    if _NARROWS.search(text.lower()):
        narrowed = {name: _narrowed(getattr(previous, name), getattr(current, name)) for name in SUBJECT}
    review, reviewer = _review_kept(previous, current, intent)
    if review == "by" and current.review is None and current.author:
        # "alice review 了哪些 PR" then "那 bob 呢": bob's reviews, not bob's PRs
        intent, reviewer, narrowed["author"] = previous.intent, current.author, previous.author
    return replace(
        previous,
        text=text,
        language=current.language,
        intent=intent,
        repo=repo,
        repo_named=current.repo_named,
        unknown_repo=None,
        repo_candidates=() if repo else current.repo_candidates,
        window=window,
        window_named=window_named,
        # a comparison of another window ("compare may with april" then "and march?") is with the window
        # before it, unless the follow-up names what to compare it with
        baseline=current.baseline or (previous.baseline if window == previous.window else None),
        pr_number=None,
        breaking=current.breaking or previous.breaking,
        untested=current.untested or previous.untested,
        semantics=current.semantics or previous.semantics,
        # a people question stays one ("谁写的最多" then "那 megatron 呢") until another intent is asked
        maintainers=current.maintainers or (previous.maintainers and current.intent not in _EXPLICIT_INTENTS),
        newcomers=current.newcomers or (previous.newcomers and current.intent not in _EXPLICIT_INTENTS),
        asks_who=current.asks_who or previous.asks_who,
        limit=current.limit or previous.limit,
        asks_why=current.asks_why,
        # what the last question asked for besides its intent, while the intent stays
        upgrade=current.upgrade or (previous.upgrade and intent == previous.intent),
        # "只看高风险的", "only the must-reads": a filter of the same list, kept while the intent stays
        severity=current.severity or (previous.severity if intent == previous.intent else None),
        must_read_only=current.must_read_only or (previous.must_read_only and intent == previous.intent),
        order=current.order or (previous.order if intent == previous.intent else None),
        review=review,
        reviewer=reviewer,
        confidence=1.0,
        **narrowed,
    )
