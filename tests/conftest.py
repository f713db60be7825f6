"""Every test runs with private XDG directories: no user config, cache or data leaks in or out."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    base = tmp_path_factory.mktemp("xdg")
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        (base / name).mkdir()
        monkeypatch.setenv(name, str(base / name))
    monkeypatch.delenv("REME_TUI_CONFIG", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    # Progress lines on stderr only where a test asks for them (a cold build slowed by a busy
    # machine past the one-second delay must not add a line to a stderr a test counts).
    monkeypatch.setenv("REME_TUI_PROGRESS_DELAY", "3600")
    return base
