"""The one filter check the CLI and the MCP server share: refusals name the caller's
spelling of the argument; good values come back as one Filters."""

from __future__ import annotations

import pytest

from reme_tui.engine.search import ArgumentNames, Filters, SearchError, checked_filters

FLAGS = ArgumentNames(tags="--tag", all_tags="--all-tags", since="--since", meta="--meta")


def test_good_values_make_one_filters() -> None:
    found = checked_filters(
        tags=["a"], since="2026-03-01", paths=["x.md", "x.md"], meta=["type=decision"]
    )
    assert found.tags == ("a",) and found.since == "2026-03-01"
    assert found.paths == ("x.md",)
    assert found.meta[0].key == "type" and found.meta[0].value == "decision"
    assert checked_filters() == Filters()


@pytest.mark.parametrize(
    ("kwargs", "default", "flag"),
    [
        ({"tags": ["!!!"]}, "tags '!!!': tags contained no valid values",
         "--tag '!!!': tags contained no valid values"),
        ({"all_tags": True}, "all_tags needs at least one tags",
         "--all-tags needs at least one --tag"),
        ({"meta": ["=1"]}, "meta '=1': expected KEY=VALUE", "--meta '=1': expected KEY=VALUE"),
    ],
)  # fmt: skip
def test_refusals_name_the_callers_argument(
    kwargs: dict[str, object], default: str, flag: str
) -> None:
    with pytest.raises(SearchError, match="^" + default.replace("(", r"\(")):
        checked_filters(**kwargs)
    with pytest.raises(SearchError) as refused:
        checked_filters(**kwargs, names=FLAGS)
    assert str(refused.value).startswith(flag)


def test_a_bad_date_is_left_to_the_engine_which_ignores_it_as_reme_does() -> None:
    """Issue 22: ReMe drops an invalid date with a warning and answers; so the check
    passes it on (the engine warns) instead of refusing the search."""
    found = checked_filters(since="2026-02-30", until="20260306", strict_dates=True)
    assert found.since == "2026-02-30" and found.until == "2026-03-06"
    assert checked_filters(since="2026-03-011").since == "2026-03-011"  # warned: read in part


def test_a_mapping_is_a_metadata_value_compared_whole() -> None:
    """Issue 22: ReMe compares a mapping with ==; reme-tui refused "a value cannot be a
    mapping". Such filters are still cache keys (hashable, equal whatever the key order)."""
    one = checked_filters(meta=['owner={"team": "pay", "oncall": true}'])
    other = checked_filters(meta=['owner={"oncall": true, "team": "pay"}'])
    assert one == other and hash(one) == hash(other)
    test = one.meta[0]
    assert test.matches({"owner": {"team": "pay", "oncall": True}})
    assert not test.matches({"owner": {"team": "pay"}})
    assert not test.matches({"owner": "pay"})
