"""One date rule and one filter value, shared by the engine, the CLI and the app."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine.dates import DateError, date_bound, date_or_none, parse_date
from reme_tui.engine.engine import Engine
from reme_tui.engine.search.filters import NO_FILTERS, Filters
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2026-03-01", "2026-03-01"),
        ("2026-3-1", "2026-03-01"),
        (" 2026-03-01 ", "2026-03-01"),
        ("2026-03-10T08:00", "2026-03-10"),
        ("2026-03-10 08:00:00+02:00", "2026-03-10"),
        ("20260306", "2026-03-06"),
        ("2026-W10-5", "2026-03-06"),
        ("2026-3-6", "2026-03-06"),
        ("2026-01-01garbage", "2026-01-01"),
        ("2026-03-10T25:00", "2026-03-10"),
    ],
)
def test_a_date_is_read_as_reme_reads_it(text: str, iso: str) -> None:
    """ReMe's search step: ``date.fromisoformat`` of the first ten characters (what follows
    is dropped), else ``%Y-%m-%d`` of the whole text (issue 22: ``20260306`` was refused)."""
    assert parse_date(text) == iso


@pytest.mark.parametrize(
    "text",
    [
        "",
        "soon",
        "2026/03/01",
        "2026-02-30",
        "2026-13-01",
        "2026-3-10T08:00Z",
        "12026-03-01",
    ],
)
def test_anything_else_is_not_a_date(text: str) -> None:
    with pytest.raises(DateError):
        parse_date(text)
    assert date_or_none(text) is None


def test_the_engine_ignores_a_bad_bound_with_a_warning() -> None:
    assert date_bound(None, "since") == (None, None)
    assert date_bound("  ", "since") == (None, None)
    assert date_bound("2026-3-1", "since") == ("2026-03-01", None)
    assert date_bound("2026-03-10T08:00", "since") == ("2026-03-10", None)
    value, warning = date_bound("2026-02-30", "until")
    assert value is None and warning is not None and "until '2026-02-30'" in warning
    value, warning = date_bound("2026-03-011", "since")  # read in part: said so
    assert value == "2026-03-01" and warning is not None and "'2026-03-01'" in warning


@given(st.dates())
def test_every_calendar_date_round_trips(day: object) -> None:
    iso = day.isoformat()  # type: ignore[attr-defined]
    if len(iso) == 10:  # years below 1000 are not four digits
        assert parse_date(iso) == iso
        assert parse_date(f"{iso}T23:59:59") == iso


def test_filters_are_hashable_and_equal_whatever_sequence_they_came_from() -> None:
    from_lists = Filters(tags=["a", "b"], exclude_tags=["c"])  # type: ignore[arg-type]
    from_tuples = Filters(tags=("a", "b"), exclude_tags=("c",))
    assert from_lists == from_tuples and hash(from_lists) == hash(from_tuples)
    assert Filters(tags="alice") == Filters(tags=("alice",))  # type: ignore[arg-type]
    assert NO_FILTERS.is_empty and Filters(all_tags=True, strict_dates=True).is_empty
    assert not Filters(since="2026-01-01").is_empty


def test_filters_move_a_tag_between_required_and_excluded() -> None:
    state = Filters().with_tag("Alice").with_tag("bob").with_tag("alice", exclude=True)
    assert state.tags == ("bob",) and state.exclude_tags == ("alice",)
    assert state.without_tag("alice") == Filters(tags=("bob",))
    assert Filters().with_tag("---") == Filters()


def test_search_and_browse_share_one_cached_filter(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            "daily/2026-03-01/a.md": memory("budget one\n", tags=["alice"]),
            "daily/2026-03-10/b.md": memory("budget two\n", tags=["bob"]),
        },
    )
    engine = Engine.open(tmp_path)
    filters = Filters(tags=["alice", "bob"], since="2026-3-5")  # type: ignore[arg-type]
    hits = engine.search(SearchQuery("budget", filters, limit=10)).hits
    assert [h.path for h in hits] == ["daily/2026-03-10/b.md"]
    assert [m.path for m in engine.browse(Filters(tags=("alice", "bob"), since="2026-03-05"))] == [
        "daily/2026-03-10/b.md"
    ]
    first = engine.allowed_paths(filters)[0]
    assert engine.allowed_paths(Filters(tags=("alice", "bob"), since="2026-3-5"))[0] is first


def test_dates_are_parsed_in_one_module() -> None:
    """Issue 25: one date parser. Any other module that parses a date by itself drifts from
    the rule (a second rule once accepted `2026-3-1` in one place and refused it in another)."""
    import re

    package = Path(__file__).parents[2] / "reme_tui"
    parsing = re.compile(r"\.(fromisoformat|strptime)\(|\bdateutil\b")
    offenders = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.name != "dates.py" and parsing.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
