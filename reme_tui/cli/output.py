"""How headless results look: ReMe-like text (styled by rich where rich says the stream takes
colour) or one JSON document with a ``schema`` version.

Everything from the workspace is escaped on its way out (``safe_text``): a tag, name, path
or memory text can hold escape sequences that would otherwise drive the terminal. Styled text
is a ``rich.text.Text`` built from escaped strings; rich decides whether a stream gets colour
(a terminal, ``NO_COLOR``, ``FORCE_COLOR``, ``TERM=dumb``) and writes the codes. rich is
imported only when text is written: ``--help``, ``--version`` and JSON output never load it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from reme_tui.cli.common import info
from reme_tui.safe_text import for_json, for_terminal, for_terminal_line
from reme_tui.shape_version import versioned
from reme_tui.ui.rows import TermPattern, term_pattern  # pure helpers: no Textual

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from reme_tui.engine import Engine, Explanation
    from reme_tui.engine.search import SearchResponse

SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}
HEADER_STYLE = "bold blue"
LINK_STYLE = "cyan"
MATCH_STYLE = "bold yellow"


def console_for(stream: TextIO) -> Console:
    """A rich Console on ``stream`` that prints text as given: no markup, no highlighting,
    no emoji codes, no wrapping at the terminal's width."""
    from rich.console import Console

    return Console(file=stream, markup=False, highlight=False, emoji=False, soft_wrap=True)


def use_color(stream: TextIO) -> bool:
    """Whether ``stream`` gets styles: rich's answer (a terminal that is not TERM=dumb, or
    FORCE_COLOR), and no NO_COLOR (then not even bold: plain text, as in a pipe)."""
    console = console_for(stream)
    return console.color_system is not None and not console.no_color


def write_styled(text: Text, stream: TextIO | None = None) -> None:
    """``text`` (built from escaped strings) on ``stream`` (stdout): styled by rich where
    ``use_color`` says so, else exactly its plain characters."""
    stream = sys.stdout if stream is None else stream
    console = console_for(stream)
    if console.color_system is None or console.no_color:
        stream.write(text.plain)
        return
    from rich.console import COLOR_SYSTEMS

    # Each styled run as rich renders it for this terminal, and the characters exactly as
    # given: rich's print would also expand tabs and fit lines to the terminal's width.
    system = COLOR_SYSTEMS[console.color_system]
    stream.write(
        "".join(
            part.style.render(part.text, color_system=system) if part.style else part.text
            for part in text.render(console)
        )
    )


def styled(*parts: str | tuple[str, str]) -> Text:
    """A line of text from escaped strings and (escaped string, style) pairs."""
    from rich.text import Text

    return Text.assemble(*parts, end="")


def out(text: str) -> None:
    """Write workspace-derived text to stdout, escaped (no colour codes in ``text``)."""
    sys.stdout.write(for_terminal(text))


def format_response(response: SearchResponse) -> Text:
    """ReMe-like text: a header per chunk, the chunk (the query's words marked, as the app
    marks them; shown only where colour is), then its link neighbours."""
    from rich.text import Text

    document = Text(end="")
    if not response.hits:
        document.append("No results.\n")
        return document
    hybrid = response.hybrid
    terms = term_pattern(response.query_tokens)
    for number, hit in enumerate(response.hits):
        if number:
            document.append("\n")
        scores = f"score={hit.score:.4f}"
        if hybrid:
            for label, value in (("vector", hit.vector_score), ("keyword", hit.keyword_score)):
                scores += f" {label}={value:.4f}" if value is not None else f" {label}=-"
        where = f"{for_terminal_line(hit.path)}:{hit.start_line}-{hit.end_line}"
        document.append(f"========== {where} [{scores}] ==========", HEADER_STYLE)
        document.append("\n")
        document.append_text(marked(for_terminal(hit.text), terms))
        neighbours = response.links.get(hit.path)
        if neighbours is None:
            continue
        for direction, arrow, items in (
            ("outlinks", "→", neighbours.outlinks),
            ("inlinks", "←", neighbours.inlinks),
        ):
            if not items:
                continue
            document.append(f"\n  {direction} ({len(items)}):")
            for item in items:
                meta = []
                if item.name:
                    meta.append(f'name="{for_terminal_line(item.name)}"')
                if item.description:
                    meta.append(f'description="{for_terminal_line(item.description)}"')
                shown = "  ".join(meta) if meta else "(no meta)"
                document.append(f"\n    {arrow} ")
                document.append(for_terminal_line(item.path), LINK_STYLE)
                document.append(f"  {shown}")
                for anchor in map(for_terminal_line, item.anchors):
                    document.append(f"\n        via anchor=#{anchor}")
    document.append("\n")
    return document


def marked(text: str, terms: TermPattern | None) -> Text:
    """``text`` (already escaped) with every match of ``terms`` styled as a match."""
    from rich.text import Text

    result = Text(text, end="")
    if terms is not None:
        for match in terms.finditer(text):
            result.stylize(MATCH_STYLE, match.start(), match.end())
    return result


_MARKS = {True: ("✓", "green"), False: ("✗", "red")}


def format_explanation(explanation: Explanation) -> Text:
    """The verdict, then one line per stage: ✓ passed, ✗ failed, - did not apply; the
    stage that dropped the memory is marked with ▶."""
    verdict_style = "bold green" if explanation.returned else "bold red"
    lines = [styled((for_terminal_line(explanation.verdict), verdict_style))]
    for stage in explanation.stages:
        mark, mark_style = ("-", "dim") if stage.skipped else _MARKS[stage.passed]
        pointer = "▶" if stage.stage == explanation.dropped_at else " "
        detail = for_terminal_line(stage.detail)
        lines.append(styled(f"{pointer} ", (mark, mark_style), f" {stage.stage:<11} {detail}"))
    document = styled("\n").join(lines)
    document.append("\n")
    return document


def write_paths(paths: Iterable[str], *, nul: bool) -> None:
    """Paths for pipes: one a line, escaped (``--paths``), or each ended by a NUL byte
    (``-0``: raw for xargs -0 and fzf --read0, escaped if it would reach a terminal)."""
    if not nul:
        sys.stdout.writelines(for_terminal_line(path) + "\n" for path in paths)
        return
    shown = for_terminal_line if sys.stdout.isatty() else str
    sys.stdout.writelines(shown(path) + "\0" for path in paths)


def print_json(document: dict[str, Any], *, indent: int | None = 2) -> None:
    """One JSON document on stdout, its ``schema`` version first; C1 and bidi characters
    escaped too (``for_json``)."""
    sys.stdout.write(for_json(versioned(document), indent=indent) + "\n")


def print_json_lines(documents: Iterable[dict[str, Any]]) -> None:
    """``--jsonl``: one JSON document a line, each with the ``schema`` version first."""
    sys.stdout.writelines(for_json(versioned(doc), indent=None) + "\n" for doc in documents)


def mention_diagnostics(engine: Engine) -> None:
    """On a terminal, one line saying how many problems `reme-tui diagnostics` would list."""
    if not sys.stderr.isatty():
        return
    problems = [d for d in engine.diagnostics() if d.severity != "info"]
    if problems:
        files = len({d.path for d in problems})
        info(f"{len(problems)} problems in {files} files; see reme-tui diagnostics")
