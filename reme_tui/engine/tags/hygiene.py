"""Near-duplicate tags of an opened workspace: the engine's view fed to ``dupes``.

``dupes`` is pure (tag statistics in, clusters out); this module builds its input
from an :class:`~reme_tui.engine.engine.Engine` and remembers the pairs a person
dismissed, per workspace, in the user data directory (``dismissed.json``), so they are
never proposed again.

* spellings: the original frontmatter items behind each canonical tag
  (``Memory.tag_spellings``), most used first;
* co-occurrence: the engine's tag -> files map;
* text: each tag's memories' chunk text in path order, cut at
  ``TEXT_CAP`` characters per tag (a sample is enough for term frequencies), built
  lazily only for the candidate pairs ``dupes`` asks about.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..files import read_json, workspace_data_dir, write_json
from .dupes import DupeCluster, TagEvidence, TagStats, find_tag_clusters

if TYPE_CHECKING:
    from ..engine import Engine

TEXT_CAP = 20_000
DISMISSED_FILE = "dismissed.json"

Embed = Callable[[list[str]], np.ndarray]


def tag_stats(engine: Engine) -> list[TagStats]:
    """One TagStats per canonical tag: file count and original spellings, most used first."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for path in engine.paths():
        memory = engine.memory(path)
        if memory is None:
            continue
        for canonical, original in memory.tag_spellings:
            spellings[canonical][original] += 1
    out: list[TagStats] = []
    for tag, count in engine.list_tags("tag"):
        seen = spellings.get(tag, Counter())
        ordered = sorted(seen, key=lambda s: (-seen[s], s))
        out.append(TagStats(tag, count, tuple(ordered) or (tag,)))
    return out


def tag_evidence(engine: Engine, text_cap: int = TEXT_CAP) -> TagEvidence:
    """Files per tag, the number of tagged memories, and a capped text sample per tag."""
    files_by_tag = {tag: engine.files_with_tag(tag) for tag, _ in engine.list_tags("tag")}
    tagged = set().union(*files_by_tag.values()) if files_by_tag else set()
    cache: dict[str, str] = {}
    lock = threading.Lock()

    def text_of_tag(tag: str) -> str:
        with lock:
            if tag in cache:
                return cache[tag]
        parts: list[str] = []
        size = 0
        for path in sorted(files_by_tag.get(tag, ())):
            memory = engine.memory(path)
            if memory is None:
                continue
            for chunk in memory.chunks:
                parts.append(chunk.text)
                size += len(chunk.text) + 1
                if size >= text_cap:
                    break
            if size >= text_cap:
                break
        text = "\n".join(parts)[:text_cap]
        with lock:
            cache[tag] = text
        return text

    return TagEvidence(files_by_tag, len(tagged), text_of_tag)


def engine_embed(engine: Engine) -> Embed | None:
    """The attached model's encoder (tag strings embedded like text), or None."""
    embedder = getattr(engine, "embedder", None)
    return None if embedder is None else embedder.encode


def detect_duplicates(
    engine: Engine,
    *,
    embed: Embed | None = None,
    dismissed: DismissedPairs | None = None,
    use_files: bool = True,
) -> list[DupeCluster]:
    """Clusters of near-duplicate tags in the workspace, most certain first.

    ``embed`` defaults to nothing (pass ``engine_embed(engine)`` to use the loaded
    model); dismissed pairs are never linked.
    """
    stats = tag_stats(engine)
    evidence = tag_evidence(engine) if use_files else None
    pairs = dismissed.pairs() if dismissed is not None else frozenset()
    return find_tag_clusters(stats, evidence, embed=embed, dismissed=pairs)


class DismissedPairs:
    """Tag pairs a person said are different entities; stored per workspace (JSON)."""

    def __init__(self, root: Path, data_dir: Path | None = None) -> None:
        self.root = Path(root)
        self.path = workspace_data_dir(self.root, data_dir) / DISMISSED_FILE

    def pairs(self) -> frozenset[frozenset[str]]:
        document = read_json(self.path)
        if not isinstance(document, dict):
            return frozenset()
        out: set[frozenset[str]] = set()
        for item in document.get("pairs", ()):
            if (
                isinstance(item, list)
                and len(item) == 2
                and all(isinstance(tag, str) for tag in item)
                and item[0] != item[1]
            ):
                out.add(frozenset(item))
        return frozenset(out)

    def dismiss(self, tags: Iterable[str]) -> int:
        """Remember every pair among ``tags`` (a pair, or a whole cluster); returns how
        many pairs were new."""
        unique = sorted(set(tags))
        current = set(self.pairs())
        new = {frozenset(pair) for pair in combinations(unique, 2)} - current
        if new:
            self._save(current | new)
        return len(new)

    def forget(self, a: str, b: str) -> bool:
        """Propose the pair again; False when it was not dismissed."""
        current = set(self.pairs())
        pair = frozenset((a, b))
        if pair not in current:
            return False
        current.discard(pair)
        self._save(current)
        return True

    def _save(self, pairs: Iterable[frozenset[str]]) -> None:
        document = {
            "workspace": str(self.root.resolve()),
            "pairs": sorted(sorted(pair) for pair in pairs),
        }
        write_json(self.path, document)
