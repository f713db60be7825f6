"""The app never shows, nor hands to an editor, a file outside the workspace (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.ui.widgets.preview import Preview

from .conftest import SIZE, AppFactory, settle

GARDEN = "daily/2026-02-20.md"
anyio = pytest.mark.anyio


@anyio
async def test_memory_redirected_outside_is_not_previewed(
    app_factory: AppFactory, workspace: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("---\nname: s\n---\nTOP-SECRET-OUTSIDE\n")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        path = workspace / GARDEN
        path.unlink()
        path.symlink_to(secret)  # swapped after the scan; no watcher in tests
        app.main_screen.open_memory(GARDEN)
        await settle(pilot)
        shown = " ".join(str(w.render()) for w in app.main_screen.query_one(Preview).query("*"))
        assert "TOP-SECRET-OUTSIDE" not in shown
        assert app.is_running


@anyio
async def test_editor_is_not_run_on_a_path_leading_outside(
    app_factory: AppFactory, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("secret\n")
    (workspace / GARDEN).unlink()
    (workspace / GARDEN).symlink_to(secret)
    ran: list[list[str]] = []
    monkeypatch.setattr("subprocess.run", lambda command, **_: ran.append(command))
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_in_editor(GARDEN)
        await settle(pilot)
    assert ran == []
