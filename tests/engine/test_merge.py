"""Merging tags: byte-safe rewrites of only the tag lines, conflicts, journal and undo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.write.journal import Journal
from reme_tui.engine.write.merge import MergeError, merged_items, plan_merge
from tests.helpers import write_workspace

FILES: dict[str, bytes] = {
    # CRLF, flow list, a comment after the list
    "daily/2026-01-01/crlf.md": b"---\r\nname: A\r\nmemory_tags: [alice, project-atlas]  # who\r\n"
    b"---\r\nBody line one\r\nbody two\r\n",
    # BOM (ReMe voids its frontmatter, the spelling is still there), block list
    "daily/2026-01-02/bom.md": "\ufeff---\nname: B\nmemory_tags:\n  - ProjectAtlas\n  - ops\n---\n"
    "Body\n".encode(),
    # no final newline, quoted items, trailing fields after the list
    "daily/2026-01-03/nofinal.md": b"---\nmemory_tags: ['Project_Atlas', \"project-atlas\"]\n"
    b"description: keep me\n---\nno newline at the end",
    # the variant past the third tag (ReMe ignores it, the merge still cleans it)
    "daily/2026-01-04/fourth.md": b"---\nmemory_tags: [a1, b2, c3, project-atlas]\n---\nx\n",
    # non-string name voids the frontmatter: still merged
    "daily/2026-01-05/voided.md": b"---\nname: 2026-01-05\nmemory_tags: [projectatlas]\n---\nx\n",
    # scalar: ReMe reads no tag from it, so it does not carry the tag
    "daily/2026-01-06/scalar.md": b"---\nmemory_tags: project-atlas\n---\nx\n",
    # untouched: other tags only
    "digest/other.md": b"---\nmemory_tags: [globex]\n---\nAtlas is mentioned in text only.\n",
    # the target already there
    "digest/atlas.md": b"---\nmemory_tags: [project_atlas]\n---\nAtlas.\n",
}
EXPECTED: dict[str, bytes] = {
    "daily/2026-01-01/crlf.md": b"---\r\nname: A\r\nmemory_tags: [alice, project_atlas]  # who\r\n"
    b"---\r\nBody line one\r\nbody two\r\n",
    "daily/2026-01-02/bom.md": "\ufeff---\nname: B\nmemory_tags:\n  - project_atlas\n  - ops\n---\n"
    "Body\n".encode(),
    "daily/2026-01-03/nofinal.md": b"---\nmemory_tags: ['Project_Atlas']\n"
    b"description: keep me\n---\nno newline at the end",
    "daily/2026-01-04/fourth.md": b"---\nmemory_tags: [a1, b2, c3, project_atlas]\n---\nx\n",
    "daily/2026-01-05/voided.md": b"---\nname: 2026-01-05\nmemory_tags: [project_atlas]\n---\nx\n",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


def contents(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in FILES}


def test_merged_items_places_target_once_where_the_first_variant_was() -> None:
    items = ["alice", "project-atlas", "bob", "ProjectAtlas", "project_atlas"]
    out = merged_items(items, ["project-atlas", "projectatlas"], "project_atlas", "project_atlas")
    assert out == ["alice", "project_atlas", "bob"]
    assert merged_items(["Project_Atlas", "x"], ["x"], "project_atlas", "project_atlas") == [
        "Project_Atlas"
    ]  # an existing spelling of the target is kept
    assert merged_items(["a"], ["b"], "c", "c") is None


def test_plan_lists_every_carrier_with_diffs_and_writes_nothing(root: Path) -> None:
    engine = Engine.open(root)
    before = contents(root)
    plan = plan_merge(engine, ["project-atlas", "ProjectAtlas"], "project_atlas")
    assert plan.sources == ("project-atlas", "projectatlas")
    assert sorted(plan.paths) == sorted(EXPECTED)
    assert contents(root) == before
    change = next(c for c in plan.changes if c.path.endswith("fourth.md"))
    assert change.before_tags == ("a1", "b2", "c3", "project-atlas")
    assert change.after_tags == ("a1", "b2", "c3", "project_atlas")
    assert "-memory_tags: [a1, b2, c3, project-atlas]" in change.diff()
    assert "+memory_tags: [a1, b2, c3, project_atlas]" in change.diff()


def test_merge_changes_only_tag_lines_byte_for_byte(root: Path) -> None:
    engine = Engine.open(root)
    plan = plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas")
    result = engine.merge(plan)
    assert result.ok and sorted(result.written) == sorted(EXPECTED)
    after = contents(root)
    for rel, data in FILES.items():
        assert after[rel] == EXPECTED.get(rel, data), rel
    assert engine.files_with_tag("project-atlas") == frozenset()
    assert engine.files_with_tag("projectatlas") == frozenset()
    assert "daily/2026-01-01/crlf.md" in engine.files_with_tag("project_atlas")


def test_merge_is_idempotent_and_target_validated(root: Path) -> None:
    engine = Engine.open(root)
    engine.merge(plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas"))
    assert plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas").changes == ()
    with pytest.raises(MergeError):
        plan_merge(engine, ["project-atlas"], "---")
    with pytest.raises(MergeError):
        plan_merge(engine, ["  ", "!!"], "x")
    with pytest.raises(MergeError):
        plan_merge(engine, [], "x")


def test_undo_restores_exactly_and_refuses_files_changed_since(root: Path) -> None:
    engine = Engine.open(root)
    before = contents(root)
    engine.merge(plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas"))
    touched = root / "daily/2026-01-04/fourth.md"
    touched.write_bytes(touched.read_bytes() + b"edited after the merge\n")
    edited = touched.read_bytes()
    entry = Journal(root).last_undoable()
    assert entry is not None
    result = engine.undo_merge(entry)
    assert [p for p, _ in result.refused] == ["daily/2026-01-04/fourth.md"]
    assert "changed since the merge" in result.refused[0][1]
    after = contents(root)
    for rel in FILES:
        if rel != "daily/2026-01-04/fourth.md":
            assert after[rel] == before[rel], rel
    assert touched.read_bytes() == edited
    assert engine.files_with_tag("projectatlas") == frozenset()  # voided: ReMe sees no tags
    assert "daily/2026-01-01/crlf.md" in engine.files_with_tag("project-atlas")
    # A partial undo stays undoable: once the edit is reverted, a retry restores the rest.
    again = Journal(root).last_undoable()
    assert again is not None and again["id"] == entry["id"] and again["state"] == "partly-undone"
    touched.write_bytes(EXPECTED["daily/2026-01-04/fourth.md"])
    retry = engine.undo_merge()
    assert retry is not None and not retry.refused
    assert contents(root) == before
    assert Journal(root).last_undoable() is None


def test_conflict_between_plan_and_apply_refuses_only_that_file(root: Path) -> None:
    engine = Engine.open(root)
    plan = plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas")
    raced = root / "daily/2026-01-01/crlf.md"
    raced.write_bytes(raced.read_bytes() + b"typed meanwhile\r\n")
    raced_bytes = raced.read_bytes()
    result = engine.merge(plan)
    assert result.refused == [
        ("daily/2026-01-01/crlf.md", "changed on disk since the merge was planned")
    ]
    assert raced.read_bytes() == raced_bytes
    after = contents(root)
    for rel, expected in EXPECTED.items():
        if rel != "daily/2026-01-01/crlf.md":
            assert after[rel] == expected
    entry = Journal(root).last_undoable()
    assert entry is not None
    assert "daily/2026-01-01/crlf.md" not in [f["path"] for f in entry["files"]]


def test_non_text_items_and_unsafe_files_are_skipped(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-01-01/bool.md": "---\nmemory_tags: [project-atlas, true]\n---\nx\n",
            "daily/2026-01-02/anchor.md": "---\nx: &a [project-atlas]\nmemory_tags: *a\n---\nx\n",
            "daily/2026-01-03/ok.md": "---\nmemory_tags: [project-atlas]\n---\nx\n",
        },
    )
    engine = Engine.open(root)
    plan = plan_merge(engine, ["project-atlas"], "project_atlas")
    assert plan.paths == ["daily/2026-01-03/ok.md"]
    assert sorted(p for p, _ in plan.skipped) == [
        "daily/2026-01-01/bool.md",
        "daily/2026-01-02/anchor.md",
    ]


def test_sample_workspace_merge_round_trip(tmp_path: Path) -> None:
    sample = Path(__file__).parents[2] / "sample_workspace"
    root = tmp_path / "sample"
    shutil.copytree(sample, root)
    engine = Engine.open(root)
    plan = plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas")
    assert len(plan.changes) == 2
    engine.merge(plan)
    entry = Journal(root).last_undoable()
    assert entry is not None
    assert not engine.undo_merge(entry).refused
    for path in sample.rglob("*"):
        if path.is_file():
            assert (root / path.relative_to(sample)).read_bytes() == path.read_bytes()
