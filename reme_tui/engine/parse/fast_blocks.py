"""The exact fast path: a body's top-level blocks without mistletoe, or None.

ReMe's chunk text is every top-level block parsed by mistletoe and rendered back with its
``MarkdownRenderer``; profiling a cold build put ~70 % of it there. For the blocks agents
write most (paragraphs, ATX headings, simple lists, fenced code) that round trip is known
in advance: the renderer is built to reproduce its input, and what it changes (leading
spaces of paragraph lines, the indentation of list continuation lines, whitespace-only
code lines) is reproduced here. The fast path accepts a body only when every line is one
it can prove the rendering of, and returns None otherwise, so the caller runs mistletoe on
the whole body: a table, a quote, HTML, an inline link, a link reference definition, a
nested list, trailing whitespace, a tab outside code... anywhere means mistletoe.

What is refused, and why (each is a place where mistletoe's output is not the input, or
where the block structure depends on rules this module does not model):
- line separators other than ``\\n`` (mistletoe splits lines with ``str.splitlines``);
- in text lines: ``](`` (inline links and images are normalized), ``]:``
  (link reference definitions change how every bracket in the document is read),
  character references like ``&amp;`` (decoded in the rendering), an escaped backslash
  (dropped before an autolink or a code span), a backslash ending a line after ``*`` or
  ``_`` (counted into the emphasis delimiter at the end of a block), tabs,
  leading or trailing whitespace on a block's first line, trailing whitespace anywhere
  (hard line breaks), a code span that crosses a line (its newline becomes a space);
- lines that could start or interrupt another kind of block: ``#`` not followed by a
  heading, ``>``, ``<``, list markers other than simple ones, rules and setext underlines,
  table delimiter rows (so a ``|`` in text, as in ``[[path.md|alias]]``, never starts a table),
  indented lines other than the continuation of a paragraph or list item.

tests/engine/test_fast_blocks.py proves it against mistletoe on generated Markdown and on
every workspace in the repository.
"""

from __future__ import annotations

import re

from .blocks import Block, CodeParts

__all__ = ["fast_blocks"]

# str.splitlines() splits on these too; mistletoe's line numbers would then differ.
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\x00]")
_HEADING = re.compile(r"(#{1,6}) +(\S.*)")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_ITEM = re.compile(r"([*+-]|\d{1,9}[.)]) (\S.*)")
# Anything a line could begin that is not paragraph text (stricter than mistletoe's rules).
_BLOCK_START = re.compile(r" {0,3}(?:[#<>]|\d{0,9}[.)](?:[ \t]|$)|[*+-](?:[ \t]|$)|`{3}|~{3})")
_RULE_OR_UNDERLINE = re.compile(r"[-_*= ]+")
# mistletoe's table delimiter row ("---", ":-:|--" ...): a line with "|" before one is a table.
_TABLE_DELIMITER_ROW = re.compile(r"\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*")
# Tables, inline links and images, link reference definitions, character references
# (mistletoe decodes ``&amp;`` in text to ``&``; the pattern is its own), and an escaped
# backslash (mistletoe 1.6.0 drops ``\\`` before an autolink or a code span:
# ``\\<http://a.b>`` renders as ``<http://a.b>``).
_UNSAFE_TEXT = re.compile(
    r"\t|\]\(|\]:|\\\\|&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[^\t\n\f <&#;]{1,32};)"
)
# A backslash ending a line right after ``*`` or ``_``: at the end of a block mistletoe
# 1.6.0 counts it into the delimiter run (``**word*\`` renders as ``**word**``). Checked
# with endswith, not in the pattern above: as an alternative there it made every search
# of a line six times slower (0.4 -> 2.5 us), and a cold build ~7 % slower.
_DELIMITER_THEN_BACKSLASH = ("*\\", "_\\")
# mistletoe's (and CommonMark's) code span.
_CODE_SPAN = re.compile(r"(?<!\\|`)(?:\\\\)*(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def fast_blocks(body: str) -> list[Block] | None:
    """The top-level blocks of ``body`` (newlines already normalized) exactly as mistletoe
    renders them, or None when the body holds anything this path cannot prove."""
    if _OTHER_LINE_BREAKS.search(body):
        return None
    lines = body.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return _Scanner(lines).blocks()


def _blank(line: str) -> bool:
    return not line.strip(" ")


def _safe_text(text: str) -> bool:
    """Inline text that mistletoe renders back unchanged (leading and trailing whitespace
    are checked by the callers)."""
    return (
        not text[-1].isspace()
        and not text.endswith(_DELIMITER_THEN_BACKSLASH)
        and _UNSAFE_TEXT.search(text) is None
    )


def _plain(line: str) -> bool:
    """A line that can only be paragraph text, rendered as it is."""
    return (
        bool(line)
        and not line[0].isspace()
        and _safe_text(line)
        and _BLOCK_START.match(line) is None
        and _RULE_OR_UNDERLINE.fullmatch(line) is None
        and _TABLE_DELIMITER_ROW.fullmatch(line) is None
    )


def _heading(line: str) -> re.Match[str] | None:
    match = _HEADING.fullmatch(line)
    if match is None:
        return None
    text = match.group(2)
    return match if _safe_text(text) and not text.endswith("#") else None


def _item(line: str) -> re.Match[str] | None:
    match = _ITEM.fullmatch(line)
    return match if match is not None and _plain(match.group(2)) else None


def _same_list(leader: str, other: str) -> bool:
    if len(leader) == 1:
        return leader == other
    return len(other) > 1 and leader[-1] == other[-1]


def _spans_stay_on_their_lines(text: str) -> bool:
    if "`" not in text or "\n" not in text:
        return True
    return all("\n" not in m.group(0) for m in _CODE_SPAN.finditer(text))


class _Scanner:
    """One pass over the lines; any line it cannot account for ends it with None."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._i = 0

    def blocks(self) -> list[Block] | None:
        lines = self._lines
        out: list[Block] = []
        while self._i < len(lines):
            line = lines[self._i]
            block: Block | None
            if _blank(line):
                self._i += 1
                continue
            if (fence := _FENCE.fullmatch(line)) is not None:
                block = self._fence(fence)
            elif (heading := _heading(line)) is not None:
                block = Block("heading", self._i + 1, heading.group(2), len(heading.group(1)))
                self._i += 1
            elif (item := _item(line)) is not None:
                block = self._list(item)
            elif _plain(line):
                block = self._paragraph()
            else:
                return None
            if block is None:
                return None
            out.append(block)
        return out

    def _interrupts(self, line: str) -> bool:
        return _FENCE.fullmatch(line) is not None or _heading(line) is not None

    def _fence(self, opening: re.Match[str]) -> Block | None:
        delimiter, info = opening.group(1), opening.group(2)
        if delimiter[0] == "`" and "`" in info:
            return None
        if "\t" in info:
            return None
        first = self._i + 1
        self._i += 1
        code: list[str] = []
        while self._i < len(self._lines):
            line = self._lines[self._i]
            self._i += 1
            stripped = line.lstrip(" ")
            if (
                stripped.startswith(delimiter)
                and len(stripped.split(maxsplit=1)) == 1
                and len(line) - len(stripped) < 4
            ):
                break
            code.append(line)
        rendered = [("" if ln.isspace() else ln) for ln in code] or [""]
        text = "\n".join([delimiter + info, *rendered, delimiter])
        content = "".join(ln + "\n" for ln in code)
        return Block("code", first, text, code=CodeParts(0, delimiter, info, content))

    def _paragraph(self) -> Block | None:
        lines = self._lines
        first = self._i
        text_lines = [lines[first]]
        self._i += 1
        while self._i < len(lines) and not _blank(lines[self._i]):
            line = lines[self._i]
            if self._interrupts(line):
                break
            item = _item(line)
            if item is not None:
                if item.group(1) in ("-", "*", "+", "1.", "1)"):
                    break
                return None
            stripped = line.lstrip(" ")
            if not _plain(stripped):
                return None
            text_lines.append(stripped)
            self._i += 1
        text = "\n".join(text_lines)
        if not _spans_stay_on_their_lines(text):
            return None
        return Block("other", first + 1, text)

    def _list(self, first_item: re.Match[str]) -> Block | None:
        lines = self._lines
        leader = first_item.group(1)
        start = self._i
        rendered: list[str] = []
        items: list[tuple[str, int | None]] = []
        item: re.Match[str] | None = first_item
        while item is not None:
            item_start = self._i
            prepend = " " * (len(item.group(1)) + 1)
            content = [item.group(2)]
            item_lines = [f"{item.group(1)} {item.group(2)}"]
            self._i += 1
            item = None
            while self._i < len(lines):
                line = lines[self._i]
                if _blank(line):
                    after = self._i
                    while after < len(lines) and _blank(lines[after]):
                        after += 1
                    if after < len(lines) and lines[after].startswith(" "):
                        return None  # an indented line after a blank may continue the item
                    following = _item(lines[after]) if after < len(lines) else None
                    if following is not None and _same_list(leader, following.group(1)):
                        # The blank lines belong to this item and render as empty lines.
                        item_lines.extend([""] * (after - self._i))
                        self._i = after
                        item = following
                    break
                if self._interrupts(line):
                    break
                following = _item(line)
                if following is not None:
                    if _same_list(leader, following.group(1)):
                        item = following
                    break
                stripped = line.lstrip(" ")
                if not _plain(stripped):
                    return None
                content.append(stripped)
                item_lines.append(prepend + stripped)
                self._i += 1
            if not _spans_stay_on_their_lines("\n".join(content)):
                return None
            items.append(("\n".join(item_lines).rstrip("\n"), item_start + 1))
            rendered.extend(item_lines)
        return Block("list", start + 1, "\n".join(rendered).rstrip("\n"), units=lambda: items)
