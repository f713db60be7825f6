"""Theme files: TOML documents whose keys are Textual `Theme` fields.

Bundled themes ship inside the package (``reme_tui/ui/bundled_themes/``, read with
importlib.resources, so they work from a wheel, a zip or a checkout alike); one missing or
broken is an installation error, never a silent fallback. Users add their own in
``~/.config/reme-tui/themes/``: a broken file there is reported (once) and skipped.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

BUNDLED_THEMES: Traversable = resources.files("reme_tui.ui") / "bundled_themes"
BUNDLED_THEME_NAMES = ("reme-dusk", "reme-forest", "reme-paper")
_COLOR_FIELDS = (
    "primary",
    "secondary",
    "warning",
    "error",
    "success",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
_ALLOWED = {f.name for f in fields(Theme)}


class ThemeFileError(ValueError):
    """A theme file that cannot be used, with a message fit for the user."""


class BundledThemeMissing(RuntimeError):
    """A theme that ships with reme-tui is absent or broken: the installation is damaged."""


@dataclass(frozen=True, slots=True)
class ThemeLoad:
    themes: list[Theme]
    errors: list[str]


def load_theme_file(path: Path | Traversable) -> Theme:
    """Parse and validate one theme file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ThemeFileError(f"{path.name}: {error}") from error
    unknown = sorted(set(data) - _ALLOWED)
    if unknown:
        raise ThemeFileError(f"{path.name}: unknown keys {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeFileError(f"{path.name}: 'name' is required")
    if "primary" not in data:
        raise ThemeFileError(f"{path.name}: 'primary' is required")
    for key in _COLOR_FIELDS:
        if key in data:
            value = data[key]
            if not isinstance(value, str):
                raise ThemeFileError(f"{path.name}: {key} must be a colour string")
            try:
                Color.parse(value)
            except ColorParseError as error:
                raise ThemeFileError(f"{path.name}: {key}: {error}") from error
    if "dark" in data and not isinstance(data["dark"], bool):
        raise ThemeFileError(f"{path.name}: dark must be true or false")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(f"{path.name}: [variables] must map names to strings")
    try:
        return Theme(**data)
    except (TypeError, ValueError) as error:
        raise ThemeFileError(f"{path.name}: {error}") from error


def load_bundled_themes() -> list[Theme]:
    """The themes that ship with reme-tui; BundledThemeMissing if any cannot be loaded."""
    themes = []
    for name in BUNDLED_THEME_NAMES:
        try:
            theme = load_theme_file(BUNDLED_THEMES / f"{name}.toml")
        except ThemeFileError as error:
            raise BundledThemeMissing(
                f"the bundled theme {name} cannot be loaded ({error}); reinstall reme-tui"
            ) from None
        if theme.name != name:
            raise BundledThemeMissing(f"the bundled theme file {name}.toml names {theme.name}")
        themes.append(theme)
    return themes


def load_themes(*directories: Path) -> ThemeLoad:
    """Load every ``*.toml`` theme from the directories, later ones overriding earlier ones."""
    themes: dict[str, Theme] = {}
    errors: list[str] = []
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ThemeFileError as error:
                errors.append(str(error))
                continue
            themes[theme.name] = theme
    return ThemeLoad(list(themes.values()), errors)
