"""The ReMe-compatibility report: kinds, counts, suggested fixes, and the safe fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.errors import EditError
from reme_tui.engine.reme.compat import KINDS, compat_counts, compat_report, format_counts
from tests.helpers import write_workspace

SAMPLE = Path(__file__).parents[2] / "sample_workspace"


def test_sample_workspace_counts_per_kind() -> None:
    engine = Engine.open(SAMPLE)
    report = compat_report(engine)
    assert report.counts == {
        "frontmatter-voided": 3,
        "tags-not-list": 1,
        "tag-dropped": 2,
        "tag-past-third": 1,
        "link-dangling": 1,
        "no-tags": 2,
    }
    assert compat_counts(engine.diagnostics()) == report.counts
    assert list(report.counts) == list(KINDS)
    fixes = {(i.path, i.kind): i for i in report.issues}
    quoted = fixes[("daily/2026-10-05/offsite-notes.md", "frontmatter-voided")]
    assert quoted.fix == 'quote it: name: "2026-10-05"'
    scalar = fixes[("daily/2026-09-29/1on1-alice.md", "tags-not-list")]
    assert scalar.fix == "make it a list: memory_tags: [alice]" and scalar.safe_fix
    document = report.to_json()
    assert set(document) == {"counts", "files"}
    assert {"path", "line", "kind", "code", "message", "fix", "safe_fix"} == set(
        document["files"][0]["issues"][0]
    )


def test_format_counts_shows_non_zero_kinds_only() -> None:
    counts = dict.fromkeys(KINDS, 0) | {"tag-dropped": 2, "no-tags": 1}
    assert format_counts(counts) == "2 bad tags · 1 untagged"
    assert format_counts(dict.fromkeys(KINDS, 0)) == ""


def test_dangling_link_suggests_the_memory_with_that_file_name(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-01-01/a.md": "---\nmemory_tags: [x]\n---\nSee [[notes/b.md]].\n",
            "digest/wiki/b.md": "---\nmemory_tags: [x]\n---\nB.\n",
        },
    )
    (issue,) = compat_report(Engine.open(root)).issues
    assert issue.kind == "link-dangling"
    assert issue.fix == "link to [[digest/wiki/b.md]]"


def test_safe_fixes_change_only_the_tag_line(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-01-01/scalar.md": b"---\r\nname: S\r\nmemory_tags: alice\r\n---\r\nbody",
            "daily/2026-01-02/bad.md": b"---\nmemory_tags: [alice, '---', true, "
            + b"x" * 70
            + b", bob]\n---\nbody\n",
            "daily/2026-01-03/invalid-scalar.md": b"---\nmemory_tags: '---'\n---\nbody\n",
        },
    )
    engine = Engine.open(root)
    assert compat_report(engine).counts["tags-not-list"] == 2
    fixed = engine.apply_fix("daily/2026-01-01/scalar.md")
    assert fixed.changed
    assert fixed.delta is not None and fixed.delta.changed == ["daily/2026-01-01/scalar.md"]
    assert (root / "daily/2026-01-01/scalar.md").read_bytes() == (
        b"---\r\nname: S\r\nmemory_tags: [alice]\r\n---\r\nbody"
    )
    result = engine.apply_fix("daily/2026-01-02/bad.md")
    assert result.new_tags == ("alice", "bob")
    assert (root / "daily/2026-01-02/bad.md").read_bytes() == (
        b"---\nmemory_tags: [alice, bob]\n---\nbody\n"
    )
    assert not engine.apply_fix("daily/2026-01-02/bad.md").changed
    with pytest.raises(EditError):
        engine.apply_fix("daily/2026-01-03/invalid-scalar.md")
    # The engine re-indexed what it wrote: no second open needed, and it equals a fresh one.
    assert engine.fingerprint() == Engine.open(root).fingerprint()
    assert compat_report(engine).counts["tag-dropped"] == 0
    assert compat_report(engine).counts["tags-not-list"] == 1  # only the invalid scalar left
