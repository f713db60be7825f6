"""Tag suggestions from the installed wheel: headless, and the untagged review in a real
terminal, where accepting one writes the file through the engine."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CHECKOUT
from .terminal import Terminal

NOTE = "daily/2026-12-01/sync.md"
NOTE_TEXT = "---\nname: Sync with Priya\ndescription: Weekly sync\n---\nPriya on the runbook.\n"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    root = Path(shutil.copytree(CHECKOUT / "sample_workspace", tmp_path / "sample"))
    (root / NOTE).parent.mkdir(parents=True)
    (root / NOTE).write_text(NOTE_TEXT, encoding="utf-8")
    return root


def test_suggest_tags_headless(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    done = subprocess.run(
        [str(reme_tui), str(sample), "--suggest-tags", NOTE, "--json"],
        env=home, cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["suggestions"][0]["tag"] == "priya"
    assert any("no model loaded" in note for note in report["notes"])


def test_the_untagged_review_tags_a_memory_with_one_key(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    app = Terminal(reme_tui, [str(sample)], home, tmp_path, columns=160)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    # The palette, not Escape then u: a terminal sends those as one Alt+u sequence.
    app.type("\x10")  # ctrl+p
    app.wait_for(lambda: "palette" in app.text().lower(), "the command palette")
    app.type("untagged")
    app.wait_for(lambda: "Review untagged memories" in app.text(), "the command")
    app.type("\r")
    # sample_workspace has two untagged memories of its own; the new note is the newest
    app.wait_for(lambda: "3 untagged memories" in app.text(), "the review")
    app.wait_for(lambda: "a priya" in app.text(), "its suggestion")
    app.type("a")
    app.wait_for(lambda: "2 untagged memories" in app.text(), "the memory tagged")
    assert "Traceback" not in app.text()
    assert app.quit() == 0
    text = (sample / NOTE).read_text(encoding="utf-8")
    assert "memory_tags:" in text and "priya" in text
    assert text.endswith("---\nPriya on the runbook.\n")
