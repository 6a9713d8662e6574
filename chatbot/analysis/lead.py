"""What the author wrote up front, read as key points: the opening sentences of the purpose sections,
bold lead bullets and listed changes, and measured results ("78 GB → 63 GB", "12.4 s → 7.9 s (−36%)").

Everything here is quoted from the PR's own description, never reworded; a sentence that names a file
the PR does not change is left out, so a key point never claims something about code outside the diff."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from chatbot.analysis.boilerplate import Block, CleanBody, Section, clean_body, plain_text

# Sections whose opening states what the PR does and why; the preamble (no heading) counts too.
_PURPOSE_HEADING = re.compile(
    r"what|why|purpose|summary|motivation|overview|description|background|problem|context|tl;?dr|"
    r"目的|动机|背景|概述|简介|说明|问题|内容",
    re.I,
)
# Sections listing the changes (their items are key points when they are not bold leads already).
_CHANGES_HEADING = re.compile(
    r"changes|what does this pr do|summary|solution|modifications|implementation|改动|修改|变更|实现",
    re.I,
)
# Sections that are not about what changed: how to test, how to use, who reviews.
# A plan for later work ("Follow-up", "Future work", "Next steps", "后续计划") is about other changes.
_ASIDE_HEADING = re.compile(
    r"test|usage|example|how to|api|checklist|screenshot|related|reference|review|benchmark script|"
    r"\bfollow[- ]?ups?\b|\bfuture\b|\bnext steps?\b|\btodos?\b|\broadmap\b|\bplans?\b|"
    r"测试|用法|示例|使用|后续|计划|待办|未来",
    re.I,
)
# A sentence that says what the PR does opens with "This PR…", "We…", "本 PR 为…" (this prefix), or with
# the verb of a change ("Adds a `max_completion_length` option…", "Pads the completions…", "把 encode 移到…").
ACTION_PREFIX = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)(?: also)?\s+|we\s+|本\s*pr\s*|该\s*pr\s*|此\s*pr\s*|"
    r"这个\s*pr\s*)(?=\w)",
    re.I,
)
# English verbs count capitalised, as a sentence opens ("Adds…", "Added…"; "run clashed…" opens with a
# name). Verbs that are as often nouns ("Stream", "Cache", "Log", "Run") say an action only capitalised and
# before a word that opens what they act on ("Stream large responses…", "Cache each route…").
_ACTION_VERB = re.compile(
    r"^(?:[Aa]dd|[Ff]ix|[Ii]ntroduce|[Ii]mplement|[Ss]upport|[Ee]nable|[Aa]llow|[Mm]ake|[Mm]ove|[Rr]emove|"
    r"[Rr]eplace|[Rr]efactor|[Uu]pdate|[Aa]void|[Pp]revent|[Rr]educe|[Ii]mprove|[Ee]xtend|[Ee]xpose|"
    r"[Rr]ename|[Ss]witch|[Dd]eprecate|[Uu]nif(?:y|ie)|[Ss]implif(?:y|ie)|[Oo]ptimi[sz]e|[Bb]ump|"
    r"[Uu]pgrade|[Hh]andle|[Ee]nsure|[Mm]igrate|[Pp]ort|[Cc]onvert|[Dd]elete|"
    r"[Cc]orrect|[Rr]estore|[Rr]evert|[Ss]peed up|[Cc]lean up|[Rr]egister|[Ii]ntegrate|[Pp]rovide|"
    r"Reuse|Summon|Paralleli[sz]e|Validate|Reject|Retry|Initiali[sz]e|Extract|Guard|Wrap|Read|Write|Load|"
    r"Save|Return|Skip|Keep|Pass|Use|Compute)"
    r"(?:e?s|e?d)?\b(?! (?:is|are|was|were|has|had)\b)|"
    r"^(?:[Dd]rop|[Pp]in|[Ss]plit|[Pp]ad)(?:s|ped|ned|ded)?\b(?! (?:is|are|was|were|has|had)\b)|"
    r"^(?:Stream|Cache|Log|Batch|Poll|Probe|Flush|Shard|Gather|Sync|Fuse|Overlap|Limit|Cap|Free|Release|"
    r"Filter|Mask|Check|Set|Call|Run)(?:s|e?d|ped)? (?=(?:the|a|an|each|every|all|its|their|them|it|this|"
    r"these|those|large|small|both|only|per|back|up|out|away)\b)|"
    r"^(?:新增|增加|添加|支持|修复|修正|优化|重构|移除|删除|去掉|去除|引入|补充|更新|升级|改为|改用|替换|统一|"
    r"简化|实现|允许|避免|将|把|让|使)",
)
# A sentence that says what the change gets its users: a saving, a failure it ends, what it lets them do
# ("Saves one runner per workflow run", "This cuts startup from 40 s to 12 s", "As a result, …", "… no
# longer hangs when…", "可将显存峰值降低约 12 GB", "从而避免…"). After a list of changes it is the reason for
# them, not a gloss.
_EFFECT = re.compile(
    r"^(?:as a result|this way|thanks to this|overall|(?:with|after) this (?:change|pr|fix|patch))\b|"
    r"^(?:(?:this|that|it|which|doing so)(?: (?:change|pr|fix|patch))?(?: also| now)?\s+)?"
    r"(?:sav(?:e|es|ing)|cut(?:s|ting)?|shorten(?:s|ing)?|lower(?:s|ing)?|halv(?:e|es|ing)|speed(?:s|ing)? up|"
    r"reduc(?:e|es|ing)|avoid(?:s|ing)?|prevent(?:s|ing)?|eliminat(?:e|es|ing)|free(?:s|ing)?|stop(?:s|ping)?|"
    r"let(?:s|ting)?|allow(?:s|ing)?|enabl(?:e|es|ing)|mak(?:e|es|ing)|brings?|improv(?:e|es|ing)|"
    r"keeps?|ensur(?:e|es|ing))\b|\bno longer\b"
    r"|^(?:可|可以|能够|从而|这样|由此|使得|以便|节省|降低|减少|提升|提高|加快|避免|防止|不再|减小|缩短)",
    re.I,
)
# A sentence that leans on what the reader was told before it: its verb's object is "the same …" ("Adds the
# same guard to the VeOmni engine"), it opens with "Similarly"/"同样", it points "above", or its subject is a
# piece of another issue ("Fixes the VeOmni case of #5995"). Quoted alone, as a gist or a key point, it says
# nothing; "keeps handles on the same physical GPU", "uses the same format as upstream", "the same seed on
# every rank" stand alone.
_LEANS_ON_CONTEXT = re.compile(
    r"^(?:(?:this (?:pr|change|patch)|we|it)\s+)?(?:also\s+)?[A-Za-z]+\s+(?:the same|a similar|similar)\b"
    r"(?![^.;,]*\b(?:as|than|across|between|every|all|each|both)\b)|"
    r"^(?:similarly|likewise|same (?:as|for|here))\b|\b(?:above[- ]mentioned|mentioned above|as above|the above)\b|"
    r"\b(?:case|cases|part|rest|half|remainder) of (?:issue |pr )?(?:[\w.-]+/[\w.-]+)?#\d+|"
    r"^(?:同样|类似地|同理|如上|上述)|同上",
    re.I,
)
# The part of a sentence read for that: what a gist or key point shows of it.
CONTEXT_CHARS = 120
# A sentence that only greets or thanks the reader.
_GREETING = re.compile(
    r"^(?:hi|hello|hey|dear|greetings|thanks?|thank you)\b[^.!?]{0,30}[.!?,]?$|^(?:大家好|各位好|你好|您好|感谢)[^。！？]{0,12}[。！？，]?$",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])|(?<=[。！？；])")
_BOLD_LEAD = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\*\*([^*\n]{2,80}?)\*\*\s*([:：.\-—–]*)\s*(.*)$", re.S)
_URL = re.compile(r"https?://\S+")
_ISSUE_ONLY = re.compile(
    r"^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related(?: to)?|ref(?:s|erence)?|part of|follow[- ]?up"
    r"(?: (?:of|to))?|see|cc|depends on|stacked on)\b[\s:#\d,]*|#\d+[\s,]*)+$",
    re.I,
)
# A reference to another PR or issue (`#5297`, `owner/repo#12`, a pull or issue URL), and the words that
# only say how a PR relates to others ("based on", "follow-up work for", "wait for … to review first"):
# a sentence of references and these words says nothing about the change itself.
REFERENCE = re.compile(
    r"(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+|(?<![\w.])@[A-Za-z0-9][\w-]*|\b(?:pr|issue)\s?\d+\b", re.I
)
_RELATION_WORDS = frozenset(
    [
        "a",
        "also",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "based",
        "before",
        "by",
        "cc",
        "close",
        "closes",
        "depends",
        "first",
        "follow",
        "follow-up",
        "followup",
        "for",
        "from",
        "in",
        "is",
        "issue",
        "issues",
        "it",
        "of",
        "on",
        "one",
        "other",
        "others",
        "part",
        "please",
        "pr",
        "prs",
        "previous",
        "pull",
        "related",
        "relevant",
        "request",
        "requests",
        "review",
        "reviewed",
        "reviewing",
        "see",
        "since",
        "some",
        "stacked",
        "that",
        "the",
        "there",
        "these",
        "this",
        "to",
        "up",
        "wait",
        "waiting",
        "with",
        "work",
        # what a reference is for: "See URL for details", "This resolves issue URL", "Fix the issue URL",
        # "Implementation refers to URL", "Waiting for testing from @x", "Thanks @x for the help"
        "address",
        "addresses",
        "addressed",
        "details",
        "detail",
        "resolve",
        "resolves",
        "resolved",
        "refer",
        "refers",
        "per",
        "mentioned",
        "described",
        "discussed",
        "comment",
        "comments",
        "thanks",
        "thank",
        "you",
        "ping",
        "here",
        "info",
        "information",
        "link",
        "links",
        "docs",
    ]
)
# The same for a Chinese sentence: "详见 #12", "相关 issue：#12，请 @alice 帮忙看一下", "感谢 @bob".
_RELATION_HAN = re.compile(
    r"相关|参见|参考|详见|详情|见|请|帮忙|看一下|看看|感谢|谢谢|关联|跟进|后续|修复|解决|问题|引入|的|了|和|与|在|中"
)
# A file named in prose: a path with a directory or a known extension.
_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+|[\w-]+\.(?:py|pyi|yaml|yml|toml|json|sh|cfg|ini|md|rst|cu|cuh|cc|cpp|h|hpp|rs|go|ts|js))"
    r"(?![\w/-])"
)
_FILE_NAME = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}$")
_UNIT = (
    r"(?:%|x|×|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|GB|GiB|MB|MiB|KB|TB|TFLOPS|"
    r"tokens?/s|tok/s|it/s|samples?/s|steps?/s|倍|秒|分钟|小时)"
)
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
# "78 GB → 63 GB", "12.4s -> 7.9s (−36%)", "from 3.1 to 4.2 it/s", "由 78GB 降至 63GB".
_MEASURED_CHANGE = re.compile(
    rf"(?:from\s+|由\s*|从\s*)?{_NUMBER}\s?{_UNIT}?\s*(?:→|->|=>|⟶|➡️?|\bto\b|降至|降到|提升至|提升到|减少到|增加到|变为|到)\s*"
    rf"{_NUMBER}\s?{_UNIT}(?:\s*[(（]\s*[−–+-]?\s?{_NUMBER}\s?%\s*[)）])?",
    re.I,
)
_PERCENT_CLAIM = re.compile(
    rf"[−–+-]?{_NUMBER}\s?(?:%|x|×|倍)\s*(?:faster|speed-?up|less|lower|higher|more|fewer|reduction|"
    rf"improvement|throughput|memory|加速|提升|降低|减少)|"
    rf"(?:reduc\w*|cut\w*|sav\w*|improv\w*|speed\w*|increas\w*|lower\w*|降低|减少|提升|加速)[^.。\n\d]{{0,25}}?"
    rf"{_NUMBER}\s?(?:%|x|×|倍)",
    re.I,
)
_DIGIT = re.compile(r"\d")
_TABLE_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_CELL_NUMBER = re.compile(rf"^\s*({_NUMBER})\s?({_UNIT})?\s*$", re.I)
_BEFORE_AFTER = re.compile(
    r"before|after|baseline|base|main|old|new|this pr|w/o|without|with|原|优化|之前|之后", re.I
)
# A row that is the reference of a comparison, and the units of time, memory and throughput that make a
# table's figures measurements (in a cell, "0.27 s", or its column's heading, "time cost (s)").
_BASELINE_ROW = re.compile(r"baseline|\bbase\b|^no\b|before|\bmain\b|\bold\b|w/o|without|原|之前|基线", re.I)
_MEASURE_UNIT = re.compile(
    r"ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|GB|GiB|MB|MiB|KB|TB|TFLOPS|tokens?/s|tok/s|it/s|"
    r"samples?/s|steps?/s|秒|分钟|小时",
    re.I,
)
_HEADING_UNIT = re.compile(
    r"[(（\[]\s*(?:ms|s|sec|min|h|GB|GiB|MB|MiB|TB|GB/s|MB/s|TFLOPS|tokens?/s|tok/s|it/s|samples?/s)\s*[)）\]]",
    re.I,
)
_PROSE_WORD = re.compile(r"[A-Za-z][a-z]*(?:[-'][a-z]+)*")
_HAN_CHAR = re.compile(r"[\u4e00-\u9fff]")
# A lead sentence or listed item says something when it has this many words of prose, not only code.
PROSE_WORDS = 3
LEAD_SENTENCE_MIN_CHARS = 25
ITEM_MIN_CHARS = 12
MAX_LEAD_POINTS = 3
# The sentence saying what the PR does is looked for in the opening's paragraph and the one after it (a
# statement of the problem, then "This PR pads…").
ACTION_PARAGRAPHS = 2


@dataclass(frozen=True, slots=True)
class AuthorText:
    """The author's lead: the opening sentence, bold lead bullets and listed changes, and measured results,
    each a quote of the description (markup removed); `action` is the first sentence of prose that says
    what the PR does (the opening itself, or a later "This PR pads…" after a statement of the problem)."""

    opening: str | None
    items: tuple[str, ...]
    measured: tuple[str, ...]
    action: str | None = None
    # Without a paragraph that says what the PR does, the first listed change that does ("新增
    # `StartHealthChecks`，按固定间隔探测所有上游", "cache resolved routes per host…"): the gist's source.
    listed_action: str | None = None


def says_action(sentence: str) -> bool:
    """Whether a sentence says what the PR does: "This PR adds…", "本 PR 为…", "Adds…", "把…移到…"."""
    return bool(ACTION_PREFIX.match(sentence)) or _ACTION_VERB.match(sentence) is not None


def states_effect(sentence: str) -> bool:
    """Whether a sentence says what the change gets its users ("Saves one runner…", "This cuts…", "可将显存
    峰值降低…"), or reports a measured result."""
    return (
        _EFFECT.match(sentence) is not None
        or _MEASURED_CHANGE.search(sentence) is not None
        or _PERCENT_CLAIM.search(sentence) is not None
    )


def leans_on_context(sentence: str) -> bool:
    """Whether a sentence only makes sense after what came before it ("Adds the same guard to…"), as far
    as a gist or key point shows it."""
    return _LEANS_ON_CONTEXT.search(ACTION_PREFIX.sub("", sentence[:CONTEXT_CHARS], count=1)) is not None


def balanced(text: str) -> bool:
    """Whether every bracket opened in `text` is closed and its code spans are complete: a sentence or a
    clip may end there without cutting a parenthesis ("(Megatron sends through Ray; FSDP …)") in two."""
    opened = text.count("(") + text.count("（") + text.count("[") + text.count("【")
    closed = text.count(")") + text.count("）") + text.count("]") + text.count("】")
    return opened <= closed and text.count("`") % 2 == 0


def join_unbalanced(pieces: Iterable[str], separator: str = " ") -> list[str]:
    """Sentence pieces with each piece that ends inside brackets or a code span joined to the next."""
    merged: list[str] = []
    carry = ""
    for piece in pieces:
        carry = f"{carry}{separator}{piece}" if carry else piece
        if balanced(carry):
            merged.append(carry)
            carry = ""
    return [*merged, carry] if carry else merged


def _sentences(text: str) -> list[str]:
    pieces = [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]
    return join_unbalanced(pieces)


# A sentence that runs on into what the cleaning took out (a link or code block on the next line, a
# screenshot): it ends on words that introduce examples ("network errors like"), on a pointer at the
# removed thing ("see more here"), or on a word that needs an object ("which is used in", "bump x to").
_EXAMPLES_INTRO = re.compile(
    r"\s*[,，]?\s*(?:\b(?:like|such as|including|e\.g\.?|eg\.|i\.e\.?|for (?:example|instance)|as follows)"
    r"|例如|比如|如下)\s*[:：]?$",
    re.I,
)
_DANGLING = re.compile(
    r"(?<![\w&-])(?:in|at|from|to|of|by|with|on|into|via|see|the|a|an|than|per|is|are|was|were)\s*[:：]?$"
    r"|\bsee (?:more |the )?(?:here|below|above|details)\s*[:：]?$|(?:参考|参见|详见|位于)\s*[:：]?$",
    re.I,
)
# A last clause that points at what follows: a relative clause or a participle ("…, which is used in",
# "…, see more here", "…, as shown in", "…, used by").
_POINTING_CLAUSE = re.compile(
    r"(?:\s*[,;，；(（—–]\s*|\s+)(?=(?:which|that|where|see|as|used|shown|described|defined|mentioned|"
    r"introduced|implemented|discussed|proposed|explained|listed|found)\b)",
    re.I,
)
_ELLIPSIS = "…"


def _without_run_on(sentence: str) -> str | None:
    """`sentence` without a last clause that runs on into something the cleaning removed; None when it
    runs on and no such clause can be cut (what is left would not be the author's sentence)."""
    examples = _EXAMPLES_INTRO.search(sentence)
    if examples and examples.start() >= LEAD_SENTENCE_MIN_CHARS // 2:
        return sentence[: examples.start()]
    if not _DANGLING.search(sentence):
        return sentence
    starts = [m.start() for m in _POINTING_CLAUSE.finditer(sentence) if m.start() >= LEAD_SENTENCE_MIN_CHARS]
    kept = sentence[: starts[0]].rstrip(" ,;，；") if starts else ""
    return kept if kept and balanced(kept) and not _DANGLING.search(kept) else None


def complete_clauses(sentence: str) -> str:
    """`sentence` without a last clause that runs on into something the cleaning removed (a link or code
    block on the next line, a screenshot): "There is a config X, which is used in" → "There is a config
    X"; "fix network errors like" → "fix network errors". When no clause can be cut, the sentence is
    kept and marked cut with "…". A sentence that ends in a stop is complete. Applied to a sentence
    already read as the lead, so it never makes a lead of a sentence the reader passed over."""
    if sentence.endswith((".", "!", "?", "。", "！", "？", _ELLIPSIS)):
        return sentence
    return _without_run_on(sentence) or f"{sentence.rstrip(' :：')} {_ELLIPSIS}"


# The word a verb takes a shown error or log with ("crashes with:", "fails in:", "报错在："); "bump x to:" or
# "changes from:" need the values and are no statement without them.
_BLOCK_PREPOSITION = re.compile(r"\s+(?:with|in|at|on)$", re.I)


def introduced_statement(sentence: str) -> str:
    """A sentence that introduces the code block or log after it with a word that needs it ("When the mask
    is empty, calculate_debug_metrics crashes with:") as the statement it makes ("…, calculate_debug_
    metrics crashes"): the block is the object the word wanted. Any other sentence is returned as it is
    (one that only introduces what follows, "Here is the matrix:", stays no lead)."""
    if not sentence.endswith((":", "：")):
        return sentence
    body = sentence[:-1].rstrip()
    if not _DANGLING.search(body) and not _EXAMPLES_INTRO.search(body):
        return sentence
    cut = _without_run_on(body)
    if cut is None and _BLOCK_PREPOSITION.search(body):
        cut = _BLOCK_PREPOSITION.sub("", body).rstrip(" ,;，；")
    # Only a problem shown below makes the sentence a statement ("… crashes with:"); one that shows how
    # things work ("The current collate_fn processes values with:") still only introduces the block.
    return cut if cut and not _DANGLING.search(cut) and _PROBLEM.search(cut) else sentence


# A diff statistic pasted into the description ("Total changes: 7 insertions(+), 6 deletions(-)", "File
# changed: `pkg/metrics.py` (+12 lines)", "修改文件：a.py（+20/−2）"): the diff says it better.
_STATISTIC = re.compile(
    r"insertions?\(\+\)|deletions?\(-\)|\b\d+ files? changed\b|^\W*(?:(?:changed|modified) )?files?"
    r"(?: (?:changed|modified|touched))?\s*[:：]|^\W*(?:改动|修改|变更|涉及)的?文件\s*[:：]"
    r"|[(（]\s*\+\d+(?:\s*/\s*[-−]\d+)?(?:\s*lines?|\s*行)?\s*[)）]",
    re.IGNORECASE,
)
# A sentence that defines a term ("`drop` means off-policy staleness dropping", "k 表示要淘汰的数量") glosses
# the description; it says nothing of what the PR does.
_DEFINITION = re.compile(
    r"^\W*(?!(?:this|that|it|which|here|there)\b)[A-Za-z0-9_.-]{1,30}\W*\s+"
    r"(?:means|stands for|denotes|refers to|is short for|is defined as)\b"
    r"|^\W*[A-Za-z0-9_.-]{1,30}\W*\s*(?:表示|指的是|是指|意为)",
    re.IGNORECASE,
)


# A sentence about the PR's own history rather than the change ("I move the old PR to this one due to some
# redundant commit", "Rebased on main", "重新提交了之前的 PR").
_LOGISTICS = re.compile(
    r"\b(?:old|previous|earlier) (?:pr|pull request)\b|\bredundant commits?\b|"
    r"^(?:rebased?|squash(?:ed)?|re-?opened?|force[- ]pushed)\b|(?:之前|原来|旧)的?\s*pr|重新提交",
    re.IGNORECASE,
)


# A sentence that thanks someone ("Credit to @alice for pointing out…", "Thanks @bob for the review",
# "感谢 @carol 的建议"): courtesy, not the change, unless it goes on to say it ("Thanks to @a, we
# implemented the group-wise update…").
_THANKS = re.compile(
    r"^(?!.*[,，]\s*(?:we|i|this (?:pr|change))\b)(?!.*，\s*(?:我们|本\s*pr))\W*(?:(?:many |special |big )?thanks?(?: you)?\b|credits?(?: goes)? to\b|kudos\b|shout-?out\b|"
    r"(?:特别)?感谢|致谢|鸣谢)",
    re.IGNORECASE,
)


def _substantive(text: str) -> bool:
    """Not only links, issue references or a few characters, not a sentence that only introduces what
    follows ("Here is the matrix:"), not a diff statistic, not the definition of a term, not the PR's own
    history and not thanks."""
    rest = _URL.sub("", text).strip(" .;,-—()[]")
    return (
        len(rest) >= ITEM_MIN_CHARS
        and not _ISSUE_ONLY.match(rest)
        and not rest.endswith((":", "："))
        and not _DEFINITION.match(rest)
        and not _STATISTIC.search(rest)
        and not _LOGISTICS.search(rest)
        and not _THANKS.match(rest)
        and _prose_words(rest) >= PROSE_WORDS
        and not _only_relations(text)
    )


def _only_relations(text: str) -> bool:
    """Whether `text` names other PRs, issues, links or people and otherwise only says how this PR
    relates to them ("Based on the PR: #5297 Relevant PRs: #5716 #5713", "See <url> for details",
    "This resolves issue <url>", "cc @alice", "详见 #12")."""
    if not REFERENCE.search(text):
        return False
    rest = REFERENCE.sub(" ", text).lower()
    words = _PROSE_WORD.findall(rest)
    latin = sum(1 for word in words if word not in _RELATION_WORDS)
    han = len(_HAN_CHAR.findall(_RELATION_HAN.sub("", rest))) // 2
    return latin + han < PROSE_WORDS


def _prose_words(text: str) -> int:
    """Words of prose in `text`: Latin words that are not code (no `_`, `=`, `.`, digits or backticks
    around them) and Han characters two for a word; a line of settings (`A_B=False & C='x'`) has none."""
    latin = sum(1 for token in text.split() if _PROSE_WORD.fullmatch(token.strip(",;:()!?\"'“”")))
    return latin + len(_HAN_CHAR.findall(text)) // 2


def names_unchanged_file(text: str, changed_paths: Collection[str]) -> bool:
    """Whether `text` names a file (`a/b.py`, `trainer.yaml`) that is none of the PR's changed files."""
    for match in _PATH.finditer(text):
        named = match.group(1).strip("./").lower()
        if not _FILE_NAME.match(named.rsplit("/", 1)[-1]):
            continue  # a directory, a `module/submodule` phrase or an image tag, not a file
        if not any(p.lower().endswith(named) or named.endswith(p.lower()) for p in changed_paths):
            return True
    return False


def _ordered_sections(sections: Iterable[Section]) -> list[Section]:
    """The preamble and purpose sections first (in body order), then changes sections; asides left out."""
    kept = [s for s in sections if not (s.heading and _ASIDE_HEADING.search(s.heading))]
    purpose = [s for s in kept if not s.heading or _PURPOSE_HEADING.search(s.heading)]
    changes = [s for s in kept if s.heading and _CHANGES_HEADING.search(s.heading) and s not in purpose]
    return purpose + changes


# The words that only point back at the title ("As title and comment", "如题", "Self-explanatory"): nothing a
# reader of the title does not know. What follows them in the same sentence ("As title, update the
# ascend code owner to @x") is kept.
_POINTS_AT_TITLE = re.compile(
    r"^\W*(?:as (?:the )?title(?: says)?|see (?:the )?title|title says(?: it all)?|same as (?:the )?title"
    r"|self[- ]explanatory|as described (?:in|by) the title|如题|同标题|见标题|标题(?:已经)?说明了?)"
    r"(?:\s*(?:and|&|\+)\s*(?:the )?comments?)?[\s,，.。:：;；!！、-]*",
    re.IGNORECASE,
)


def _past_title_pointer(text: str) -> str:
    """`text` without words that only point back at the title or greet the reader ("Hi there, when…");
    "" when that is all it says."""
    text = _POINTS_AT_TITLE.sub("", text, count=1).strip()
    rest = _GREETING_CLAUSE.sub("", text, count=1)
    return rest[:1].upper() + rest[1:] if rest != text else text


# A greeting that opens a sentence ("Hi there, when using…", "Hello all! This PR…").
_GREETING_CLAUSE = re.compile(
    r"^(?:hi|hello|hey|dear)(?: (?:there|all|everyone|folks|team|guys|maintainers))?\s*[,!]\s+(?=\w)", re.I
)
# The tags and type prefix of a title (`[fsdp] fix: `, `【修复】`), as a copy of it in a description repeats them.
TITLE_MARKERS = re.compile(r"^\s*(?:[\[【][^\]】]*[\]】]\s*)*(?:[A-Za-z]+(?:\([^)]*\))?!?\s*:\s*)?")
_TOKEN = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")


def _copies_title(text: str, title: str) -> bool:
    """Whether a sentence is the title again (`[bugfix] Fix position embedding…` under that title)."""
    words = set(_TOKEN.findall(TITLE_MARKERS.sub("", text, count=1).lower()))
    return bool(words) and words <= set(_TOKEN.findall(title.lower()))


def _item_text(block: Block) -> str | None:
    """A list item as a key point: a bold lead becomes `Lead: rest`; a plain item is kept when it is long
    enough to say something."""
    raw = "\n".join(block.lines)
    bold = _BOLD_LEAD.match(raw)
    text = plain_text([block])
    if bold:
        rest = plain_text([Block("para", (bold.group(3),))])
        lead = bold.group(1).strip()
        joint = ": " if bold.group(2) or lead.endswith((":", "：")) else " "
        text = f"{lead.rstrip(':：')}{joint}{_sentences(rest)[0]}" if rest else lead
    text = _past_title_pointer(text)
    return text if text and _substantive(text) else None


# A sentence whose subject is another PR or issue: a reference, then a verb.
_ABOUT_ANOTHER_PR = re.compile(
    r"^(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+/(?:pull|issues)/\d+\S*)"
    r"(?:\s+(?!and\b)[a-z]|\s*(?![和与及、])[\u4e00-\u9fff])",
    re.I,
)
# A listed change that only tidies the diff (formatting, lint, pre-commit, typos, merging main): every PR
# does it, and it says nothing of what this one changes.
_HOUSEKEEPING = re.compile(
    r"^\W*(?:[\w ]{0,12}[:：]\s*)?(?:(?:apply|applied|run|ran|fix|fixed|fixes|automatic|auto|code|some|"
    r"minor|small|the|a|and|update|updated)\s+){0,3}(?:format(?:ting|ted)?(?=\s*(?:$|[.,;(]|changes?\b|"
    r"fix(?:es)?\b|issues?\b|with\b|by\b|using\b|code\b|files?\b))|"
    r"pre-?commit\b|lint(?:ing|er|s)?\b|(?:fix(?:ed|es)? )?typos?\b|code style\b|re-?format|isort\b|"
    r"(?:merge|rebase)d? (?:on |with )?(?:the )?(?:latest )?(?:main|master|upstream)\b)|"
    r"^\W*(?:格式化|代码格式|修复拼写|拼写错误|pre-?commit)",
    re.I,
)


# A sentence of how something is meant to work or works today, not of what goes wrong or what the PR
# changes: "`f()` is intended to match the canonical implementation", "The router is used to pick a
# server", "Currently, each worker loads the tokenizer", "X 用于…", "原本…".
_BACKGROUND = re.compile(
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:intended|meant|designed|supposed|expected|used|responsible)"
    r"\s+(?:to|for)\b|"
    r"^(?:currently|at present|right now|by default|normally|usually|originally|previously|historically|today)\b|"
    r"用于|用来|负责|原本|原先|本来|^(?:目前|当前|现在|默认情况下|通常)",
    re.I,
)
# A sentence that states a problem: what goes wrong, or could ("could silently shrink…", "会导致…").
_PROBLEM = re.compile(
    r"\b(?:could|can|may|might|would|will)(?: \w+ly)? (?:not |never )?(?!be used\b|be configured\b)\w+|"
    r"\b(?:fails?|failed|failing|breaks?|broke|broken|crash\w*|hangs?|hung|silently|wrong(?:ly)?|incorrect\w*|"
    r"bugs?|errors?|mismatch\w*|leads? to|caus(?:e|es|ed|ing)|results? in|however|but|unfortunately|"
    r"regress\w*|overflows?|oom|leak\w*|inconsistent|unexpected\w*|ignor(?:e|es|ed)|not|cannot|\w+n't|"
    r"impossible|hard(?:er)?|difficult|tedious|too|must|needs? to|lacks?|missing|unable|only|forc\w+|requir\w+|diverg\w*|nan|deadlock\w*|stall\w*|slow\w*|wast\w*|mistak\w*|accidental\w*|block(?:s|ed|ing))\b|"
    r"导致|错误|问题|失败|报错|崩溃|但是|然而|却|无法|不能|不支持|会",
    re.I,
)


def background(sentence: str) -> bool:
    """Whether a sentence only says how something is meant to work or works now ("X is intended to match
    Y", "Currently, X loads Y", "X 用于…"), stating no problem, change or effect."""
    return (
        _BACKGROUND.search(sentence[:CONTEXT_CHARS]) is not None
        and not _PROBLEM.search(sentence)
        and not says_action(sentence)
        and not states_effect(sentence)
    )


def _states_point(sentence: str, changed_paths: Collection[str]) -> bool:
    """Whether a sentence after a background one states the problem, the change or its effect, and can
    stand as a key point."""
    return (
        len(sentence) >= LEAD_SENTENCE_MIN_CHARS
        and (bool(_PROBLEM.search(sentence)) or says_action(sentence) or states_effect(sentence))
        and _substantive(sentence)
        and not leans_on_context(sentence)
        and not names_unchanged_file(sentence, changed_paths)
    )


# How GitHub carries a title it cut over into the description: "…" (or "...") and the title's rest.
_CUT_MARKS = ("…", "...")


def read_author_text(body: CleanBody, changed_paths: Collection[str], title: str = "") -> AuthorText:
    """The lead of the description: where the author says what the PR does, then what it lists. A
    paragraph that only copies `title` is passed over: the one after it opens the description. Without
    a paragraph that opens it, a quote does: what the author wrote inside the template's quoted prompt
    (`> Fix the shape mismatch: …`)."""
    opening, action, items = _lead(body, changed_paths, title, "para")
    if opening is None:
        opening, action, _ = _lead(body, changed_paths, title, "quote")
    measured = [m for m in measured_results(body) if not names_unchanged_file(m, changed_paths)]
    listed = None
    if action is None:
        found = next(
            (i for i in items if says_action(i[:1].upper() + i[1:]) and not leans_on_context(i)), None
        )
        if found:
            # The item opens the gist, so it opens with a capital in the key points too.
            listed = found[:1].upper() + found[1:]
            items = [listed if i == found else i for i in items]
    return AuthorText(opening, tuple(items[:MAX_LEAD_POINTS]), tuple(measured), action, listed)


def _lead(
    body: CleanBody, changed_paths: Collection[str], title: str, kind: str
) -> tuple[str | None, str | None, list[str]]:
    """The opening and action sentences read from blocks of `kind` (para or quote), and the listed items."""
    opening: str | None = None
    action: str | None = None
    paragraphs = 0  # paragraphs read from the one holding the opening on
    items: list[str] = []
    for section in _ordered_sections(body.sections):
        # After a section's list of changes, a paragraph opens the description only when it says what the
        # PR does or what that gets its users: otherwise it glosses the list (terms, a table, caveats,
        # "Note: …").
        listed = False
        # A list a paragraph introduces as a problem's symptoms or conditions ("…, leading to:", "You may
        # hit this when:") lists no change: its items are key points only when they say one.
        symptoms = False
        changes_only = bool(section.heading) and not _PURPOSE_HEADING.search(section.heading)
        for block in section.blocks:
            if block.kind == kind:
                intro = plain_text([block]).rstrip()
                symptoms = intro.endswith((":", "：")) and _introduces_symptoms(intro)
            if (
                block.kind == kind
                and changes_only
                and (action is not None or paragraphs >= ACTION_PARAGRAPHS)
            ):
                # A changes section's paragraph ("Specific Changes: Added a code branch in …") lists one.
                said = _changes_sentence(plain_text([block]), changed_paths)
                if said and said not in items:
                    items.append(said)
                continue
            if block.kind == kind and action is None and paragraphs < ACTION_PARAGRAPHS:
                # A paragraph is read by its first sentence: the opening, or what the PR does.
                sentences = [t for t in map(_past_title_pointer, _sentences(plain_text([block]))) if t]
                # A greeting before it ("Hi folks!") says nothing, and a sentence whose subject is another
                # PR ("#4280 refactored vllm, breaking X.") is the background the next one acts on.
                while len(sentences) > 1 and (
                    _GREETING.match(sentences[0])
                    or (_ABOUT_ANOTHER_PR.match(sentences[0]) and says_action(sentences[1]))
                ):
                    sentences.pop(0)
                # A sentence of how things are meant to work ("X is intended to…", "X 用于…") yields to the
                # one after it that states the problem, the change or what it gets.
                if sentences and background(sentences[0]):
                    point = next((t for t in sentences[1:] if _states_point(t, changed_paths)), None)
                    sentences = [point] if point else sentences
                first = introduced_statement(sentences[0]) if sentences else ""
                if opening is None and title and len(sentences) == 1 and _copies_title(first, title):
                    continue
                if opening is None and first.startswith(_CUT_MARKS):
                    continue  # the rest of a title GitHub cut ("…g training for the Qwen3VL model"), no lead
                if (
                    len(first) >= LEAD_SENTENCE_MIN_CHARS
                    and (not listed or says_action(first) or states_effect(first))
                    and _substantive(first)
                    and not leans_on_context(first)
                    and not names_unchanged_file(first, changed_paths)
                ):
                    # After an opening that states the problem, only "This PR …" says what it does: a
                    # later sentence opening with a verb is as often an aside ("Fix x too, not sure…").
                    later = opening is not None
                    said = complete_clauses(first)
                    opening = opening or said
                    action = said if (ACTION_PREFIX.match(first) if later else says_action(first)) else None
                paragraphs += opening is not None
            elif block.kind == "list":
                text = _item_text(block)
                # (a verb opening such an item is a symptom's: "Reduced sample efficiency")
                if symptoms and text and not (ACTION_PREFIX.match(text) or _EFFECT.match(text)):
                    continue
                if (
                    text
                    and not _HOUSEKEEPING.search(text)
                    and not names_unchanged_file(text, changed_paths)
                    and text not in items
                ):
                    items.append(complete_clauses(text))
                    listed = True
    # An opening of how things work today, with no problem stated, yields to what the PR does about it.
    return (action if action and opening and background(opening) else opening), action, items


# What makes an introduced list one of changes: the paragraph says what the PR does or names changes.
_CHANGE_WORDS = re.compile(
    r"\b(?:chang\w*|add\w*|introduc\w*|this (?:pr|change)|we|following|includ\w*)\b|改动|修改|新增|本\s*pr",
    re.I,
)


# What introduces a problem's symptoms or the conditions it shows under ("…, leading to:", "You may hit
# this issue under these conditions:"; "When enabled:" introduces what the change does), and what introduces its cause or its fix instead ("Root cause (two conditions combine):").
_SYMPTOMS_INTRO = re.compile(
    r"\b(?:lead(?:s|ing)? to|result(?:s|ing)? in|causing|conditions?|symptoms?|hit|occurs?|happens?)\b|导致|出现|条件|症状",
    re.I,
)
_CAUSE_INTRO = re.compile(
    r"\b(?:root|cause[sd]? (?:is|are|by)|because|reason|fix|solution)\b|根因|原因|修复|方案", re.I
)


def _introduces_symptoms(intro: str) -> bool:
    """Whether a paragraph ending in ":" introduces what goes wrong or when, not what the PR changes."""
    return (
        bool(_SYMPTOMS_INTRO.search(intro))
        and not _CAUSE_INTRO.search(intro)
        and not says_action(intro)
        and not _CHANGE_WORDS.search(intro)
    )


def _changes_sentence(text: str, changed_paths: Collection[str]) -> str | None:
    """The first sentence of a paragraph in a changes section when it says a change ("Added a code branch
    in _default_compute_score to choose…"), as a listed item."""
    sentences = _sentences(text)
    first = sentences[0] if sentences else ""
    if (
        len(first) >= LEAD_SENTENCE_MIN_CHARS
        and says_action(first)
        and _substantive(first)
        and not leans_on_context(first)
        and not names_unchanged_file(first, changed_paths)
        and not _HOUSEKEEPING.search(first)
    ):
        return complete_clauses(first)
    return None


def measured_results(body: CleanBody) -> list[str]:
    """Measured results the author reports: sentences with a before → after figure (preferred) or a
    percentage/ratio claim, and before/after table rows as `label: before → after`; where there are none,
    the first row of a results table (`Qwen3-8B, 8x Ascend 910C: time cost (s) 0.27; bandwidth (GB/s) 50.26`)."""
    changes: list[str] = []
    claims: list[str] = []
    rows: list[str] = []
    for section in body.sections:
        for before, block in zip((None, *section.blocks), section.blocks, strict=False):
            if block.kind == "table":
                found = _table_changes(block)
                changes += found
                rows += [] if found or rows else _first_result(block)
                continue
            if block.kind == "code":
                changes += _labelled_figures(before, block)
                continue
            if not any(_DIGIT.search(line) for line in block.lines):
                continue
            for sentence in _sentences(plain_text([block])):
                if not _DIGIT.search(sentence):
                    continue  # both patterns need a number
                if _MEASURED_CHANGE.search(sentence):
                    changes.append(sentence)
                elif _PERCENT_CLAIM.search(sentence):
                    claims.append(sentence)
    return list(dict.fromkeys(changes + claims or rows))


# The label a paragraph gives the short code block after it: "Before the fix:", "After this PR:", "修复前：".
_FIGURES_LABEL = re.compile(
    r"(?:^|(?<=[.!?。！？]\s)|(?<=[.!?。！？]))\s*((?:before|after|baseline|with(?:out)? this (?:pr|fix|change)|"
    r"修复前|修复后|优化前|优化后|改动前|改动后)[^.!?。！？:：\n]{0,40})[:：]\s*$",
    re.I,
)
# A line of figures in such a block: a label, then numbers only ("vectorized GRPO: [-0.0050, 0.0050]",
# "peak memory  63.2 GB").
_FIGURE_LINE = re.compile(
    rf"^\s*([A-Za-z\u4e00-\u9fff][\w .()/-]{{0,40}}?)\s*[:=|]?\s+"
    rf"([\[(]?\s*[−–+-]?{_NUMBER}(?:e[−-]?\d+)?\s?{_UNIT}?(?:\s*[,;/]?\s*[−–+-]?{_NUMBER}(?:e[−-]?\d+)?\s?{_UNIT}?)*"
    rf"\s*[\])]?)\s*$",
    re.I,
)
FIGURE_BLOCK_LINES = 6


def _labelled_figures(before: Block | None, block: Block) -> list[str]:
    """A short code block of figures that the paragraph before it labels before or after ("Before the
    fix:" over `canonical GRPO: [-0.6196, 0.6196]` / `vectorized GRPO: [-0.0050, 0.0050]`), as
    `Before the fix: canonical GRPO: [-0.6196, 0.6196]; vectorized GRPO: [-0.0050, 0.0050]`; [] for any
    other code block (code, logs, commands)."""
    if before is None or before.kind != "para":
        return []
    label = _FIGURES_LABEL.search(plain_text([before]))
    lines = [line.strip() for line in block.lines if line.strip() and not line.strip().startswith("```")]
    if not label or not lines or len(lines) > FIGURE_BLOCK_LINES:
        return []
    figures = [_FIGURE_LINE.match(line) for line in lines]
    if not all(figures):
        return []
    shown = "; ".join(f"{m.group(1).strip()}: {' '.join(m.group(2).split())}" for m in figures if m)
    return [f"{label.group(1).strip()}: {shown}"]


# Chinese words of a measured change, in English: "由 71GB 降至 52GB" reads "71GB → 52GB".
_CHINESE_CONNECTOR = re.compile(r"\s*(?:降至|降到|提升至|提升到|减少到|增加到|变为|到)\s*")
_CHINESE_UNITS = (("倍", "x"), ("秒", " s"), ("分钟", " min"), ("小时", " h"))


def measured_figures(sentence: str) -> list[str]:
    """The before → after figures of a measured sentence, without its words: what an English reader
    can read of "显存峰值由 71GB 降至 52GB。" is "71GB → 52GB"."""
    figures = []
    for match in _MEASURED_CHANGE.finditer(sentence):
        figure = re.sub(r"^(?:from\s+|由\s*|从\s*)", "", match.group(0), flags=re.I)
        figure = _CHINESE_CONNECTOR.sub(" → ", figure, count=1)
        for chinese, english in _CHINESE_UNITS:
            figure = figure.replace(chinese, english)
        figures.append(" ".join(figure.split()))
    return figures


def _cells(line: str) -> list[str]:
    match = _TABLE_ROW.match(line)
    return [c.strip().strip("*`") for c in match.group(1).split("|")] if match else []


def _first_result(block: Block) -> list[str]:
    """The first row of a table of measured figures (time, memory, throughput: a unit in the cell or its
    column's heading), each figure with its heading; [] for a table of anything else (options, a feature
    matrix, derivations) and for a comparison with a baseline row, whose first row alone would mislead."""
    rows = [_cells(line) for line in block.lines]
    if len(rows) < 3 or not rows[0] or any(row and _BASELINE_ROW.search(row[0]) for row in rows[2:]):
        return []
    header, first = rows[0], rows[2]
    if len(first) != len(header):
        return []
    labels = [c for c in first if c and not _CELL_NUMBER.match(c)]
    figures = [
        f"{h} {c}"
        for c, h in zip(first, header, strict=True)
        if (m := _CELL_NUMBER.match(c))
        and (_MEASURE_UNIT.fullmatch(m.group(2) or "") or _HEADING_UNIT.search(h))
    ]
    return [f"{', '.join(labels)}: {'; '.join(figures)}"] if figures and labels else []


def _table_changes(block: Block) -> list[str]:
    """Rows of a before/after table: `peak memory: 78 GB → 63 GB`; a table whose rows are the before and
    after (`| before | 42.1 GB | 1.9 s |`) gives one such figure a column."""
    rows = [_cells(line) for line in block.lines]
    if len(rows) < 3:
        return []
    if not _BEFORE_AFTER.search(" ".join(rows[0][1:])):
        return _column_changes(rows)
    found = []
    for row in rows[2:]:
        numbers = [_CELL_NUMBER.match(c) for c in row[1:]]
        values = [m for m in numbers if m]
        if len(values) >= 2 and row[0] and len(values) == len(row) - 1:
            found.append(_change_of(row[0], values[0], values[-1]))
    return found


def _change_of(label: str, first: re.Match[str], last: re.Match[str]) -> str:
    """`peak memory: 78 GB → 63 GB` from two table cells, the unit of either on both."""
    unit = first.group(2) or last.group(2) or ""
    space = "" if unit in ("%", "x", "×") else " "
    before = f"{first.group(1)}{space if unit else ''}{unit}".strip()
    after = f"{last.group(1)}{space if unit else ''}{unit}".strip()
    return f"{label}: {before} → {after}"


def _column_changes(rows: list[list[str]]) -> list[str]:
    """The columns of a table whose first and last rows of figures are labelled before and after (a
    baseline, `main`, `w/o`…, then `this PR`, `after`…): `peak memory: 42.1 GB → 27.6 GB`."""
    body = [row for row in rows[2:] if row and len(row) == len(rows[0])]
    if len(body) < 2 or not _BASELINE_ROW.search(body[0][0]) or not _BEFORE_AFTER.search(body[-1][0]):
        return []
    found = []
    for column, heading in enumerate(rows[0][1:], start=1):
        first, last = _CELL_NUMBER.match(body[0][column]), _CELL_NUMBER.match(body[-1][column])
        if heading and first and last:
            found.append(_change_of(heading, first, last))
    return found


# Code identifiers in generated text: `code spans` and code-shaped tokens (snake_case, dotted.names,
# camelCase, --flags). File names are left to the path check (`names_unchanged_file`).
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_CODE_TOKEN = re.compile(
    r"--[A-Za-z][\w-]*|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b\w*_\w+\b|\b[a-z]+[A-Z]\w*\b", re.ASCII
)
_FILE_SUFFIX = re.compile(
    r"\.(?:py|pyi|ya?ml|toml|json|sh|cfg|ini|md|rst|txt|cu|cuh|cc|cpp|h|hpp|rs|go|ts|js)$"
)


def code_identifiers(text: str) -> list[str]:
    """The code identifiers `text` names (code spans and code-shaped tokens), file names left out."""
    spans = _CODE_SPAN.findall(text)
    tokens = [m.group(0) for m in _CODE_TOKEN.finditer(_CODE_SPAN.sub(" ", text))]
    return [t for t in spans + tokens if not _FILE_SUFFIX.search(t) and "/" not in t]


# What an author writes when they say what a breaking change breaks: the break itself, removals,
# renames and migrations first; then what is done differently from now on.
_BREAKS = re.compile(
    r"\bbreak(?:s|ing)?\b|\bincompatib\w*|\bno longer\b|\bdeprecat\w*|"
    r"\b(?:removed?|renamed?|dropped|replaced)\b|\bmigrat\w*|\bmust (?:now )?(?:set|use|pass|update|change)\b|"
    r"不再|不兼容|破坏|改名|重命名|弃用|废弃|移除|删除|需要修改|需修改",
    re.I,
)
_FROM_NOW_ON = re.compile(
    r"\binstead of\b|\bnow (?:defaults?|requires?|uses?|returns?|follows?)\b|\bdefaults? (?:to|is now)\b|"
    r"\bby default\b|\balways\b|默认|改为|替换为|取代",
    re.I,
)
# The PR template's own explanation of the `[BREAKING]` tag, wherever a body kept it.
_TAG_HELP = re.compile(r"\[BREAKING\]|breaks any API", re.I)


def breaking_statement(body: CleanBody, changed_paths: Collection[str]) -> str | None:
    """The author's sentence about what a breaking change breaks ("This change breaks almost all recipes
    using verl GRPO as submodules", "micro_batch_size 不再按 GPU 数归一化"), else one saying what is done
    differently from now on; None when the description says neither. Quoted, markup removed."""
    found: dict[bool, str] = {}
    for section in body.sections:
        for block in section.blocks:
            if block.kind not in ("para", "list", "quote"):
                continue
            for sentence in _sentences(plain_text([block])):
                if len(sentence) < ITEM_MIN_CHARS or _TAG_HELP.search(sentence):
                    continue
                strong = bool(_BREAKS.search(sentence))
                if strong in found or not (strong or _FROM_NOW_ON.search(sentence)):
                    continue
                if _substantive(sentence) and not names_unchanged_file(sentence, changed_paths):
                    found[strong] = sentence
            if True in found:
                return found[True]
    return found.get(False)


# --- caveats -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Caveat:
    """A warning in the PR's own words: a sentence of the description, or of a reviewer's (`reviewer`,
    their login), about what the change may cost its users; `harm` names what (a key of `HARMS`)."""

    said: str
    harm: str
    reviewer: str = ""


# What a caveat warns of, tried in this order: the first that a sentence names is its harm.
HARMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "loss",
        re.compile(
            r"\b(?:los[et]|loses|losing|data loss|dropp?ed (?:messages|requests|events|data))\b"
            r"|丢失|丢弃|会丢|被删除",
            re.I,
        ),
    ),
    (
        "memory",
        re.compile(
            r"\b(?:memory|RAM|VRAM)\b[^.;]{0,40}\b(?:grow|grows|increase[sd]?|higher|double[sd]?|up to|spike)"
            r"|\b(?:more|higher|extra|increased)\s+(?:GPU\s+|peak\s+)?memory\b|\bOOM\b|out of memory"
            r"|(?:内存|显存)[^，。；]{0,12}(?:增加|增长|变大|翻倍|上升|更多|升高)|(?:更多|额外)的?(?:内存|显存)",
            re.I,
        ),
    ),
    (
        "slower",
        re.compile(
            r"\bslower\b|\bslow(?:s|ing)? down\b|\bslowdown\b|\b(?:latency|throughput) (?:regress|drop|increase)\w*"
            r"|\bperformance regression\b|变慢|更慢|性能下降|延迟(?:增加|变高|上升)|吞吐(?:下降|降低)",
            re.I,
        ),
    ),
    (
        "incompatible",
        re.compile(
            r"\bincompatib\w*|\bnot backward[- ]compatible\b|\bno longer (?:supported|accepted|works?|compatible)\b"
            r"|\b(?:users?|callers?|deployments?|you) (?:must|should|need to|have to|will have to) (?:now )?"
            r"(?:re-?)?(?:set|pin|migrate|update|regenerate|re-?run|change)\b"
            r"|不兼容|不再支持|需要(?:手动|重新|显式)|必须(?:重新|手动|显式)",
            re.I,
        ),
    ),
    (
        "failure",
        re.compile(
            r"\b(?:crash(?:es)?|hangs?|deadlocks?|fail(?:s)? to (?:start|load|connect)|(?:is|are|be) rejected)\b"
            r"|崩溃|卡死|死锁|启动失败|加载失败|会报错|被拒绝",
            re.I,
        ),
    ),
    ("surprise", re.compile(r"\bsurpris\w+|\bunexpected(?:ly)?\b|行为(?:变化|改变)|意外", re.I)),
)
# A sentence that warns, rather than reports: a warning label, or a hedge about what may happen, placed
# after the change (what it does to existing deployments, on upgrade, from now on) or not.
_WARNING_LABEL = re.compile(
    r"^\W*(?:note|warning|caution|caveat|heads[- ]up|beware|be aware|known (?:issues?|limitations?)|"
    r"limitations?|注意|警告|风险|已知问题|局限)",
    re.I,
)
_HEDGE = re.compile(r"\b(?:may|might|could|will|would|can)\b|可能|会", re.I)
_AFTER_THE_CHANGE = re.compile(
    r"\b(?:now|from now on|after (?:this|the) (?:change|pr|upgrade)|with this (?:change|pr)|upgrad\w*|"
    r"existing (?:deployments?|users?|configs?|runs?|checkpoints?|clusters?)|deployments?|"
    r"for (?:clients|users|callers|anyone|deployments)|users? (?:who|that|with))\b|"
    r"升级|现有|已有的?|此后|从此|以后|(?:对|让)(?:用户|调用方)",
    re.I,
)
# A sentence about the problem the PR fixes, or how things were, is no warning about the change; nor is
# one that explains a term ("Speed + means tiled is slower").
_BEFORE_THE_CHANGE = re.compile(
    r"\b(?:previously|before this|used to|prior to|currently|fix(?:es|ed|ing)?|resolv\w*|prevent\w*|avoid\w*|"
    r"was|were|had|means)\b|之前|以前|原来|原先|目前|修复|解决|避免|防止|表示",
    re.I,
)
# Sections whose sentences describe how the PR was checked, not what it costs.
_CHECK_HEADING = re.compile(r"test|checklist|verif|validat|测试|验证|清单", re.I)
MAX_CAVEATS = 2
_CAVEAT_MAX_CHARS = 300


def _caveat(sentence: str, reviewer: str = "") -> Caveat | None:
    """The sentence as a caveat, or None when it warns of no harm: it must carry a warning label, or
    hedge about what happens after the change or to its users (a hedge alone is mostly the bug being
    fixed: "Setting sleep_level=1 will cause an OOM"), or be a reviewer's; it must name a harm, and not be
    about how things were before the change or introduce a list."""
    if sentence.endswith((":", "：")) or _BEFORE_THE_CHANGE.search(sentence):
        return None
    labelled = bool(_WARNING_LABEL.search(sentence))
    if not labelled and not _HEDGE.search(sentence):
        return None
    harm = next((harm for harm, pattern in HARMS if pattern.search(sentence)), None)
    if harm is None:
        return None
    if not (labelled or reviewer or _AFTER_THE_CHANGE.search(sentence)):
        return None
    return Caveat(sentence, harm, reviewer)


def caveats(body: CleanBody, reviews: Iterable[tuple[str, str]]) -> tuple[Caveat, ...]:
    """Up to MAX_CAVEATS warnings: the description's first (outside its test plan and checklist), then
    the reviewers' (`reviews` as login and text), one per harm. Quoted, markup removed."""
    found: list[Caveat] = []

    def take(text: str, reviewer: str = "") -> None:
        for sentence in _sentences(text):
            caveat = (
                _caveat(sentence, reviewer) if ITEM_MIN_CHARS <= len(sentence) <= _CAVEAT_MAX_CHARS else None
            )
            if caveat and all(c.harm != caveat.harm for c in found) and len(found) < MAX_CAVEATS:
                found.append(caveat)

    for section in body.sections:
        if not _CHECK_HEADING.search(section.heading):
            for block in section.blocks:
                if block.kind in ("para", "list", "quote"):
                    take(plain_text([block]))
    for reviewer, text in reviews:
        take(clean_body(text).prose, reviewer)
    return tuple(found)
