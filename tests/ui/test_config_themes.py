"""Settings file, env override, theme persistence, theme files."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.config import (
    DEFAULT_THEME,
    ConfigSaveError,
    Settings,
    default_config_path,
    load_settings,
    save_theme,
)
from reme_tui.ui.themes import (
    BUNDLED_THEME_NAMES,
    BundledThemeMissing,
    ThemeFileError,
    load_bundled_themes,
    load_theme_file,
    load_themes,
)


def test_missing_config_means_defaults(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "nope.toml")
    assert settings.theme == "reme-dusk"
    assert settings.search.limit == 50
    assert settings.warnings == ()


def test_config_file_is_typed_and_bad_values_are_warnings(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'theme = "reme-paper"\n'
        '[search]\nlimit = 7\ndebounce_ms = "fast"\nvector_weight = 1\n'
        "[index]\nwatch = false\nbogus = 1\n"
        '[keymap]\nfocus_search = "ctrl+f"\nback = ["b", "left_square_bracket"]\n',
        encoding="utf-8",
    )
    settings = load_settings(path)
    assert settings.theme == "reme-paper"
    assert settings.search.limit == 7
    assert settings.search.debounce_ms == 120
    assert settings.search.vector_weight == 1.0
    assert settings.index.watch is False
    assert settings.keymap == {"focus_search": "ctrl+f", "back": "b,left_square_bracket"}
    assert any("debounce_ms" in w for w in settings.warnings)
    assert any("index.bogus" in w for w in settings.warnings)


def test_history_settings(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "nope.toml").history.retention_days == 90
    path = tmp_path / "config.toml"
    path.write_text("[history]\nretention_days = 7\nenabled = false\n", encoding="utf-8")
    settings = load_settings(path)
    assert (settings.history.retention_days, settings.history.enabled) == (7, False)
    path.write_text("[history]\nretention_days = 0\n", encoding="utf-8")
    settings = load_settings(path)
    assert settings.history.retention_days == 90
    assert any("retention_days must be positive" in w for w in settings.warnings)


def test_broken_toml_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = \n", encoding="utf-8")
    settings = load_settings(path)
    assert settings.theme == "reme-dusk"
    assert settings.warnings and "could not read config" in settings.warnings[0]


def test_env_override_and_xdg_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert default_config_path() == tmp_path / "xdg" / "reme-tui" / "config.toml"
    monkeypatch.setenv("REME_TUI_CONFIG", str(tmp_path / "other.toml"))
    assert default_config_path() == tmp_path / "other.toml"
    monkeypatch.delenv("REME_TUI_CONFIG")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_config_path() == tmp_path / "home" / ".config" / "reme-tui" / "config.toml"


def test_save_theme_changes_only_the_theme_value(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    original = (
        '# my settings\ntheme = "reme-dusk"  # picked in the app\n\n'
        '[search]\nlimit = 9\ntheme = "not me"\n'
    )
    path.write_text(original, encoding="utf-8")
    save_theme("reme-forest", path)
    assert path.read_text(encoding="utf-8") == original.replace("reme-dusk", "reme-forest")
    fresh = tmp_path / "sub" / "config.toml"
    save_theme("reme-paper", fresh)
    assert load_settings(fresh).theme == "reme-paper"


def test_save_theme_round_trip_keeps_comments_and_goes_before_the_tables(tmp_path: Path) -> None:
    """No theme line yet: it is added at the top level (before [search]); the comments, the
    blank lines and the tables' own layout are byte for byte what they were."""
    path = tmp_path / "config.toml"
    original = "# my settings\n\n[search]  # the app's search\nlimit   = 9  # nine\n"
    path.write_text(original, encoding="utf-8")
    save_theme("reme-forest", path)
    written = path.read_text(encoding="utf-8")
    assert written == (
        '# my settings\ntheme = "reme-forest"\n\n'
        "[search]  # the app's search\nlimit   = 9  # nine\n"
    )
    settings = load_settings(path)
    assert (settings.theme, settings.search.limit, settings.warnings) == ("reme-forest", 9, ())
    save_theme("reme-paper", path)
    assert path.read_text(encoding="utf-8") == written.replace("reme-forest", "reme-paper")


def test_save_theme_leaves_a_broken_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("theme = \n# keep me\n", encoding="utf-8")
    with pytest.raises(ConfigSaveError, match="not valid TOML"):
        save_theme("reme-forest", path)
    assert path.read_text(encoding="utf-8") == "theme = \n# keep me\n"


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("[search]\nlimit = true\n", "search.limit should be int, got bool"),
        ("[search]\nlimit = 2.5\n", "search.limit should be int, got float"),
        ("[search]\nbrowse_limit = -3\n", "search.browse_limit must be positive"),
        ("[search]\nvector_weight = 1.5\n", "search.vector_weight must be between 0 and 1"),
        ('[search]\nvector_weight = "high"\n', "search.vector_weight should be float, got str"),
        ("[index]\nwatch = 1\n", "index.watch should be bool, got int"),
        ("[index]\ntag_field = []\n", "index.tag_field should be str, got list"),
        ("search = 3\n", "[search] must be a table; ignored"),
        ("theme = 4\n", "theme should be a non-empty string"),
        ("[keymap]\nback = 4\n", "keymap.back should be a key string"),
        ("colour = 1\n", "unknown setting colour"),
    ],
)
def test_every_wrong_value_is_one_clear_warning_and_the_default(
    tmp_path: Path, text: str, warning: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text + "[history]\nretention_days = 7\n", encoding="utf-8")
    settings = load_settings(path)
    assert settings.warnings == (warning,)
    assert settings.history.retention_days == 7  # the good keys stay
    defaults = Settings()
    assert (settings.search, settings.index, settings.theme) == (
        defaults.search,
        defaults.index,
        defaults.theme,
    )


def test_bundled_themes_load_from_the_package() -> None:
    themes = load_bundled_themes()
    assert [t.name for t in themes] == ["reme-dusk", "reme-forest", "reme-paper"]
    assert DEFAULT_THEME in BUNDLED_THEME_NAMES


def test_a_missing_bundled_theme_is_an_error_not_a_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reme_tui.ui import themes

    (tmp_path / "reme-dusk.toml").write_text('name = "reme-dusk"\nprimary = "#fff"\n', "utf-8")
    monkeypatch.setattr(themes, "BUNDLED_THEMES", tmp_path)  # reme-forest, reme-paper absent
    with pytest.raises(BundledThemeMissing, match="reme-forest"):
        load_bundled_themes()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"\nprimary = "nocolour"\n', "primary"),
        ('primary = "#fff"\n', "'name' is required"),
        ('name = "x"\n', "'primary' is required"),
        ('name = "x"\nprimary = "#fff"\nshiny = 1\n', "unknown keys"),
        ('name = "x"\nprimary = "#fff"\ndark = "yes"\n', "dark"),
        ("name = [\n", "broken.toml"),
    ],
)
def test_broken_theme_files_are_rejected_with_a_reason(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThemeFileError, match=message):
        load_theme_file(path)


def test_user_theme_dir_overrides_and_broken_files_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text('name = "mine"\nprimary = "#123456"\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text('name = "bad"\n', encoding="utf-8")
    loaded = load_themes(tmp_path, tmp_path / "missing")
    names = {t.name for t in loaded.themes}
    assert "mine" in names and "bad" not in names
    assert len(loaded.errors) == 1 and "bad.toml" in loaded.errors[0]
