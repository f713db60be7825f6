"""Sources are not dangling links; missing sources are their own diagnostic (issue 13)."""

from __future__ import annotations

from pathlib import Path

from reme_tui.engine.engine import Engine
from tests.helpers import write_workspace

NOTE = """---
name: Note
description: d
memory_tags: [a]
session_id: s1
source_conversation: '[[session/dialog/s1.jsonl]]'
source_images:
- '[[resource/2026-03-01/photo.png]]'
---
Body cites [[resource/2026-03-01/report.pdf]], [[README.txt]], [[session/dialog/gone.jsonl]],
[[digest/wiki/missing.md]], [[Short Name]] and [[digest/wiki/topic.md]].
"""


def _codes(engine: Engine, path: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in engine.diagnostics() if d.path == path]


def test_sources_exist_missing_and_dangling(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path,
        {
            "daily/2026-03-01/note.md": NOTE,
            "digest/wiki/topic.md": "---\nname: T\ndescription: t\nmemory_tags: [a]\n---\nx\n",
            "session/dialog/s1.jsonl": '{"role": "user"}\n',
            "resource/2026-03-01/report.pdf": b"%PDF-1.4",
            "README.txt": "hi",
        },
    )
    engine = Engine.open(root)
    path = "daily/2026-03-01/note.md"
    sources = {s.target: (s.kind, s.exists, s.field) for s in engine.sources(path)}
    assert sources == {
        "session/dialog/s1.jsonl": ("conversation", True, "source_conversation"),
        "resource/2026-03-01/photo.png": ("image", False, "source_images"),
        "resource/2026-03-01/report.pdf": ("resource", True, None),
        "README.txt": ("file", True, None),
        "session/dialog/gone.jsonl": ("conversation", False, None),
    }
    neighbours = engine.neighbours(path)
    assert [n.path for n in neighbours.outlinks] == ["digest/wiki/topic.md"]
    assert sorted(neighbours.dangling) == ["Short Name", "digest/wiki/missing.md"]
    codes = _codes(engine, path)
    assert sorted(c for c, _ in codes if c in ("link-dangling", "source-missing")) == [
        "link-dangling",
        "link-dangling",
        "source-missing",
        "source-missing",
    ]
    missing = [m for c, m in codes if c == "source-missing"]
    assert any(
        "`source_images` names the source [[resource/2026-03-01/photo.png]]" in m for m in missing
    )
    assert any("[[session/dialog/gone.jsonl]]" in m for m in missing)


def test_sources_resolve_live(tmp_path: Path) -> None:
    """A transcript that appears later is a source from then on (existence is not cached)."""
    root = write_workspace(tmp_path, {"daily/2026-03-01/note.md": NOTE})
    engine = Engine.open(root)
    path = "daily/2026-03-01/note.md"
    assert not next(s for s in engine.sources(path) if s.field == "source_conversation").exists
    write_workspace(root, {"session/dialog/s1.jsonl": "{}\n"})
    assert next(s for s in engine.sources(path) if s.field == "source_conversation").exists


def test_sources_never_leave_the_workspace(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("secret", encoding="utf-8")
    root = tmp_path / "ws"
    write_workspace(
        root,
        {
            "daily/2026-03-01/n.md": (
                "---\nname: n\ndescription: d\n---\n[[../outside.txt]] [[/etc/passwd]]\n"
            )
        },
    )
    (root / "resource").mkdir()
    (root / "resource" / "link.txt").symlink_to(outside)
    write_workspace(root, {"daily/2026-03-02/m.md": "[[resource/link.txt]]\n"})
    engine = Engine.open(root)
    assert engine.sources("daily/2026-03-01/n.md") == []
    [link] = engine.sources("daily/2026-03-02/m.md")
    assert link.exists is False


def test_sample_project_provenance(project: Path) -> None:
    engine = Engine.open(project / ".reme")
    kinds = {(s.kind, s.exists) for s in engine.sources("daily/2026-03-10/pilot-notes.md")}
    assert kinds == {("conversation", True), ("image", True), ("image", False), ("resource", True)}
    digest = engine.neighbours("digest/wiki/project-orbit.md")
    assert [s.target for s in digest.sources] == [
        "resource/2026-03-10/pilot-notes.txt",
        "session/dialog/s-20260309-kickoff.jsonl",
    ]
    assert digest.dangling == ["daily/2026-03-10/Vector store spike.md"]
    missing = sorted((d.path, d.line) for d in engine.diagnostics() if d.code == "source-missing")
    assert missing == [
        ("daily/2026-03-10.md", 8),
        ("daily/2026-03-10/pilot-notes.md", 9),
        ("digest/procedure/release-orbit.md", 22),
    ]


def test_search_results_carry_sources(project: Path) -> None:
    from reme_tui.engine.search.types import SearchQuery

    engine = Engine.open(project / ".reme")
    response = engine.search(SearchQuery("latency alerts whiteboard", limit=10))
    by_path = {hit.path: hit.to_json() for hit in response.hits}
    sources = by_path["daily/2026-03-10/pilot-notes.md"]["sources"]
    assert [(s["path"], s["kind"], s["exists"], s["field"]) for s in sources] == [
        ("session/dialog/s-20260310-pilot.jsonl", "conversation", True, "source_conversation"),
        ("resource/2026-03-10/whiteboard.png", "image", True, "source_images"),
        ("resource/2026-03-10/antenna.jpg", "image", False, "source_images"),
        ("resource/2026-03-10/pilot-notes.txt", "resource", True, "source_resource"),
    ]
