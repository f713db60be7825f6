"""How headless results look: ReMe-like text (coloured only on a terminal) or one JSON document.

Everything from the workspace is escaped on its way out (``safe_text``): a tag, name, path
or memory text can hold escape sequences that would otherwise drive the terminal.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from reme_tui.cli.common import info
from reme_tui.engine import Engine, Explanation
from reme_tui.engine.search import SearchResponse
from reme_tui.safe_text import for_json, for_terminal, for_terminal_line
from reme_tui.ui.rows import term_pattern  # a pure helper: no Textual

SEVERITY_COLOR = {"error": "31", "warning": "33", "info": "36"}


def use_color(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def paint(text: str, code: str, color: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if color and code else text


def out(text: str) -> None:
    """Write workspace-derived text to stdout, escaped (no colour codes in ``text``)."""
    sys.stdout.write(for_terminal(text))


def format_response(response: SearchResponse, *, color: bool = False) -> str:
    """ReMe-like text: a header per chunk, the chunk, then its link neighbours."""
    if not response.hits:
        return "No results.\n"
    hybrid = response.hybrid
    # On a terminal the query's words are marked in each chunk, as the app marks them.
    terms = term_pattern(response.query_tokens) if color else None
    lines: list[str] = []
    for hit in response.hits:
        scores = f"score={hit.score:.4f}"
        if hybrid:
            for label, value in (("vector", hit.vector_score), ("keyword", hit.keyword_score)):
                scores += f" {label}={value:.4f}" if value is not None else f" {label}=-"
        where = f"{for_terminal_line(hit.path)}:{hit.start_line}-{hit.end_line}"
        header = f"========== {where} [{scores}] =========="
        lines.append(paint(header, "1;34", color))
        lines.append(_marked(for_terminal(hit.text), terms))
        neighbours = response.links.get(hit.path)
        if neighbours is not None:
            for direction, arrow, items in (
                ("outlinks", "→", neighbours.outlinks),
                ("inlinks", "←", neighbours.inlinks),
            ):
                if not items:
                    continue
                lines.append(f"  {direction} ({len(items)}):")
                for item in items:
                    meta = []
                    if item.name:
                        meta.append(f'name="{for_terminal_line(item.name)}"')
                    if item.description:
                        meta.append(f'description="{for_terminal_line(item.description)}"')
                    shown = "  ".join(meta) if meta else "(no meta)"
                    path = paint(for_terminal_line(item.path), "36", color)
                    lines.append(f"    {arrow} {path}  {shown}")
                    anchors = map(for_terminal_line, item.anchors)
                    lines.extend(f"        via anchor=#{anchor}" for anchor in anchors)
    return "\n".join(lines) + "\n"


MATCH_COLOR = "1;33"


def _marked(text: str, terms: re.Pattern[str] | None) -> str:
    """``text`` (already escaped) with every match of ``terms`` in bold yellow."""
    if terms is None:
        return text
    return terms.sub(lambda match: paint(match.group(), MATCH_COLOR, True), text)


_MARKS = {True: ("✓", "32"), False: ("✗", "31")}


def format_explanation(explanation: Explanation, *, color: bool = False) -> str:
    """The verdict, then one line per stage: ✓ passed, ✗ failed, - did not apply; the
    stage that dropped the memory is marked with ▶."""
    code = "1;32" if explanation.returned else "1;31"
    lines = [paint(for_terminal_line(explanation.verdict), code, color)]
    for stage in explanation.stages:
        mark, mark_color = ("-", "2") if stage.skipped else _MARKS[stage.passed]
        pointer = "▶" if stage.stage == explanation.dropped_at else " "
        name = f"{stage.stage:<11}"
        detail = for_terminal_line(stage.detail)
        lines.append(f"{pointer} {paint(mark, mark_color, color)} {name} {detail}")
    return "\n".join(lines) + "\n"


def write_paths(paths: Iterable[str], *, nul: bool) -> None:
    """Paths for pipes: one a line, escaped (``--paths``), or each ended by a NUL byte
    (``-0``: raw for xargs -0 and fzf --read0, escaped if it would reach a terminal)."""
    if not nul:
        sys.stdout.writelines(for_terminal_line(path) + "\n" for path in paths)
        return
    shown = for_terminal_line if sys.stdout.isatty() else str
    sys.stdout.writelines(shown(path) + "\0" for path in paths)


def print_json(document: dict[str, Any], *, indent: int | None = 2) -> None:
    """One JSON document on stdout; C1 and bidi characters escaped too (``for_json``)."""
    sys.stdout.write(for_json(document, indent=indent) + "\n")


def mention_diagnostics(engine: Engine) -> None:
    """On a terminal, one line saying how many problems `reme-tui diagnostics` would list."""
    if not sys.stderr.isatty():
        return
    problems = [d for d in engine.diagnostics() if d.severity != "info"]
    if problems:
        files = len({d.path for d in problems})
        info(f"{len(problems)} problems in {files} files; see reme-tui diagnostics")
