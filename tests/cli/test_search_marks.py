"""On a terminal, search's text output marks the query's words in each chunk (as the app
does); in a pipe or under NO_COLOR the text is exactly the chunk."""

from __future__ import annotations

from pathlib import Path

from reme_tui.cli.output import MATCH_COLOR, format_response
from reme_tui.engine import Engine, SearchQuery
from tests.helpers import memory, write_workspace


def test_query_words_are_marked_only_in_colour(tmp_path: Path) -> None:
    workspace = write_workspace(
        tmp_path, {"daily/2026-03-01.md": memory("The Budget rose; budgeting \x1b[2J later.\n")}
    )
    engine = Engine.open(workspace)
    response = engine.search(SearchQuery(text="budget"))
    marked = format_response(response, color=True)
    assert f"The \x1b[{MATCH_COLOR}mBudget\x1b[0m rose; budgeting \\x1b[2J later." in marked
    plain = format_response(response, color=False)
    assert "The Budget rose; budgeting \\x1b[2J later." in plain and "\x1b" not in plain
