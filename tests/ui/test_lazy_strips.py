"""Strips make their caches on first use (`reme_tui.ui.lazy_strips`) and behave exactly as
Textual's own, which make all seven up front."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from reme_tui.ui import lazy_strips

lazy_strips.install()

STYLES = [None, Style(bold=True), Style(color="red"), Style(bgcolor="blue", italic=True)]
segments = st.lists(
    st.tuples(
        st.text(alphabet="ab 界😀\u0301", min_size=1, max_size=6), st.sampled_from(STYLES)
    ).map(lambda text_style: Segment(*text_style)),
    max_size=6,
)


def eager(parts: list[Segment]) -> Strip:
    strip = object.__new__(Strip)
    lazy_strips.EAGER_INIT(strip, parts)
    return strip


def test_a_new_strip_has_no_cache_until_one_is_used() -> None:
    strip = Strip([Segment("hello world")])
    crop_slot = vars(Strip)["_crop_cache"]
    with pytest.raises(AttributeError):
        crop_slot.__get__(strip, Strip)  # not made yet
    assert strip.crop(0, 5).text == "hello"
    assert crop_slot.__get__(strip, Strip).get((0, 5)) is not None  # made, and used
    with pytest.raises(AttributeError):
        strip.no_such_attribute  # noqa: B018


@given(segments, st.integers(0, 12), st.integers(0, 12), st.lists(st.integers(0, 12)))
def test_lazy_and_eager_strips_give_the_same_lines(
    parts: list[Segment], start: int, end: int, cuts: list[int]
) -> None:
    lazy, reference = Strip(parts), eager(parts)
    width = max(start, end)
    for strip in (lazy, reference):  # twice each: the second answer comes from the cache
        assert strip.crop(start, end) == reference.crop(start, end)
        assert strip.divide(sorted(cuts)) == reference.divide(sorted(cuts))
        assert strip.extend_cell_length(width) == reference.extend_cell_length(width)
        assert strip.crop_extend(start, end, None) == reference.crop_extend(start, end, None)
        assert strip.apply_style(Style(dim=True)) == reference.apply_style(Style(dim=True))
        assert strip.adjust_cell_length(width) == reference.adjust_cell_length(width)
        assert strip.render(_console()) == reference.render(_console())
        assert strip.text == reference.text


def _console() -> Console:
    return Console(width=80, color_system="truecolor")


def test_install_changes_nothing_when_strip_is_not_the_expected_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lazy_strips, "_installed", False)
    monkeypatch.setattr(Strip, "__init__", lazy_strips.EAGER_INIT)
    monkeypatch.delattr(Strip, "__getattr__")
    monkeypatch.setattr(Strip, "__slots__", [*Strip.__slots__, "_a_new_cache"])
    assert lazy_strips.install() is False
    assert Strip.__init__ is lazy_strips.EAGER_INIT
    assert "__getattr__" not in vars(Strip)
