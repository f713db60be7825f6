"""`reme-tui config path|show|keys`, `--config` naming a file that must exist, and the
settings file read by every command, not only the app."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.config import KEY_HELP, Settings, setting_rows
from tests.helpers import write_workspace


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "ci.toml"
    path.write_text('theme = "reme-paper"\n\n[index]\ntag_field = "labels"\n')
    return path


def test_path_names_the_file_in_effect(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    code, out, err = run(capsys, "config", "path")
    assert code == 0 and out == f"{tmp_path / 'xdg' / 'reme-tui' / 'config.toml'}\n"
    assert "no file there yet" in err
    monkeypatch.setenv("REME_TUI_CONFIG", str(config))
    code, out, err = run(capsys, "config", "path", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"schema": 1, "path": str(config), "exists": True}
    code, out, _ = run(capsys, "config", "path", "--config", str(config))
    assert code == 0 and out == f"{config}\n"


def test_a_missing_config_file_is_a_usage_error_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = str(tmp_path / "missing.toml")
    workspace = write_workspace(tmp_path / "ws", {"daily/2026-03-01.md": "text\n"})
    monkeypatch.setattr("sys.stdin", io.StringIO())
    for argv in (
        ["config", "show"],
        ["tags", str(workspace)],
        ["search", "text", str(workspace)],
        [str(workspace)],  # the app: before it starts
        [str(workspace), "--list-tags"],
    ):
        code, out, err = run(capsys, *argv, "--config", missing)
        assert code == 2 and out == ""
        assert err.endswith(f"reme-tui: error: --config {missing}: no such file\n")


def test_show_is_the_file_over_the_defaults_as_toml(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "config", "show", "--config", str(config))
    assert code == 0 and err == ""
    assert out.startswith(f'# {config}\ntheme = "reme-paper"\n\n[search]\nlimit = 50\n')
    assert '[index]\ntag_field = "labels"\n' in out
    code, out, _ = run(capsys, "config", "show", "--config", str(config), "--json")
    settings = json.loads(out)["settings"]
    assert settings["index.tag_field"] == "labels" and settings["history.retention_days"] == 90


def test_keys_lists_every_setting_with_its_default_and_use(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "config", "keys", "--json")
    keys = {item["key"]: item for item in json.loads(out)["keys"]}
    assert code == 0
    assert set(keys) == {key for key, _, _ in setting_rows(Settings())} | {"keymap.BINDING_ID"}
    assert set(keys) == set(KEY_HELP)
    assert keys["search.limit"] == {
        "key": "search.limit", "type": "integer", "default": 50, "help": KEY_HELP["search.limit"]
    }  # fmt: skip
    code, out, _ = run(capsys, "config", "keys")
    assert code == 0 and len(out.splitlines()) == len(keys)


def test_commands_read_the_settings_file(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = write_workspace(
        tmp_path / "ws", {"daily/2026-03-01.md": "---\nlabels: [alice]\n---\nbudget\n"}
    )
    code, out, _ = run(capsys, "tags", str(workspace), "--json", "--no-cache")
    assert code == 0 and json.loads(out)["items"] == []  # memory_tags: none
    code, out, _ = run(capsys, "tags", str(workspace), "--json", "--config", str(config))
    assert code == 0 and json.loads(out)["items"] == [["alice", 1]]  # [index] tag_field
    config.write_text(f'[index]\nmodel = "{tmp_path / "no-model"}"\nbogus = 1\n')
    code, out, err = run(capsys, "search", "budget", str(workspace), "--config", str(config))
    assert code == 0 and "budget" in out
    assert "unknown setting index.bogus" in err  # the file's problems, once
    assert "no-model" in err and "searching with BM25 only" in err  # [index] model
