"""A memory's body as terminal lines, block by block, without a widget per block.

Textual's `Markdown` mounts a widget for every block (a table is dozens): a 14 KB memory
with tables took 750-1,100 ms to appear at 160x45, a 10 KB one without tables ~500 ms.
Here the body is split into its top-level blocks (markdown-it, which rich's renderer
uses too), and each block is rendered by rich's Markdown to segments only when the
screen first needs its lines, so a long memory costs its first screenful at once and the
rest a frame later; each block keeps its source lines, so matched lines, anchors and
query-word hits map to rendered lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from markdown_it import MarkdownIt
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Heading, Markdown, MarkdownElement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from reme_tui.safe_text import for_terminal

Line = list[Segment]


@dataclass(frozen=True, slots=True)
class SourceBlock:
    """One top-level block: source lines ``start`` to ``end`` (exclusive, 0-based)."""

    start: int
    end: int
    text: str


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("strikethrough").enable("table")


def split_blocks(body: str) -> list[SourceBlock]:
    """The top-level blocks of ``body`` in order. Link reference definitions, which a
    block rendered alone would not see, are appended to every block that may use them."""
    env: dict[str, object] = {}
    tokens = _parser().parse(body, env)
    lines = body.split("\n")
    references = _reference_lines(env)
    blocks: list[SourceBlock] = []
    for token in tokens:
        if token.level != 0 or token.nesting < 0 or token.map is None:
            continue
        start, end = token.map
        text = "\n".join(lines[start:end])
        if references and "]" in text:
            text = f"{text}\n\n{references}"
        blocks.append(SourceBlock(start, end, text))
    return blocks


def _reference_lines(env: dict[str, object]) -> str:
    found = env.get("references")
    if not isinstance(found, dict):
        return ""
    out = []
    for label, ref in found.items():
        if isinstance(ref, dict) and isinstance(ref.get("href"), str):
            title = ref.get("title")
            suffix = f' "{title}"' if isinstance(title, str) and title else ""
            out.append(f"[{label}]: <{ref['href']}>{suffix}")
    return "\n".join(out)


class LeftHeading(Heading):
    """Headings as the app's other Markdown shows them: left-aligned, bold, not boxed."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text
        text.justify = "left"
        text.stylize(Style(bold=True, underline=self.tag == "h1"))
        yield text  # the gap between blocks is the widget's, as for every other block


class BodyMarkdown(Markdown):
    """The body's Markdown, its text made safe for the terminal once parsed.

    The source is shown with its control characters escaped already (``render_preview``),
    but the parser decodes character references: ``&#x202e;`` became a raw bidi override
    (``&#13;`` a carriage return) in the rendered text. Every token's text is escaped
    after parsing, as the source was (already escaped text is left as it is)."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "heading_open": LeftHeading,
    }

    def __init__(self, markup: str, code_theme: str, *, hyperlinks: bool) -> None:
        super().__init__(markup, code_theme=code_theme, hyperlinks=hyperlinks)
        tokens = list(self.parsed)
        while tokens:
            token = tokens.pop()
            if token.content:
                token.content = for_terminal(token.content)
            tokens.extend(token.children or ())


def render_block(console: Console, block: SourceBlock, width: int, code_theme: str) -> list[Line]:
    """``block`` as lines of segments ``width`` cells wide."""
    options = console.options.update(width=max(1, width), height=None)
    markdown = BodyMarkdown(block.text, code_theme=code_theme, hyperlinks=True)
    return console.render_lines(markdown, options, pad=True)


def clickable_links(line: Line, action: str) -> Line:
    """Segments with a link style turned into a click on ``action(href)`` (underlined),
    instead of a terminal hyperlink the app would not see."""
    out: Line = []
    for segment in line:
        style = segment.style
        if style is None or not style.link:
            out.append(segment)
            continue
        plain = Style(
            color=style.color,
            bgcolor=style.bgcolor,
            bold=style.bold,
            italic=style.italic,
            underline=True,
        )
        meta = Style.from_meta({"@click": f"{action}({style.link!r})"})
        out.append(Segment(segment.text, plain + meta))
    return out


def highlighted(console: Console, line: Line, spans: Iterable[tuple[int, int]], hit: Style) -> Line:
    """``line`` with the character ``spans`` styled ``hit``."""
    text = Text.assemble(*((segment.text, segment.style or "") for segment in line), end="")
    for start, end in spans:
        text.stylize(hit, start, end)
    return list(text.render(console))
