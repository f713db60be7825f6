"""Stale day-index pages (issue 13): entries rendered again exactly as ReMe writes them."""

from __future__ import annotations

from pathlib import Path

from reme_tui.engine.engine import Engine
from reme_tui.engine.reme.day_index import day_of_index, render_entry


def _stale(engine: Engine) -> list[tuple[str, int | None, str]]:
    return [
        (d.path, d.line, d.message) for d in engine.diagnostics() if d.code == "day-index-stale"
    ]


def test_pages_reme_just_wrote_are_not_stale(project: Path) -> None:
    """2026-03-12 and 2026-03-13 were refreshed by ReMe's daily_write after their notes
    last changed: our rendering of every entry must equal ReMe's bytes."""
    engine = Engine.open(project / ".reme")
    assert engine.stale_day_index("daily/2026-03-13.md") == []
    assert engine.stale_day_index("daily/2026-03-12.md") == []
    text = (project / ".reme" / "daily" / "2026-03-13.md").read_text(encoding="utf-8")
    memory = engine.memory("daily/2026-03-13/Retro.md")
    assert memory is not None
    assert render_entry(memory.path, memory.frontmatter) in text.split("\n")


def test_tag_update_and_delete_leave_stale_entries(project: Path) -> None:
    engine = Engine.open(project / ".reme")
    stale = _stale(engine)
    assert [(p, line) for p, line, _ in stale] == [
        ("daily/2026-03-09.md", 7),
        ("daily/2026-03-10.md", 7),
    ]
    assert "memory_tags changed" in stale[0][2]
    assert "Vector store spike.md]], which no longer exists" in stale[1][2]
    # The deleted note is reported once, as a stale entry, not also as a dangling link.
    dangling = [d for d in engine.diagnostics() if d.code == "link-dangling"]
    assert [d.path for d in dangling] == ["digest/wiki/project-orbit.md"]
    marks = engine.neighbours("daily/2026-03-09.md").stale
    assert list(marks) == ["daily/2026-03-09/Kickoff with Mia.md"]


def test_a_new_note_missing_from_the_index_and_live_updates(project: Path) -> None:
    root = project / ".reme"
    engine = Engine.open(root)
    note = root / "daily" / "2026-03-13" / "Added later.md"
    note.write_text("---\nname: Added later\ndescription: x\n---\nbody\n", encoding="utf-8")
    engine.apply([note])
    [entry] = engine.stale_day_index("daily/2026-03-13.md")
    assert entry.reason == "unlisted" and entry.target == "daily/2026-03-13/Added later.md"
    note.unlink()
    engine.apply([note])
    assert engine.stale_day_index("daily/2026-03-13.md") == []
    # Retagging a listed note makes its entry stale; the cache follows the note's content.
    retro = root / "daily" / "2026-03-13" / "Retro.md"
    retro.write_text(
        retro.read_text(encoding="utf-8").replace("- retro\n", "- retrospective\n"),
        encoding="utf-8",
    )
    engine.apply([retro])
    [entry] = engine.stale_day_index("daily/2026-03-13.md")
    assert entry.reason == "changed" and "memory_tags" in entry.message


def test_day_of_index() -> None:
    assert day_of_index("daily/2026-03-09.md", "daily") == "2026-03-09"
    assert day_of_index("journal/2026-03-09.md", "journal") == "2026-03-09"
    assert day_of_index("daily/2026-03-09/x.md", "daily") is None
    assert day_of_index("daily/2026-02-30.md", "daily") is None
    assert day_of_index("digest/2026-03-09.md", "daily") is None


def test_render_entry_matches_reme_rules() -> None:
    meta = {
        "description": "d\nmore",
        "memory_tags": ["a", "b"],
        "name": "n",
        "session_id": "s",
        "source_conversation": "[[x]]",
        "empty": "",
        "none": None,
        "n": 0,
    }
    assert render_entry("daily/d/n.md", meta) == (
        "- [[daily/d/n.md]] name: n description: d more memory_tags: ['a', 'b'] n: 0"
    )


def test_warm_start_answers_the_same(project: Path) -> None:
    """Frontmatter, field links and tag lines survive the saved index."""
    from reme_tui.engine.index.store import IndexStore

    root = project / ".reme"
    cold = Engine.open(root, store=IndexStore(root))
    warm = Engine.open(root, store=IndexStore(root))
    assert [d.to_json() for d in warm.diagnostics()] == [d.to_json() for d in cold.diagnostics()]
    path = "daily/2026-03-10/pilot-notes.md"
    assert warm.sources(path) == cold.sources(path)
    assert warm.tag_fixes() == cold.tag_fixes()
