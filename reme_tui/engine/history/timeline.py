"""Changes seen together: bursts of an agent's batches (or one reme-tui edit), and tag churn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .entries import ChangeEntry

# Watcher batches closer than this belong to one burst (a dream pass touching 40 files).
BURST_GAP_NS = 120 * 1_000_000_000


@dataclass(frozen=True, slots=True)
class Burst:
    """Entries shown (and reviewed, reverted) together: one edit of reme-tui, or watcher
    batches no more than ``BURST_GAP_NS`` apart."""

    key: str
    start_ns: int
    end_ns: int
    source: str
    label: str
    undo: str | None
    entries: tuple[ChangeEntry, ...]

    @property
    def unreviewed(self) -> int:
        return sum(1 for e in self.entries if not e.reviewed)


_AGENT_SOURCES = frozenset({"watch", "start"})


def bursts(entries: Sequence[ChangeEntry], gap_ns: int = BURST_GAP_NS) -> list[Burst]:
    """Group newest-first entries into bursts, newest first."""
    out: list[Burst] = []
    current: list[ChangeEntry] = []

    def close() -> None:
        if not current:
            return
        first = current[0]
        out.append(
            Burst(
                key=f"g{current[-1].group}",
                start_ns=current[-1].time_ns,
                end_ns=first.time_ns,
                source=first.source,
                label=first.label,
                undo=first.undo,
                entries=tuple(current),
            )
        )
        current.clear()

    for entry in entries:
        if current:
            last = current[-1]
            same_agent_burst = (
                entry.source in _AGENT_SOURCES
                and last.source in _AGENT_SOURCES
                and last.time_ns - entry.time_ns <= gap_ns
            )
            if entry.group != last.group and not same_agent_burst:
                close()
        current.append(entry)
    close()
    return out


def tag_churn(entries: Iterable[ChangeEntry]) -> dict[str, dict[str, int]]:
    """Per tag: how often it was added and removed (entries of any source)."""
    churn: dict[str, dict[str, int]] = {}
    for entry in entries:
        for tag in entry.tags_added:
            churn.setdefault(tag, {"added": 0, "removed": 0})["added"] += 1
        for tag in entry.tags_removed:
            churn.setdefault(tag, {"added": 0, "removed": 0})["removed"] += 1
    return churn
