"""How well suggestions recover tags: hide the tags of a fifth of the tagged memories,
suggest for those, and count how often the hidden tags come back (``make bench``).

A hidden ``project-atlas`` is recovered by a suggested ``project_atlas``: both spell one
entity, and the suggestion is meant to be the cluster's most used spelling.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .suggester import TagSuggester

if TYPE_CHECKING:
    from ...engine import Engine


@dataclass(frozen=True, slots=True)
class SuggestionQuality:
    memories: int  # how many had their tags hidden
    suggested: int  # how many of those got at least one suggestion
    precision_at_1: float  # top suggestion is a hidden tag (of those suggested)
    recall_at_3: float  # share of hidden tags among the top 3 (over every hidden memory)
    # The same, counting only hidden tags some other memory still carries: a tag used
    # once cannot come back when hidden (a suggestion is always an existing tag).
    recall_at_3_recoverable: float
    signals: tuple[str, ...]

    @property
    def coverage(self) -> float:
        return self.suggested / self.memories if self.memories else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "memories": self.memories,
            "suggested": self.suggested,
            "coverage": round(self.coverage, 4),
            "precision_at_1": round(self.precision_at_1, 4),
            "recall_at_3": round(self.recall_at_3, 4),
            "recall_at_3_recoverable": round(self.recall_at_3_recoverable, 4),
            "signals": list(self.signals),
        }


def folds_of(paths: list[str], every: int = 5) -> list[set[str]]:
    """``paths`` cut into ``every`` fixed parts by a hash of each path (not by folder or
    order); hiding each part in turn evaluates every tagged memory once."""
    ranked = sorted(paths, key=lambda p: hashlib.blake2b(p.encode(), digest_size=8).digest())
    return [set(ranked[start::every]) for start in range(every)]


def evaluate(
    engine: Engine, *, every: int = 5, folds: int = 1, use_model: bool = True
) -> SuggestionQuality:
    """Hide one fifth (``every``) of the tagged memories' tags, suggest for them; with
    ``folds`` > 1, the next fifths in turn (all of them at ``folds == every``)."""
    view = {p: tags for p in engine.paths() if (tags := engine.tags_of(p))}
    evaluated = suggested = hits_at_1 = 0
    recall = 0.0
    recoverable_recall = 0.0
    recoverable_memories = 0
    signals: tuple[str, ...] = ()
    for hidden in folds_of(sorted(view), every)[:folds]:
        suggester = TagSuggester(
            engine,
            tags_by_file={p: t for p, t in view.items() if p not in hidden},
            use_model=use_model,
        )
        signals = suggester.signals
        for path in sorted(hidden):
            truth = {suggester.canonical_of(tag) for tag in view[path]}
            top = [s.tag for s in suggester.suggest(path, limit=3).suggestions]
            evaluated += 1
            if top:
                suggested += 1
                hits_at_1 += top[0] in truth
            recall += len(truth & set(top)) / len(truth)
            reachable = {tag for tag in truth if suggester.carried_elsewhere(tag)}
            if reachable:
                recoverable_memories += 1
                recoverable_recall += len(reachable & set(top)) / len(reachable)
    return SuggestionQuality(
        memories=evaluated,
        suggested=suggested,
        precision_at_1=hits_at_1 / suggested if suggested else 0.0,
        recall_at_3=recall / evaluated if evaluated else 0.0,
        recall_at_3_recoverable=(
            recoverable_recall / recoverable_memories if recoverable_memories else 0.0
        ),
        signals=signals,
    )
