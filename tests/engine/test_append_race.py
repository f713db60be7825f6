"""An agent appending to a memory while its tags are edited loses nothing (issue 26).

ReMe's tools append the plain way (open, append, close). A rewrite renames a new file over
the old one; an append landing in the old inode around the rename used to vanish with it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.files import fileio
from reme_tui.engine.files.fileio import ConflictError
from reme_tui.engine.parse.frontmatter import AddTag, RemoveTag
from tests.helpers import write_workspace

TAGGED = "---\nmemory_tags: [a]\n---\nbody\n"
REL = "digest/a.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", {REL: TAGGED})


def _around_rename(
    monkeypatch: pytest.MonkeyPatch,
    before: Callable[[], None],
    after: Callable[[], None] = lambda: None,
) -> None:
    """Run ``before`` right before the rewrite's rename of the memory, ``after`` right after."""
    real_replace = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        memory = str(dst).endswith(REL)
        if memory:
            before()
        real_replace(src, dst)
        if memory:
            after()

    monkeypatch.setattr(fileio.os, "replace", replace)


def _append(path: Path, line: str) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line)


def test_append_between_check_and_rename_is_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = root / REL
    _around_rename(monkeypatch, lambda: _append(path, "late line\n"))
    Engine.open(root).edit_tags(REL, AddTag("b"))
    text = path.read_text()
    assert text == "---\nmemory_tags: [a, b]\n---\nbody\nlate line\n"


def test_writer_holding_the_old_file_across_the_rename_is_kept(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = root / REL
    holders: list[object] = []

    def open_before() -> None:
        holders.append(open(path, "a", encoding="utf-8"))  # noqa: SIM115 - closed after

    def write_after() -> None:
        handle = holders.pop()
        handle.write("written to the old inode\n")  # type: ignore[attr-defined]
        handle.close()  # type: ignore[attr-defined]

    _around_rename(monkeypatch, open_before, write_after)
    Engine.open(root).edit_tags(REL, AddTag("b"))
    assert path.read_text().endswith("body\nwritten to the old inode\n")
    assert "memory_tags: [a, b]" in path.read_text()


def test_in_place_rewrite_during_the_rename_wins_and_is_a_conflict(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = root / REL
    theirs = "---\nmemory_tags: [z]\n---\nrewritten in place\n"

    holders: list[object] = []

    def open_before() -> None:
        holders.append(open(path, "r+", encoding="utf-8"))  # noqa: SIM115 - closed after

    def rewrite_old_inode_after() -> None:
        handle = holders.pop()
        handle.write(theirs)  # type: ignore[attr-defined]
        handle.truncate()  # type: ignore[attr-defined]
        handle.close()  # type: ignore[attr-defined]

    _around_rename(monkeypatch, open_before, rewrite_old_inode_after)
    with pytest.raises(ConflictError):
        Engine.open(root).edit_tags(REL, AddTag("b"))
    assert path.read_text() == theirs


# At most 20,000 lines (~220 KB): on a loaded machine an unbounded appender grew the file
# to megabytes, each edit re-reads it all, and the test ran for over 40 minutes.
APPENDER = """
import os, sys, time
path, stop = sys.argv[1], sys.argv[2]
n = 0
while not os.path.exists(stop) and n < 20_000:
    with open(path, 'a') as f:
        f.write(f'line {n}\\n')
    n += 1
    time.sleep(0.0005 * (n % 7))
print(n)
"""


def test_stress_no_appended_line_is_lost(root: Path) -> None:
    """An appender process races 300 tag edits: every line it wrote is in the file."""
    path, stop = root / REL, root / "stop"
    engine = Engine.open(root)
    appender = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(path), str(stop)], stdout=subprocess.PIPE, text=True
    )
    try:
        for i in range(300):
            op = AddTag("b") if i % 2 == 0 else RemoveTag("b")
            for _attempt in range(1000):
                try:
                    engine.edit_tags(REL, op)
                    break
                except ConflictError:
                    continue
    finally:
        stop.write_text("")
        written = int(appender.communicate(timeout=60)[0])
    lines = [line for line in path.read_text().splitlines() if line.startswith("line ")]
    lost = written - len(set(lines))
    assert (lost, len(lines) - len(set(lines))) == (0, 0)
