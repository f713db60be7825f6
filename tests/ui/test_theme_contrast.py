"""Every bundled theme meets WCAG AA (4.5:1) for text in every state, computed from the
theme files: plain and coloured text on the background, the surface, the panel, and on the
selected row (focused and unfocused), where the rows keep their coloured paths and tags;
and WCAG 3:1 non-text contrast for every border the UI paints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.color import Color

import reme_tui
from reme_tui.ui.themes import load_bundled_themes

AA = 4.5
TEXTS = (
    "foreground",
    "text-muted",
    "text-primary",
    "text-secondary",
    "text-accent",
    "text-success",
    "text-warning",
    "text-error",
)
BASES = (
    "background",
    "surface",
    "panel",
    "block-cursor-background",
    "block-cursor-blurred-background",
)
THEMES = load_bundled_themes()


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(a: Color, b: Color) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def resolve(variables: dict[str, str], name: str, under: Color) -> Color:
    """A theme variable as painted over ``under`` (``auto`` text and alpha resolved)."""
    raw = variables[name]
    if raw.startswith("auto"):
        alpha = float(raw.split()[1].rstrip("%")) / 100 if " " in raw else 1.0
        return under.get_contrast_text(alpha)
    color = Color.parse(raw)
    return under.blend(color.with_alpha(1.0), color.a) if color.a < 1 else color


def test_there_are_bundled_themes() -> None:
    assert {theme.name for theme in THEMES} >= {"reme-dusk", "reme-forest", "reme-paper"}


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.name)
def test_text_meets_wcag_aa_in_every_state(theme) -> None:  # type: ignore[no-untyped-def]
    variables = theme.to_color_system().generate()
    surface = Color.parse(variables["surface"])
    failures = []
    for base_name in BASES:
        base = resolve(variables, base_name, surface)
        for text_name in TEXTS:
            ratio = contrast(resolve(variables, text_name, base), base)
            if ratio < AA:
                failures.append(f"{text_name} on {base_name}: {ratio:.2f}")
    assert not failures, failures


NON_TEXT = 3.0
BORDER_DECLARATION = re.compile(
    r"border(?:-(?:top|right|bottom|left))?\s*:\s*[a-z]+\s+\$([a-z0-9-]+)"
)
BORDER_BASES = ("background", "surface", "panel")


def border_variables() -> set[str]:
    """Every theme variable the package's CSS paints a border with, plus Textual's own
    ``border``/``border-blurred`` that its widgets (inputs, lists) use."""
    package = Path(reme_tui.__file__).parent
    css = "\n".join(
        path.read_text(encoding="utf-8")
        for pattern in ("*.tcss", "*.py")
        for path in package.rglob(pattern)
    )
    return set(BORDER_DECLARATION.findall(css)) | {"border", "border-blurred"}


def test_the_border_scan_finds_the_pane_borders() -> None:
    assert {"border", "border-blurred", "primary", "warning"} <= border_variables()


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.name)
def test_borders_meet_wcag_non_text_contrast(theme) -> None:  # type: ignore[no-untyped-def]
    """WCAG 1.4.11: component boundaries, focused or not, at 3:1 against what is around them."""
    variables = theme.to_color_system().generate()
    surface = Color.parse(variables["surface"])
    failures = []
    for base_name in BORDER_BASES:
        base = resolve(variables, base_name, surface)
        for border_name in sorted(border_variables()):
            ratio = contrast(resolve(variables, border_name, base), base)
            if ratio < NON_TEXT:
                failures.append(f"{border_name} on {base_name}: {ratio:.2f}")
    assert not failures, failures


@pytest.mark.parametrize("theme", THEMES, ids=lambda theme: theme.name)
def test_a_picked_suggestion_is_told_by_a_mark_that_meets_wcag_aa(theme) -> None:  # type: ignore[no-untyped-def]
    """The tag editor's suggestion list is not focused, so its picked row has the blurred
    cursor's tint: 1.05:1 against the list in reme-paper (issue 22). The state is told by
    the ``▸`` mark instead, whose colour must read as text on the tinted row and the list."""
    from reme_tui.ui.widgets.tag_editor import SuggestionList

    assert SuggestionList.PICKED_MARK.strip()
    variables = theme.to_color_system().generate()
    panel = resolve(variables, "panel", Color.parse(variables["surface"]))
    listing = resolve(variables, "boost", panel)
    row = resolve(variables, "block-cursor-blurred-background", listing)
    for base in (listing, row):
        assert contrast(resolve(variables, "text-accent", base), base) >= AA
