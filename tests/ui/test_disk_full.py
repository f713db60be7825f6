"""A full cache directory (issue 23): the app saves its index after showing it, so a save
that fails must be told on screen; the CLI already says it on stderr."""

from __future__ import annotations

import errno

import pytest

from reme_tui.engine.index.store import IndexStore

from .conftest import AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


async def test_an_index_the_app_cannot_save_is_told_once(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(self: IndexStore, snapshot: object) -> bool:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(IndexStore, "save", disk_full)
    app = app_factory()
    async with app.run_test() as pilot:
        await settle(pilot)

        def told() -> list[str]:
            return [n.message for n in app._notifications if "could not save" in n.message]

        await wait_for(pilot, lambda: bool(told()))
        assert "No space left on device" in told()[0]
        assert "the next start indexes from scratch" in told()[0]
        app.save_index_now()  # the next save of a burst fails for the same reason
        await settle(pilot)
        assert len(told()) == 1
        assert app.index_unsaved  # kept for the next change or the quit
