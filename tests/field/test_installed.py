"""The installed wheel, as a user runs it: headless modes, the app in a real terminal on a
workspace above every size threshold, the saved index, the bundled theme, no terminal."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.generate import generate

from .conftest import CHECKOUT, run
from .terminal import Terminal

MEMORIES = 2_500  # above the parallel build's threshold (2,000), where the app crashed
DUSK_BACKGROUND = "171a24"  # reme-dusk.toml's background: the bundled default theme


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("field") / "ws", MEMORIES)


def test_the_package_comes_from_the_install_not_the_checkout(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    python = reme_tui.parent / "python"
    code = "import reme_tui, importlib.metadata as m; print(reme_tui.__file__); "
    code += "print(m.version('reme-tui'))"
    out = subprocess.run(
        [str(python), "-c", code], env=home, cwd=tmp_path, capture_output=True, text=True,
        check=True,
    ).stdout.split()  # fmt: skip
    assert not Path(out[0]).resolve().is_relative_to(CHECKOUT)
    assert out[1]


def test_headless_query_and_tag_listing(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    done = run(reme_tui, home, tmp_path, str(sample), "--query", "launch budget", "--json")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert results and all(r["path"].endswith(".md") for r in results)
    done = run(reme_tui, home, tmp_path, str(sample), "--list-tags", "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert listing["total_tags"] == len(listing["items"]) > 0


def test_no_terminal_is_refused_at_once(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    done = run(reme_tui, home, tmp_path, str(sample))  # stdin /dev/null, stdout a pipe
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "reme-tui search" in done.stderr
    done = run(reme_tui, home, tmp_path, str(tmp_path / "missing"))
    assert done.returncode == 1 and "does not exist" in done.stderr


def test_the_app_opens_thousands_of_memories_then_comes_back_warm(
    reme_tui: Path, home: dict[str, str], big_workspace: Path, tmp_path: Path
) -> None:
    app = Terminal(reme_tui, [str(big_workspace)], home, tmp_path)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    assert f"{MEMORIES:,} memories" in app.status() or f"{MEMORIES} memories" in app.status()
    assert "Unknown theme" not in app.text()
    assert DUSK_BACKGROUND in app.colours(), "the bundled default theme is not active"
    app.type("budget")
    app.wait_for(lambda: " results" in app.text() and "budget" in app.text(), "results")
    assert "Traceback" not in app.text()
    assert app.quit() == 0

    again = Terminal(reme_tui, [str(big_workspace)], home, tmp_path)
    again.wait_for(lambda: "index ready (cached)" in again.status(), "a warm start")
    again.type("budget")
    again.wait_for(lambda: " results" in again.text(), "results after a warm start")
    assert again.quit() == 0


def children_of(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(child) for child in (task / "children").read_text().split())
    return found


def test_the_app_parses_a_cold_build_in_workers_forked_before_the_screen(
    reme_tui: Path, home: dict[str, str], big_workspace: Path, tmp_path: Path
) -> None:
    """The build runs in a thread, so the app forks its loader pool before any thread
    starts: the workers are there while it runs (quiet: nothing of theirs on screen) and
    gone with it."""
    app = Terminal(reme_tui, [str(big_workspace), "--no-cache"], home, tmp_path)
    app.wait_for(lambda: bool(app.status().strip()), "the first screen")  # forked by then
    workers = children_of(app.child.pid)
    assert len(workers) >= 2 or (os.cpu_count() or 1) < 2
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    assert "Traceback" not in app.text()
    assert app.quit() == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_the_app_builds_with_a_process_pool_under_its_captured_stderr(
    reme_tui: Path, home: dict[str, str], big_workspace: Path, tmp_path: Path
) -> None:
    """REME_TUI_WORKERS sizes the pool: it must work where a spawned one once crashed
    under the captured stderr ("bad value(s) in fds_to_keep"), or fall back, never fail."""
    env = {**home, "REME_TUI_WORKERS": "2"}
    app = Terminal(reme_tui, [str(big_workspace), "--no-cache"], env, tmp_path)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    assert "fds_to_keep" not in app.text() and "Traceback" not in app.text()
    assert app.quit() == 0


def test_a_burst_of_changes_lands_while_a_search_is_typed(
    reme_tui: Path, home: dict[str, str], big_workspace: Path, tmp_path: Path
) -> None:
    """Every memory rewritten at once while the app runs (an agent's sync, a checkout): the
    batch goes in a slice at a time, so the query typed meanwhile is answered, and once
    the burst has landed it is answered over every memory."""
    app = Terminal(reme_tui, [str(big_workspace)], home, tmp_path)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    paths = sorted(big_workspace.rglob("*.md"))
    assert len(paths) == MEMORIES
    originals = {path: path.read_bytes() for path in paths}
    try:
        for path in paths:
            path.write_bytes(originals[path] + b"\nzephyrburst\n")
        app.type("zephyrburst")
        every = f"of {MEMORIES:,} results"
        app.wait_for(
            lambda: every in app.text() and "index ready" in app.status(), "the whole burst"
        )
        assert "Traceback" not in app.text()
        assert app.quit() == 0
    finally:
        for path, data in originals.items():
            path.write_bytes(data)


def test_editing_keys_typed_in_one_go_keep_their_order(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    """A terminal delivers fast typing (or a script's keys) in one read: Ctrl+U and the
    letters after it must apply in order (Textual ran Ctrl+U after them: an empty box)."""
    app = Terminal(reme_tui, [str(sample)], home, tmp_path)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    app.type("launch")
    app.wait_for(lambda: "launch" in app.screen.display[0], "the first query")
    app.type("\x15budget\x7fx")  # ctrl+u, "budget", backspace, "x"
    app.wait_for(lambda: "budgex" in app.screen.display[0], "the keys in order")
    assert "launch" not in app.screen.display[0]
    assert app.quit() == 0


def test_a_warm_start_reports_what_a_cold_one_does_for_dated_frontmatter(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    """Frontmatter datetimes once came back from the saved index as ISO text, so a day-index
    page that ReMe rendered from them (str(value)) was reported stale after a warm start."""
    import os

    from reme_tui.engine.engine import Engine
    from reme_tui.engine.reme.day_index import render_entry

    root = tmp_path / "ws"
    note = root / "daily" / "2026-03-01" / "dated.md"
    note.parent.mkdir(parents=True)
    note.write_text(
        "---\nname: Dated\ndescription: d\ncreated: 2026-03-01 10:00:00\n"
        "at: 2026-03-01T10:00:00+02:00\n---\nbudget review\n",
        encoding="utf-8",
    )
    parsed = Engine.open(root).memory("daily/2026-03-01/dated.md")
    assert parsed is not None
    entry = render_entry(parsed.path, parsed.frontmatter)
    (root / "daily" / "2026-03-01.md").write_text(
        f"# 2026-03-01\n\n<!-- notes:auto -->\n{entry}\n<!-- /notes:auto -->\n", encoding="utf-8"
    )
    for path in root.rglob("*.md"):  # older than the saved index's trust window
        os.utime(path, (1_700_000_000, 1_700_000_000))
    cold = run(reme_tui, home, tmp_path, str(root), "--diagnostics", "--json")
    assert list(Path(home["XDG_CACHE_HOME"]).rglob("*")), "no saved index to start warm from"
    warm = run(reme_tui, home, tmp_path, str(root), "--diagnostics", "--json")
    assert cold.returncode == warm.returncode == 0, warm.stderr
    assert json.loads(warm.stdout) == json.loads(cold.stdout)
    assert "day-index-stale" not in warm.stdout


def test_an_edit_between_two_scripted_runs_is_its_own_change(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    note = sample / "daily" / "2026-09-01" / "1on1-marcus.md"
    assert run(reme_tui, home, tmp_path, str(sample), "--list-tags").returncode == 0
    note.write_text(note.read_text(encoding="utf-8") + "first edit\n", encoding="utf-8")
    assert run(reme_tui, home, tmp_path, str(sample), "--query", "budget").returncode == 0
    note.write_text(note.read_text(encoding="utf-8") + "second edit\n", encoding="utf-8")
    done = run(reme_tui, home, tmp_path, str(sample), "--changes", "--json")
    assert done.returncode == 0, done.stderr
    diffs = [entry["diff"] for entry in json.loads(done.stdout)["entries"]]
    assert len(diffs) == 2
    assert "+second edit" in diffs[0] and "+first edit" in diffs[1]


def test_explain_through_the_installed_tool_agrees_with_its_search(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    search = ["--query", "atlas deploy", "--json"]
    found = run(reme_tui, home, tmp_path, str(sample), *search)
    assert found.returncode == 0, found.stderr
    first = json.loads(found.stdout)["results"][0]
    done = run(reme_tui, home, tmp_path, str(sample), "--explain", first["path"], *search)
    assert done.returncode == 0, done.stderr
    explained = json.loads(done.stdout)
    assert explained["verdict"].startswith("returned at rank 1")
    assert explained["score"] == first["score"]
