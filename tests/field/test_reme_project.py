"""The installed wheel on what real ReMe installations and their agents leave behind: a
`.reme/` project found from its folder, junk tags fixed only on request, and a change
history that sees edits, creations, moves and deletions made behind reme-tui's back."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CHECKOUT
from .terminal import Terminal


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return Path(shutil.copytree(CHECKOUT / "sample_reme_project", tmp_path / "project"))


def run(reme_tui: Path, env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(reme_tui), *args], env=env, cwd=cwd, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=300,
    )  # fmt: skip


def memory_bytes(root: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in root.rglob("*.md")}


def test_a_reme_project_is_found_from_its_folder(
    reme_tui: Path, home: dict[str, str], project: Path
) -> None:
    done = run(reme_tui, home, project, "--list-tags")
    assert done.returncode == 0, done.stderr
    assert f"workspace {project / '.reme'} (found .reme here)" in done.stderr
    assert done.stdout.split("\n")[0].split() == ["5", "project_orbit"]
    assert "openai,_gold" in done.stdout  # the agent's comma-joined tag, as ReMe indexes it

    nested = project / "src" / "deep"
    nested.mkdir(parents=True)
    done = run(reme_tui, home, nested, "--list-tags", "--json")
    assert done.returncode == 0, done.stderr
    assert str(project / ".reme") in done.stderr
    assert json.loads(done.stdout)["total_tags"] > 0


def test_junk_tag_fixes_are_shown_before_anything_is_written(
    reme_tui: Path, home: dict[str, str], project: Path
) -> None:
    before = memory_bytes(project / ".reme")
    done = run(reme_tui, home, project, "--fix-tags", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "+- gold" in done.stdout
    assert memory_bytes(project / ".reme") == before


def test_the_app_opens_the_reme_project_and_searches_it(
    reme_tui: Path, home: dict[str, str], project: Path
) -> None:
    # Wide enough that a result row shows its whole path (rows are cut to the pane's width).
    app = Terminal(reme_tui, [], home, project, columns=160)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    assert "project/.reme" in app.text()
    app.type("cookie")
    note = "daily/2026-03-12/login-bug-triage.md"  # ReMe-written; the final results show it
    app.wait_for(
        lambda: "3 results" in app.text() and any(note in row for row in app.screen.display),
        "the ReMe-written note among the results",
    )
    assert "Traceback" not in app.text()
    assert app.quit() == 0


def test_changes_made_behind_its_back_are_in_the_history(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    workspace = Path(shutil.copytree(CHECKOUT / "sample_workspace", tmp_path / "ws"))
    first = run(reme_tui, home, tmp_path, str(workspace), "--changes", "--json")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["entries"] == []  # the first run is a silent baseline

    notes = sorted((workspace / "daily").rglob("*.md"))
    edited, moved, deleted = notes[0], notes[1], notes[2]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA line the agent added.\n")
    moved_to = moved.with_name("renamed-by-agent.md")
    moved.rename(moved_to)
    deleted_bytes = deleted.read_bytes()
    deleted.unlink()
    created = workspace / "daily" / "2026-11-30" / "new-note.md"
    created.parent.mkdir(parents=True, exist_ok=True)
    created.write_text("---\nname: New\ndescription: d\n---\nA brand new memory.\n")

    done = run(reme_tui, home, tmp_path, str(workspace), "--changes", "--json")
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)["entries"]
    kinds = {entry["path"]: entry["kind"] for entry in entries}
    rel = lambda path: path.relative_to(workspace).as_posix()  # noqa: E731
    assert kinds[rel(edited)] == "modified"
    assert kinds[rel(moved_to)] == "moved"
    assert kinds[rel(deleted)] == "deleted"
    assert kinds[rel(created)] == "created"
    edit = next(entry for entry in entries if entry["path"] == rel(edited))
    assert "+A line the agent added." in edit["diff"]

    removal = next(entry for entry in entries if entry["path"] == rel(deleted))
    done = run(
        reme_tui, home, tmp_path, str(workspace), "--revert", rel(deleted),
        "--to", f"{removal['id']}^",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert deleted.read_bytes() == deleted_bytes
