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
        ({"since": "2026-13-01"}, "since '2026-13-01' is not a valid date",
         "--since '2026-13-01' is not a valid date"),
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


def test_a_bad_date_is_reported_before_bad_tags() -> None:
    with pytest.raises(SearchError, match="not a valid date"):
        checked_filters(tags=["!!!"], until="nope")
