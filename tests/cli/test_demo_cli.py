"""`reme-tui demo`: the sample workspace copied somewhere writable, then the app on it (or
its path, without a terminal)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from reme_tui.cli import app as app_mode
from reme_tui.cli import main
from reme_tui.ui.options import AppOptions

CHECKOUT = Path(__file__).resolve().parents[2]


def test_without_a_terminal_it_copies_and_prints_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO())
    target = tmp_path / "demo"
    assert main(["demo", str(target)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{target}\n" and "copied the demo workspace" in err
    copied = sorted(p.relative_to(target) for p in target.rglob("*.md"))
    sample = CHECKOUT / "sample_workspace"
    assert copied == sorted(p.relative_to(sample) for p in sample.rglob("*.md"))
    (target / "daily" / "mine.md").write_text("my own note\n")
    assert main(["demo", str(target)]) == 0  # never overwritten: opened as it is
    assert "there already" in capsys.readouterr().err
    assert (target / "daily" / "mine.md").is_file()


def test_the_default_folder_is_in_the_users_data_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert main(["demo"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'data' / 'reme-tui' / 'demo'}\n"


def test_on_a_terminal_it_opens_the_app_on_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[Path, AppOptions]] = []

    def fake_run_app(
        root: Path, options: AppOptions, config_path: Path | None = None, early: object = None
    ) -> int:
        seen.append((root, options))
        return 0

    import reme_tui.ui.app
    import reme_tui.ui.startup

    monkeypatch.setattr(app_mode, "has_terminal", lambda: True)
    monkeypatch.setattr(reme_tui.ui.startup, "start_early", lambda *args: None)  # no fork
    monkeypatch.setattr(reme_tui.ui.app, "run_app", fake_run_app)
    assert main(["demo", str(tmp_path / "demo"), "--theme", "reme-paper"]) == 0
    ((root, options),) = seen
    assert root == (tmp_path / "demo").resolve() and options.theme == "reme-paper"
