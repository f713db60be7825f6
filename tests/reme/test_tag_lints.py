"""Agent junk tags (issue 13): flagged with the exact fix, fixed through the edit path."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.engine import Engine
from reme_tui.engine.parse.frontmatter import SetTags, apply_op, effective_tags
from reme_tui.engine.tags import judge_tag
from reme_tui.engine.tags.lints import lint_tags
from tests.helpers import write_workspace

KNOWN = {"openai": "OpenAI", "project_orbit": "Project Orbit"}
FILES = {"openai": 3, "project_orbit": 4, "open_ai": 1}


@pytest.mark.parametrize(
    ("value", "codes", "fixed"),
    [
        (["OpenAI, gold", "svelte"], ["tag-comma-joined"], ("OpenAI", "gold", "svelte")),
        (["a，b、c"], ["tag-comma-joined"], ("a", "b", "c")),
        (['["latency"', '"alerts"]'], ["tag-list-string"] * 2, ("latency", "alerts")),
        ("['sqlite', 'spike']", ["tag-list-string"], ("sqlite", "spike")),
        (['"quoted"'], ["tag-debris"], ("quoted",)),
        (["Orbit", "2026-03-10", "2026/3/9"], ["tag-date", "tag-date"], ("Orbit",)),
        (["  project   orbit "], ["tag-whitespace"], ("Project Orbit",)),
        (["  lone   orbit "], ["tag-whitespace"], ("lone orbit",)),
        (["Open AI", "budget"], ["tag-whitespace"], ("OpenAI", "budget")),
        (["OpenAI, openai"], ["tag-comma-joined"], ("OpenAI",)),
    ],
)
def test_lints_and_fixes(value: object, codes: list[str], fixed: tuple[str, ...]) -> None:
    result = lint_tags("n.md", value, 3, KNOWN, FILES)
    assert [d.code for d in result.diagnostics] == codes
    assert result.fix is not None and result.fix.new == fixed
    assert all(d.line == 3 for d in result.diagnostics)


@pytest.mark.parametrize(
    "value",
    [["OpenAI", "svelte"], ["project_orbit"], [2026], "plain string", ["Open_AI"], ["2026-13-45"]],
)
def test_clean_tags_are_left_alone(value: object) -> None:
    result = lint_tags("n.md", value, 3, KNOWN)
    assert result.diagnostics == () and result.fix is None


def test_a_fix_never_moves_a_memory_off_its_tag_in_use() -> None:
    """Issue 22: `"project atlas"` is `project_atlas` (21 memories); a rare `ProjectAtlas`
    (`projectatlas`, 1) must not pull it away; the most used spelling of its own tag wins."""
    known = {"project_atlas": "project_atlas", "projectatlas": "ProjectAtlas"}
    files = {"project_atlas": 21, "projectatlas": 1}
    result = lint_tags("n.md", ["project atlas", "globex"], 4, known, files)
    assert result.fix is not None and result.fix.new == ("project_atlas", "globex")
    assert [judge_tag(t).canonical for t in result.fix.new] == ["project_atlas", "globex"]
    assert "ProjectAtlas" not in result.diagnostics[0].message


def test_a_variant_shared_by_other_memories_is_not_joined() -> None:
    """`Open AI` used by two memories is a tag of its own: kept (a merge may join it)."""
    result = lint_tags("n.md", ["Open AI"], 3, {"openai": "OpenAI"}, {"openai": 5, "open_ai": 2})
    assert result.fix is None and result.diagnostics == ()


_TAG = st.text(alphabet=st.sampled_from("abAB _"), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_TAG, min_size=1, max_size=4),
    st.dictionaries(_TAG, _TAG, max_size=4),
    st.dictionaries(_TAG, st.integers(0, 30), max_size=4),
)
def test_whitespace_fixes_keep_the_tags_or_join_a_lone_variant(
    items: list[str], spellings: dict[str, str], counts: dict[str, int]
) -> None:
    """Whatever the workspace, a fix files the memory under the same tags, except a variant
    no other memory shares that joins the space-free tag in use."""
    known = {c: s for s in spellings.values() if (c := judge_tag(s).canonical)}
    files = {c: n for t, n in counts.items() if (c := judge_tag(t).canonical)}
    result = lint_tags("n.md", items, 3, known, files)
    if result.fix is None:
        return
    before = [judge_tag(i).canonical for i in items]
    after = {judge_tag(t).canonical for t in result.fix.new}
    for item, canonical in zip(items, before, strict=True):
        if canonical is None or canonical in after:
            continue
        squeezed = "".join(item.split()).casefold()
        assert files.get(canonical, 0) <= 1 and squeezed in after and files.get(squeezed, 0) >= 1


def test_sample_workspace_fix_keeps_launch_comms_on_project_atlas() -> None:
    engine = Engine.open(Path(__file__).parents[2] / "sample_workspace")
    fix = engine.tag_fixes()["daily/2026-11-02/launch-comms.md"]
    assert fix.new == ("project_atlas", "globex")


def test_a_lone_spaced_tag_is_not_a_whitespace_difference() -> None:
    """`Open AI` is only a variant when `OpenAI` is in use."""
    assert lint_tags("n.md", ["Open AI"], 3, {}).diagnostics == ()


def test_lists_with_non_text_items_are_flagged_but_not_fixed() -> None:
    result = lint_tags("n.md", ["a, b", True], 3, {})
    assert [d.code for d in result.diagnostics] == ["tag-comma-joined"]
    assert result.fix is None
    assert "not fixed automatically" in result.diagnostics[0].message


_PIECE = st.text(alphabet=st.sampled_from("abcXYZ 19-_'\"[],"), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=4))
def test_fix_is_idempotent_and_clean(items: list[str]) -> None:
    """After a fix the list lints clean, and a second fix changes nothing."""
    first = lint_tags("n.md", items, 2, {})
    if first.fix is None:
        return
    again = lint_tags("n.md", list(first.fix.new), 2, {})
    assert again.fix is None, (items, first.fix.new, again.diagnostics)


def test_fix_through_the_edit_path_changes_only_tag_lines(tmp_path: Path) -> None:
    text = (
        "---\nname: n\ndescription: d\nmemory_tags:\n- OpenAI, gold\n- '2026-03-10'\n"
        "people: [Mia]\n---\nBody with [[x]]\n"
    )
    root = write_workspace(tmp_path, {"daily/2026-03-10/n.md": text})
    engine = Engine.open(root)
    plans, refused = engine.plan_tag_fixes()
    assert refused == []
    [plan] = plans
    assert "-- OpenAI, gold\n-- '2026-03-10'\n+- OpenAI\n+- gold\n" in plan.diff
    assert (root / "daily/2026-03-10/n.md").read_text(encoding="utf-8") == text  # dry run
    outcomes, delta = engine.apply_tag_fixes(plans)
    assert [o.error for o in outcomes] == [None]
    assert delta.changed == ["daily/2026-03-10/n.md"]
    after = (root / "daily/2026-03-10/n.md").read_text(encoding="utf-8")
    assert after == text.replace("- OpenAI, gold\n- '2026-03-10'\n", "- OpenAI\n- gold\n")
    assert engine.tags_of("daily/2026-03-10/n.md") == ("openai", "gold")
    assert not [d for d in engine.diagnostics() if d.code.startswith("tag-")]


def test_fix_refuses_a_file_changed_since_the_plan(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path, {"daily/2026-03-10/n.md": "---\nname: n\nmemory_tags: ['a, b']\n---\nx\n"}
    )
    engine = Engine.open(root)
    plans, _ = engine.plan_tag_fixes()
    (root / "daily/2026-03-10/n.md").write_text(
        "---\nname: n\nmemory_tags: ['a, b', c]\n---\nchanged\n", encoding="utf-8"
    )
    outcomes, delta = engine.apply_tag_fixes(plans)
    assert outcomes[0].error is not None and "changed" in outcomes[0].error
    assert delta.is_empty
    assert "changed" in (root / "daily/2026-03-10/n.md").read_text(encoding="utf-8")


def test_sample_project_fixes_match_reme_normalization(project: Path) -> None:
    engine = Engine.open(project / ".reme")
    fixes = engine.tag_fixes()
    assert {p: f.new for p, f in fixes.items()} == {
        "daily/2026-03-09/Stack choice.md": ("svelte", "OpenAI", "gold"),
        "daily/2026-03-10/pilot-notes.md": ("latency", "alerts"),
        "daily/2026-03-10/每周同步.md": ("Project Orbit",),
        "daily/2026-03-12/Summaries cost.md": ("OpenAI", "budget"),
        "daily/2026-03-12/login-bug-triage.md": ("bug", "Project Orbit"),
    }
    for fix in fixes.values():
        assert effective_tags(fix.new)  # every fixed list still carries tags ReMe keeps
        text = (project / ".reme" / fix.path).read_text(encoding="utf-8")
        assert apply_op(text, SetTags(fix.new), "memory_tags")[2] == list(fix.new)
