"""PR-description cleaning: removes what the PR template wrote (checklists, quoted prompts, placeholder
code, empty sections, HTML comments, images) so only what the author wrote is summarised and scored."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_IMG_TAG = re.compile(r"<img\b[^>]*>?", re.I)
_MD_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_VIDEO = re.compile(r"<video\b.*?(?:</video>|\Z)", re.I | re.S)
# Layout tags whose content is kept; anything else that looks like `<…>` is left as text (`List<int>`).
_LAYOUT_TAG = re.compile(
    r"</?(?:details|summary|p|div|br|hr|sub|sup|b|i|em|strong|center|span|table|tr|td|th|tbody|thead)\b[^>]*>",
    re.I,
)
_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$")
_RULE = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_CHECKBOX = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\[[ xX]\]")
_QUOTE = re.compile(r"^\s*>")
# First characters of a line that may open markup (fence, heading, rule, list item, quote, table).
_MARKUP_START = frozenset("`~#-*_+>|0123456789")
_TRAILER = re.compile(r"^\s*(?:Co-authored-by|Signed-off-by|Reviewed-by|Tested-by|Acked-by):", re.I)

# The prompts of verl's PR templates (and of common GitHub templates) as the authors leave them.
# Written with single spaces; each space matches any run of whitespace, because bodies are hard-wrapped.
# Long prompts end in an optional tail so a description cut off mid-prompt still loses the prompt.
_PROMPTS = [
    r"\[!(?:important|note|tip|warning|caution)\]",
    r"add concise overview of what this pr aims to achieve or accomplish\.?",
    r"reference related github issues and prs (?:that|if that) helps? (?:with )?(?:the )?review\.?",
    r"please check all the following items before requesting a review(?:, otherwise the reviewer might "
    r"deprioritize this pr for review\.?)?",
    r"add \*\*concise\*\* overview of what this pr aims to achieve(?: or accomplish\.?)?"
    r"(?: reference related github issues and prs that help with the review\.?)?",
    r"add one-line overview of what this pr aims to achieve or accomplish\.?",
    r"for changes that can ?not be tested by ci(?: \(e\.g\., algorithm implementation, new model support\), "
    r"validate by experiment\(s\) and show results like training curve plots, \w+ results, etc\.?)?",
    r"demonstrate how the api changes if any(?:, and provide usage example\(s\) if possible)?\.?",
    r"demonstrate the high-level design if this pr is complex(?:, and list the specific changes)?\.?",
    r"list the specific changes\.?",
    r"provide usage example\(s\) for easier usage\.?",
    r"# add code snippet or script demonstrating how to use this",
    r"\*\*issue number\*\*: fixes issue # or discussion # if any\.?",
    r"\*\*(?:training|inference)\*\*: \[note which backend this pr will affect:[^\]]*\]",
    # a request to cite the authors' paper (its bibtex block is code and dropped with the other code)
    r"if you find (?:this|the|our) [\w-]+(?: [\w-]+){0,5} useful(?: [\w-]+){0,4}, please (?:consider )?"
    r"cit(?:e|ing)(?: [\w-]+){0,4}:?",
]
_PROMPT = re.compile("|".join(p.replace(" ", r"\s+") for p in _PROMPTS), re.I)
# A word of each prompt above, lowercase: text holding none of them holds no prompt (a cheap `in` test
# spares running the long pattern over every block).
_PROMPT_WORDS = (
    "[!",
    "reference related",
    "please",
    "concise",
    "one-line",
    "tested",
    "demonstrate",
    "specific",
    "usage",
    "snippet",
    "issue",
    "backend",
)
# List items that explain the title convention (`{modules}` include …) outside a checklist section.
_TEMPLATE_ITEM = re.compile(
    r"\{modules\}|\{type\}|\[BREAKING\]\[fsdp, ?megatron\]|\[BREAKING\]` to the", re.I
)
_FILLER = re.compile(
    r"^(?:as (?:the )?title|same as (?:the )?title|see (?:the )?title|n/?a|none|no|nothing|tbd|todo|"
    r"not (?:related|relevant|applicable|needed)|\.\.\.|…|-|如题|同标题|见标题|无)[.。!]?$",
    re.I,
)
_DROPPED_SECTION = re.compile(
    r"^(?:(?:pr )?checklist(?: before (?:starting|submitting|describing the details))?|before submitting|"
    r"who can review\??|ai[- ]assist(?:ance|ed)?(?: disclosure)?)$",
    re.I,
)
_WORDISH = re.compile(r"\w{3,}|[\u4e00-\u9fff]{2,}")
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|~~)")
# A word or phrase between single asterisks (`*recipe/retool*`): emphasis, not the `*` of `a * b`,
# `x*y` or `*args` (a marker touches its text on the inside and no word on the outside).
_SINGLE_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])")
_STRUCK = re.compile(r"~~[^~]+~~")
_CODE_SPAN = re.compile(r"`+([^`\n]*)`+")
_SPACES = re.compile(r"[ \t]+")


@dataclass(frozen=True, slots=True)
class Block:
    """One markdown block: kind is heading, para, list, quote, table or code; `lines` keep their markup."""

    kind: str
    lines: tuple[str, ...]
    level: int = 0

    @property
    def heading(self) -> str:
        match = _HEADING.match(self.lines[0]) if self.kind == "heading" else None
        return (match.group(2) or "").strip() if match else ""


@dataclass(frozen=True, slots=True)
class Section:
    """The author's text under one heading (the preamble has heading "" and level 0)."""

    heading: str
    level: int
    blocks: tuple[Block, ...]

    @property
    def plain(self) -> str:
        return plain_text(b for b in self.blocks if b.kind != "code")


@dataclass(frozen=True, slots=True)
class CleanBody:
    """A PR description without template boilerplate.

    `text` is the cleaned markdown; `prose` the same without code blocks (keywords and measurements are
    read from it, so a config dump or a log does not count as the author's words); `images` counts the
    pictures (plots, screenshots) the author attached."""

    text: str
    prose: str
    sections: tuple[Section, ...]
    images: int
    code_blocks: int

    @property
    def is_empty(self) -> bool:
        return not self.text.strip()


def _blocks(lines: list[str]) -> list[Block]:
    """Split markdown into blocks, with CommonMark's lazy continuation: a hard-wrapped line belongs to the
    list item or quote above it until a blank line, which matters because verl bodies wrap at 72 columns."""
    blocks: list[Block] = []
    current: list[str] = []
    kind = ""

    def close() -> None:
        nonlocal current, kind
        if current:
            blocks.append(Block(kind, tuple(current)))
        current, kind = [], ""

    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        first = line.lstrip()[:1]
        i += 1
        if not first:  # a blank line ends the block above
            if current:
                close()
            continue
        if first not in _MARKUP_START:
            # Plain text (most lines): it continues the block above, or opens a paragraph.
            if not (":" in line and _TRAILER.match(line)):
                if not current:
                    kind = "para"
                current.append(line)
            continue
        # Each pattern below starts with its own markup character after the indent, so only the pattern
        # of the line's first character is tried (a trailer never starts with markup).
        fence = _FENCE.match(line) if first in "`~" else None
        if fence:
            close()
            marker = fence.group(1)
            end = i
            while end < count and not lines[end].lstrip().startswith(marker):
                end += 1
            blocks.append(Block("code", tuple(lines[i - 1 : end + 1])))
            i = end + 1
            continue
        heading = _HEADING.match(line) if first == "#" else None
        if first in "-*_" and _RULE.match(line):
            close()
        elif heading:
            close()
            blocks.append(Block("heading", (line,), len(heading.group(1))))
        elif first in "-*+0123456789" and _LIST_ITEM.match(line):
            close()
            current, kind = [line], "list"
        elif first == ">":
            if kind != "quote":
                close()
                kind = "quote"
            current.append(line)
        elif first == "|" and kind != "table":
            close()
            current, kind = [line], "table"
        else:
            if not current:
                kind = "para"
            current.append(line)
    close()
    return blocks


def _may_prompt(text: str) -> bool:
    lowered = text.lower()
    return any(word in lowered for word in _PROMPT_WORDS)


def _without_prompts(block: Block) -> Block | None:
    """The block with template prompts cut out, or None when nothing of the author's remains."""
    if block.kind == "code":
        if not _may_prompt("\n".join(block.lines)):
            return block if any(ln.strip() for ln in block.lines[1:-1]) else None  # logs: most lines
        kept = [ln for ln in block.lines[1:-1] if not (_may_prompt(ln) and _PROMPT.fullmatch(ln.strip()))]
        return (
            Block("code", (block.lines[0], *kept, block.lines[-1])) if any(k.strip() for k in kept) else None
        )
    if block.kind == "list" and (_CHECKBOX.match(block.lines[0]) or _TEMPLATE_ITEM.search(block.lines[0])):
        return None
    if block.kind in ("para", "quote", "list"):
        text = "\n".join(block.lines)
        stripped = _PROMPT.sub("", text) if _may_prompt(text) else text
        if stripped != text:
            remainder = "\n".join(ln for ln in stripped.split("\n") if ln.strip(" >"))
            if not _WORDISH.search(remainder):
                return None
            block = Block(block.kind, tuple(remainder.split("\n")))
        if _FILLER.match(_plain_block(block)):
            return None
    return block


def _drop_sections(blocks: list[Block]) -> list[Block]:
    """Remove checklist-like sections with their subsections, then headings left with nothing under them."""
    kept: list[Block] = []
    dropping_at = 0
    for block in blocks:
        if block.kind == "heading":
            if dropping_at and block.level > dropping_at:
                continue
            dropping_at = block.level if _DROPPED_SECTION.match(block.heading.rstrip(":.： ")) else 0
            if dropping_at:
                continue
        elif dropping_at:
            continue
        kept.append(block)
    # Walk backwards: a heading is empty when the next kept block is a heading of the same or a higher
    # level (or there is none), so nested empty sections collapse in one pass.
    result: list[Block] = []
    for block in reversed(kept):
        if block.kind == "heading" and (
            not result or (result[-1].kind == "heading" and result[-1].level <= block.level)
        ):
            continue
        result.append(block)
    result.reverse()
    return result


def _sections(blocks: list[Block]) -> tuple[Section, ...]:
    sections: list[Section] = []
    heading, level = "", 0
    body: list[Block] = []
    for block in blocks:
        if block.kind == "heading":
            if body or heading:
                sections.append(Section(heading, level, tuple(body)))
            heading, level, body = block.heading, block.level, []
        else:
            body.append(block)
    if body or heading:
        sections.append(Section(heading, level, tuple(body)))
    return tuple(sections)


def _join_wrapped(lines: list[str]) -> str:
    """Undo hard wrapping: a space between wrapped Latin words, none between wrapped Chinese characters."""
    out = ""
    for line in lines:
        piece = line.strip()
        if not piece:
            continue
        if out and not (_CJK.match(out[-1]) and _CJK.match(piece[0])):
            out += " "
        out += piece
    return out


def _unemphasised(text: str) -> str:
    """Text without emphasis markers; what the author struck out (`~~wait for #5716~~`) is withdrawn,
    so it goes with its markers."""
    if "~~" in text:
        text = _STRUCK.sub("", text)
    if "**" in text or "__" in text or "~~" in text:
        text = _EMPHASIS.sub("", text)
    return _SINGLE_EMPHASIS.sub(r"\1", text) if "*" in text else text


def plain_text(blocks: Iterable[Block]) -> str:
    """Blocks as plain sentences: markup, link targets and wrapping removed; one block per line."""
    return "\n".join(line for line in map(_plain_block, blocks) if line)


@lru_cache(maxsize=4096)
def _plain_block(block: Block) -> str:
    """One block as plain text (empty for code). Cached: cleaning, the lead, measured results and the
    design sentence each read the same blocks of a PR."""
    if block.kind == "code":
        return ""
    if block.kind == "heading":
        return block.heading
    lines = [_QUOTE.sub("", ln, count=1) if block.kind == "quote" else ln for ln in block.lines]
    if block.kind == "list":
        lines[0] = _LIST_ITEM.sub("", lines[0], count=1)
    text = _join_wrapped(lines)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    # Emphasis markers are dropped outside inline code only: `SGLangHttpServer.__init__` keeps its name.
    if "`" in text:
        pieces = _CODE_SPAN.split(text)
        text = "".join(p if i % 2 else _unemphasised(p).replace("`", "") for i, p in enumerate(pieces))
    else:
        text = _unemphasised(text)
    return _SPACES.sub(" ", text).strip() if "  " in text or "\t" in text else text.strip()


def _render(blocks: list[Block]) -> str:
    """Blocks back to markdown: items of one list stay together, other blocks are separated by a blank line."""
    out: list[str] = []
    for i, block in enumerate(blocks):
        if i:
            out.append("\n" if block.kind == "list" and blocks[i - 1].kind == "list" else "\n\n")
        out.append("\n".join(block.lines))
    return "".join(out)


@lru_cache(maxsize=512)
def clean_body(body: str | None) -> CleanBody:
    """The author's part of a PR description (see the module docstring for what is removed). Cached (the
    result is immutable): the analyzer and the search document both read a PR's body, a batch apart."""
    text = (body or "").replace("\r\n", "\n").replace("\r", "\n")
    text = _HTML_COMMENT.sub("", text)
    images = len(_IMG_TAG.findall(text)) + len(_MD_IMAGE.findall(text)) + len(_VIDEO.findall(text))
    text = _LAYOUT_TAG.sub("", _MD_IMAGE.sub("", _IMG_TAG.sub("", _VIDEO.sub("", text))))
    blocks = [b for b in (_without_prompts(b) for b in _blocks(text.split("\n"))) if b is not None]
    blocks = _drop_sections(blocks)
    rendered = _render(blocks)
    prose = _render([b for b in blocks if b.kind != "code"])
    return CleanBody(
        text=rendered,
        prose=prose,
        sections=_sections(blocks),
        images=images,
        code_blocks=sum(1 for b in blocks if b.kind == "code"),
    )
