"""Prose → inline spans: what analyses and reports write as plain sentences, with the parts a reader
wants to copy or click made explicit, so every renderer shows them the same way.

- `` `actor_wg` `` (an analysis quotes code with backticks) becomes a code span without the backticks;
- a bare identifier (`get_named_tensor_buckets`, `verl/workers/fsdp_workers.py`) becomes a code span, so
  no renderer can read its underscores or slashes as formatting;
- `#1234` becomes a link to that pull request when it is one of `prs` (the PRs the text may cite).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from chatbot.models import Inline, Span, SpanStyle

# A backtick pair around code; a snake_case identifier (one inner underscore at least, dotted parts
# allowed, a hyphenated key after a dot too: `nsys.worker_nsight_options.cuda-graph-trace`) or a dotted name (`schedule.wait`, `torch.compile`: parts of two characters or more, each after
# a dot lowercase, so "e.g." and a missing space before a sentence's capital are not code); a path with a
# slash and a file extension; a PR reference not glued to a word or a path. A config interpolation
# (`${oc.select:a.b,${c.d,null}}`, two levels) is one piece of code, not names inside punctuation; so is a
# module path that starts with its host (`go.uber.org/zap`, `github.com/golang-jwt/jwt/v5`). A call
# right after an identifier, with short arguments (`model.to(device)`, `f(a, k=3)`), is part of its code.
_TOKEN = re.compile(
    r"`(?P<quoted>[^`\n]+)`"
    r"|(?P<interpolation>\$\{(?:[^{}\s`]|\{[^{}\s`]*\})*\})"
    r"|(?P<module>(?<![\w./:-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:/[\w.-]+)+(?![\w/.-]))"
    r"|(?P<identifier>(?<![\w./#-])"
    r"(?:(?=[\w.]*_)(?=_*[A-Za-z0-9])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*(?:-\w+)*)*|[A-Za-z_]\w+(?:\.[a-z_]\w+)+)(?![\w/-]|\.\d)"
    r"(?:\((?:[\w.='\"-]|, ?){0,40}\))?)"
    r"|(?P<path>(?<![\w./-])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z0-9]{1,5}(?![\w/.-]))"
    r"|(?P<pr>(?<![\w/&])#(?P<number>\d{1,7})(?!\w))",
    re.ASCII,  # \w without CJK: an identifier glued to Chinese text still stands out
)


_HAN = re.compile(r"[\u4e00-\u9fff]")


def readable_in(text: str, language: str) -> bool:
    """Whether a reader of `language` reads a quote of a PR: an English reader gets no Chinese sentence
    (a Chinese reader of an English repository reads its English, as its titles show)."""
    return language == "zh" or not _HAN.search(text)


def pr_url(repo: str, number: int) -> str:
    return f"https://github.com/{repo}/pull/{number}"


def prose(
    text: str, repo: str | None = None, prs: Collection[int] = (), style: SpanStyle = "plain"
) -> Inline:
    """`text` as spans in `style`, with code spans for quoted code and identifiers and links for the
    `#N` of `prs` (of `repo`). Text without any of them is one span; nothing is lost or reordered."""
    spans: list[Span] = []
    position = 0
    for match in _TOKEN.finditer(text):
        number = match.group("number")
        if number is not None and (repo is None or int(number) not in prs):
            continue
        if match.start() > position:
            spans.append(Span(text[position : match.start()], style))
        if number is not None and repo is not None:
            spans.append(Span(match.group(), style, pr_url(repo, int(number))))
        else:
            spans.append(Span(match.group("quoted") or match.group(), "code"))
        position = match.end()
    if position < len(text) or not spans:
        spans.append(Span(text[position:], style))
    return tuple(spans)


# A link to a pull request or issue on GitHub, shown by its number as GitHub itself does.
_GITHUB_REF = re.compile(r"https?://github\.com/([\w.-]+/[\w.-]+)/(?:pull|issues)/(\d+)(?:[/?#][^\s,;)]*)?")
# Any other link, with the word that leads into it ("reported by CI at https://…/runs/1"): the PR page has
# it; a line about a PR is no place for a raw URL.
_BARE_LINK = re.compile(r"\s*(?:\b(?:at|in|see|from|here|via)\b:?\s*)?https?://\S+")
# A short clause that only points elsewhere before the point itself ("Follow up the work from #5297",
# "Related to #12:", "基于 #88，"): at most five words (runs of anything but spaces and sentence stops),
# then the reference ("#N" or "owner/repo#N") and the punctuation after it.
LEADING_WORDS = 5
_LEADING_WORD = re.compile(r"[^\s.。:：]+(\s*)")
_REFERENCE = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+[\s.,;:，；：。)）]*")


def without_references(text: str, repo: str) -> str:
    """What a PR's text says, as a line of a report or an answer shows it: GitHub links to pull requests
    and issues written as `#N` (`owner/repo#N` for another repo), other links left out, and without a
    short opening clause that only points at a PR ("Follow up the work from #5297"), when something
    follows it."""

    def number(match: re.Match[str]) -> str:
        return f"#{match[2]}" if match[1].lower() == repo.lower() else f"{match[1]}#{match[2]}"

    # Each pattern runs only on text holding what it needs ("://", "#"): most texts hold neither.
    if "://" in text:
        text = _BARE_LINK.sub("", _GITHUB_REF.sub(number, text))
    if "#" not in text:
        return text
    end = _leading_reference_end(text)
    if end is None or not _ends_clause(text, end):
        return text
    rest = text[end:]
    return rest if len(rest) >= 20 else text


_CLAUSE_STOPS = frozenset(".,;:，；：。)）")


def _ends_clause(text: str, end: int) -> bool:
    """Whether the leading reference ending at `end` closes its clause: punctuation after it, or a new
    sentence without one ("…from #5297 This PR adds"). A reference the sentence goes on from ("First half
    of the #7085 split requested in review: …") is part of what it says."""
    return text[:end].rstrip()[-1:] in _CLAUSE_STOPS or not text[end : end + 1].islower()


def _leading_reference_end(text: str) -> int | None:
    """Where the opening clause that only points at a PR ends (None when the text opens with none): the end
    of the match of `^(?:word\\s*){0,5}?reference`, found in the order that pattern's backtracking tries
    (fewest words first, each word longest first) but trying each (words read, position) once. The
    pattern itself tries every way of cutting a long word into up to five pieces: 0.2 ms for a line
    without a reference, over a second for a Chinese line of six words before a "#N"."""
    failed: dict[int, int] = {}  # position → fewest words read with which the rest did not match

    def after(words: int, position: int) -> int | None:
        if failed.get(position, LEADING_WORDS + 1) <= words:
            return None  # the rest did not match with as many words left
        reference = _REFERENCE.match(text, position)
        if reference:
            return reference.end()
        word = _LEADING_WORD.match(text, position) if words < LEADING_WORDS else None
        if word:
            # The word ends at any of its characters (longest first); only at its last one is it followed
            # by spaces, given back one by one too.
            run_end, spaces_end = word.start(1), word.end()
            for stop in range(run_end, position, -1):
                for resume in range(spaces_end, stop - 1, -1) if stop == run_end else (stop,):
                    end = after(words + 1, resume)
                    if end is not None:
                        return end
        failed[position] = words
        return None

    return after(0, 0)
