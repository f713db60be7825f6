"""Colour comes from rich: a stream gets styles where rich says it takes colour (a terminal,
FORCE_COLOR; not NO_COLOR, not TERM=dumb), and then search's text output marks the query's
words in each chunk (as the app does); in a pipe or under NO_COLOR the text is exactly the
chunk, and nothing a memory holds reaches the terminal raw either way."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from reme_tui.cli.output import format_response, use_color, write_styled
from reme_tui.engine import Engine, SearchQuery
from tests.helpers import memory, write_workspace

COLOUR_ENV = ("NO_COLOR", "FORCE_COLOR", "TERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLORTERM")


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in COLOUR_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    return monkeypatch


@pytest.mark.parametrize(
    ("tty", "env", "coloured"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"TERM": "dumb"}, False),
        (False, {"FORCE_COLOR": "1"}, True),
        (False, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_rich_decides_who_gets_colour(
    clean_env: pytest.MonkeyPatch, tty: bool, env: dict[str, str], coloured: bool
) -> None:
    for name, value in env.items():
        clean_env.setenv(name, value)
    stream = Tty() if tty else io.StringIO()
    assert use_color(stream) is coloured


def test_query_words_are_marked_only_in_colour(
    tmp_path: Path, clean_env: pytest.MonkeyPatch
) -> None:
    text = "The Budget rose; budgeting \x1b[2J later.\x9b31m\n"
    workspace = write_workspace(tmp_path, {"daily/2026-03-01.md": memory(text)})
    response = Engine.open(workspace).search(SearchQuery(text="budget"))
    terminal = Tty()
    write_styled(format_response(response), terminal)
    marked = terminal.getvalue()
    assert "The \x1b[1;33mBudget\x1b[0m rose; budgeting \\x1b[2J later.\\x9b31m" in marked
    assert "\x1b[1;34m========== daily/2026-03-01.md:" in marked  # the header
    assert "\x9b" not in marked  # the memory's own escapes stay visible, never obeyed
    pipe = io.StringIO()
    write_styled(format_response(response), pipe)
    plain = pipe.getvalue()
    assert "The Budget rose; budgeting \\x1b[2J later.\\x9b31m" in plain
    assert "\x1b" not in plain and "\x9b" not in plain
    assert plain == format_response(response).plain
    clean_env.setenv("NO_COLOR", "1")
    no_colour = Tty()
    write_styled(format_response(response), no_colour)
    assert no_colour.getvalue() == plain


def test_long_lines_and_tabs_are_not_wrapped_or_cropped(clean_env: pytest.MonkeyPatch) -> None:
    """Styles never change the characters: no wrapping at the terminal's width, no tab
    expanded to spaces, wide characters as they are."""
    from reme_tui.cli.output import styled

    line = "word\t" * 60 + "中文 end\n"
    terminal = Tty()
    write_styled(styled((line, "bold")), terminal)
    assert terminal.getvalue().replace("\x1b[1m", "").replace("\x1b[0m", "") == line
