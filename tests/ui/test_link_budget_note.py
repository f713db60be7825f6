"""A memory past the link budget (issue 23) says so where it is shown: the preview's warning
notes and the diagnostics list (both read the engine's diagnostics, no screen of its own)."""

from __future__ import annotations

from pathlib import Path

from reme_tui.engine import Code, Engine
from reme_tui.engine.parse.wikilinks import MAX_LINKS_PER_MEMORY
from reme_tui.ui.file_notes import warning_line, warnings_of
from tests.helpers import memory, write_workspace

PATH = "digest/many-links.md"


def test_the_preview_notes_and_the_diagnostics_list_name_the_dropped_links(
    tmp_path: Path,
) -> None:
    body = "".join(f"[[n{i}]]\n" for i in range(MAX_LINKS_PER_MEMORY + 2))
    engine = Engine.open(write_workspace(tmp_path, {PATH: memory(body, tags=["t"])}))
    found = engine.memory(PATH)
    assert found is not None
    first_dropped = 6 + MAX_LINKS_PER_MEMORY  # five frontmatter lines, one link a line
    notes = [warning_line(d) for d in warnings_of(found)]
    assert notes == [
        f"⚠ line {first_dropped}: 2 more distinct wikilinks from here on, past the first "
        f"{MAX_LINKS_PER_MEMORY:,}, are not kept: no neighbours or link checks for them "
        "(their text is still searched)"
    ]
    listed = [d for d in engine.diagnostics() if d.code == Code.LINKS_TOO_MANY]
    assert [(d.path, d.line) for d in listed] == [(PATH, first_dropped)]
    assert f"{MAX_LINKS_PER_MEMORY:,}" in Code.LINKS_TOO_MANY.explanation
