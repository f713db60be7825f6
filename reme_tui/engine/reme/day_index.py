"""Stale day-index pages: ReMe's `daily/YYYY-MM-DD.md` against the notes they list.

ReMe's `daily_write` (and `daily_reindex`) rewrite the `<!-- notes:auto -->` block of the
day's index page: one line per note in `daily/<date>/`, `- [[path]] name: … description: …`
followed by the note's other frontmatter (except `session_id`, `source_conversation`,
`schema_version`) printed with Python's `str()`. Tag updates, moves and deletes do not
refresh it, so an entry can name a file that is gone or show a name or tags the note no
longer has, while the page still makes graph edges and search hits. Here each entry is
rendered again from the note's current frontmatter exactly as ReMe would and compared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..codes import Code
from ..dates import calendar_day
from ..parse import find_wikilinks
from ..records import Diagnostic, Memory

NOTES_OPEN = "<!-- notes:auto -->"
NOTES_CLOSE = "<!-- /notes:auto -->"
_HIDDEN_KEYS = frozenset({"schema_version", "session_id", "source_conversation"})


@dataclass(frozen=True, slots=True)
class StaleEntry:
    """One out-of-date line of a day-index page."""

    index_path: str
    line: int
    target: str
    reason: str  # "missing" | "changed" | "unlisted"
    message: str

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.index_path, self.line, Code.DAY_INDEX_STALE, self.message)


def day_of_index(path: str, daily_dir: str) -> str | None:
    """The date of a day-index page (`<daily_dir>/YYYY-MM-DD.md`), else None."""
    prefix = daily_dir + "/"
    if not path.startswith(prefix) or not path.endswith(".md"):
        return None
    stem = path[len(prefix) : -3]
    if "/" in stem or len(stem) != 10:
        return None
    return calendar_day(stem)


def render_entry(path: str, metadata: Mapping[str, Any]) -> str:
    """The line ReMe's `_render_notes_block` writes for one note."""
    keys = [k for k in ("name", "description") if k in metadata]
    keys += [k for k in metadata if k not in {"name", "description", *_HIDDEN_KEYS}]
    parts = [f"- [[{path}]]"]
    for key in keys:
        value = metadata[key]
        if value is None or (isinstance(value, str) and value == ""):
            continue
        parts.append(f"{key}: {str(value).replace(chr(10), ' ')}")
    return " ".join(parts)


def _entries(text: str) -> list[tuple[int, str, str]]:
    """(file line, target, line text) of each entry inside the auto block."""
    out: list[tuple[int, str, str]] = []
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if not inside:
            if NOTES_OPEN in line:
                inside = True
            continue
        if NOTES_CLOSE in line:
            break
        target = _entry_target(line)
        if target is not None:
            out.append((number, target, line))
    return out


def stale_entries(
    index_path: str,
    text: str,
    daily_dir: str,
    memory_of: Callable[[str], Memory | None],
    day_notes: list[str],
) -> list[StaleEntry]:
    """Out-of-date entries of one day-index page.

    `text` is the page's current text; `memory_of(path)` gives an indexed note;
    `day_notes` are the notes ReMe would list today (`<daily_dir>/<date>/*.md`).
    """
    if NOTES_OPEN not in text or NOTES_CLOSE not in text:
        return []
    found: list[StaleEntry] = []
    listed: set[str] = set()
    block_line = 0
    for number, target, line in _entries(text):
        block_line = block_line or number
        listed.add(target)
        note = memory_of(target)
        if note is None:
            found.append(
                StaleEntry(
                    index_path,
                    number,
                    target,
                    "missing",
                    f"day index lists [[{target}]], which no longer exists "
                    "(moved or deleted after the index was written)",
                )
            )
            continue
        if not _comparable(note):
            continue
        expected = render_entry(target, note.frontmatter)
        if line.rstrip() != expected:
            changed = _changed_keys(line, note.frontmatter)
            what = ", ".join(changed) if changed else "its frontmatter"
            found.append(
                StaleEntry(
                    index_path,
                    number,
                    target,
                    "changed",
                    f"day index entry for [[{target}]] is out of date: {what} changed since "
                    "it was written (ReMe refreshes it only on daily_write)",
                )
            )
    for note_path in day_notes:
        if note_path not in listed:
            found.append(
                StaleEntry(
                    index_path,
                    block_line or 1,
                    note_path,
                    "unlisted",
                    f"day index does not list [[{note_path}]], a note of that day",
                )
            )
    return found


def _comparable(note: Memory) -> bool:
    """A note whose frontmatter ReMe voided is diagnosed on its own; its entry is not judged."""
    return bool(note.frontmatter) or note.frontmatter_end_line == 0


def _changed_keys(line: str, metadata: Mapping[str, Any]) -> list[str]:
    """Frontmatter keys whose current `key: value` text is not in the entry."""
    changed: list[str] = []
    for key in ("name", "description", *metadata):
        if key in changed or key in _HIDDEN_KEYS or key not in metadata:
            continue
        value = metadata[key]
        if value is None or value == "":
            continue
        if f" {key}: {str(value).replace(chr(10), ' ')}" not in line:
            changed.append(key)
    return changed


def _entry_target(line: str) -> str | None:
    """The note a day-index line lists: ``- [[target]]`` at the line's start, plain."""
    if not line.startswith("- [["):
        return None
    link = next(find_wikilinks(line), None)
    if link is None or link.start != 2 or link.embed:
        return None
    if link.anchor is not None or link.alias is not None:
        return None
    return link.target
