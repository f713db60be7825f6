"""Workspace discovery and ReMe's own config (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine, EngineConfig
from reme_tui.engine.reme.layout import (
    DEFAULT_LAYOUT,
    RemeConfigError,
    discover_workspace,
    load_reme_config,
)


def test_discovery_prefers_dot_reme_here(project: Path) -> None:
    found = discover_workspace(project)
    assert found.root == project / ".reme"
    assert "found .reme here" in found.reason


def test_discovery_walks_up_to_the_nearest_parent(project: Path) -> None:
    deep = project / "src" / "app"
    deep.mkdir(parents=True)
    found = discover_workspace(deep)
    assert found.root == project / ".reme"
    assert str(project) in found.reason


def test_discovery_nearest_wins(project: Path) -> None:
    sub = project / "renamed" / "sub"
    sub.mkdir()
    assert discover_workspace(sub).root == project / "renamed" / ".reme"


def test_discovery_falls_back_to_cwd(tmp_path: Path) -> None:
    found = discover_workspace(tmp_path)
    assert found.root == tmp_path
    assert "no .reme" in found.reason


def test_a_file_named_dot_reme_is_not_a_workspace(tmp_path: Path) -> None:
    (tmp_path / ".reme").write_text("not a folder", encoding="utf-8")
    assert discover_workspace(tmp_path).root == tmp_path


def test_renamed_folders_config(project: Path) -> None:
    config = load_reme_config(project / "renamed" / "reme.yaml")
    assert config.workspace == project / "renamed" / ".reme"
    assert config.layout.daily_dir == "journal"
    assert config.layout.digest_dir == "knowledge"
    assert config.layout.session_dir == "session"
    assert config.layout.include_frontmatter_in_metadata is True
    engine = Engine.open(config.workspace, EngineConfig(layout=config.layout))
    assert engine.paths() == [
        "journal/2026-03-11.md",
        "journal/2026-03-11/Antenna calibration.md",
        "knowledge/wiki/antenna.md",
    ]
    assert engine.memory("journal/2026-03-11/Antenna calibration.md").date == "2026-03-11"  # type: ignore[union-attr]
    assert not [d for d in engine.diagnostics() if d.code == "link-dangling"]


def test_default_layout_does_not_see_renamed_folders(project: Path) -> None:
    engine = Engine.open(project / "renamed" / ".reme")
    assert engine.paths() == []


def _config(tmp_path: Path, text: str, name: str = "reme.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_relative_workspace_dir_is_relative_to_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    path = _config(tmp_path / "conf", "workspace_dir: ../data/ws\n")
    assert load_reme_config(path).workspace == tmp_path / "data" / "ws"


def test_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = _config(tmp_path, "workspace_dir: ~/memory\n")
    assert load_reme_config(path).workspace == tmp_path / "home" / "memory"


def test_defaults_when_keys_are_absent(tmp_path: Path) -> None:
    config = load_reme_config(_config(tmp_path, "extends: default\n"))
    assert config.layout == DEFAULT_LAYOUT
    assert config.workspace == tmp_path / ".reme"


def test_extends_a_sibling_file_and_env_defaults(tmp_path: Path) -> None:
    _config(tmp_path, "daily_dir: journal\ndigest_dir: ${DIGEST:-knowledge}\n", "base.yaml")
    path = _config(tmp_path, "extends: [default, base.yaml]\nsession_dir: chats\n")
    layout = load_reme_config(path).layout
    assert (layout.daily_dir, layout.digest_dir, layout.session_dir) == (
        "journal",
        "knowledge",
        "chats",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("daily_dir: ../outside\n", "must stay inside the workspace"),
        ("daily_dir: /etc\n", "must be relative to the workspace"),
        ("digest_dir: 3\n", "non-empty folder name"),
        ("- a list\n", "must be a mapping"),
        ("daily_dir: [unclosed\n", "not valid YAML"),
        ("extends: paw\n", "`extends: paw`"),
        ("extends: self.yaml\n", "circular"),
        ("workspace_dir: ''\n", "workspace_dir must be a non-empty string"),
        ("daily_dir: ${NOT_SET_ANYWHERE_13}\n", "NOT_SET_ANYWHERE_13"),
    ],
)
def test_bad_configs_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _config(tmp_path, text, "self.yaml")
    with pytest.raises(RemeConfigError, match=message.replace("$", r"\$").replace("[", r"\[")):
        load_reme_config(path)


def test_missing_and_binary_configs(tmp_path: Path) -> None:
    with pytest.raises(RemeConfigError, match="does not exist"):
        load_reme_config(tmp_path / "nope.yaml")
    with pytest.raises(RemeConfigError, match="is a directory"):
        load_reme_config(tmp_path)
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00daily")
    with pytest.raises(RemeConfigError, match="not UTF-8"):
        load_reme_config(binary)


def test_bad_chunker_switch_is_a_warning_not_an_error(tmp_path: Path) -> None:
    path = _config(
        tmp_path,
        "components:\n  file_chunker:\n    markdown:\n"
        "      include_frontmatter_in_metadata: 'yes'\n",
    )
    config = load_reme_config(path)
    assert config.layout.include_frontmatter_in_metadata is False
    assert any("include_frontmatter_in_metadata" in w for w in config.warnings)


def test_layout_key_changes_with_folders() -> None:
    assert DEFAULT_LAYOUT.key() != DEFAULT_LAYOUT.with_dirs("journal", None).key()
    with pytest.raises(RemeConfigError):
        DEFAULT_LAYOUT.with_dirs("../x", None)


def test_choose_workspace_order(project: Path, tmp_path: Path) -> None:
    from reme_tui.engine.reme.layout import choose_workspace

    config = project / "renamed" / "reme.yaml"
    explicit = choose_workspace("elsewhere", config_file=config, daily_dir="notes", cwd=project)
    assert explicit.root == Path("elsewhere") and not explicit.discovered
    assert (explicit.layout.daily_dir, explicit.layout.digest_dir) == ("notes", "knowledge")
    by_config = choose_workspace(None, config_file=config, cwd=tmp_path)
    assert by_config.root == project / "renamed" / ".reme" and by_config.discovered
    assert "reme.yaml" in by_config.reason
    found = choose_workspace(None, digest_dir="knowledge", cwd=project / "renamed")
    assert found.root == project / "renamed" / ".reme"
    assert found.layout.daily_dir == "daily" and found.layout.digest_dir == "knowledge"
    with pytest.raises(RemeConfigError):
        choose_workspace(None, daily_dir="/abs", cwd=tmp_path)


def test_a_project_given_as_workspace_opens_its_dot_reme(project: Path, tmp_path: Path) -> None:
    """`reme-tui PROJECT` where ReMe ran (`.reme/` inside, no memory folders) opened 0
    memories; it opens the project's `.reme/` and says so."""
    from reme_tui.engine.reme.layout import choose_workspace

    choice = choose_workspace(project)
    assert choice.root == project / ".reme" and choice.discovered
    assert ".reme/ workspace of the project" in choice.reason
    # --all-markdown means the folder as given; a workspace with its own daily/ stays itself.
    assert choose_workspace(project, into_project=False).root == project
    (project / "daily").mkdir()
    assert choose_workspace(project).root == project
    assert choose_workspace(tmp_path / "nowhere").root == tmp_path / "nowhere"


def test_cli_on_a_project_folder_lists_its_memories(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reme_tui.cli.entry import main

    assert main(["tags", str(project), "--json"]) == 0
    captured = capsys.readouterr()
    assert "workspace of the project" in captured.err
    assert '"total_tags": 0' not in captured.out
