"""Tags suggested for a memory: existing workspace tags ranked with their evidence.

Signals, each a score in [0, 1] times its weight (the weights were tuned on the sample
workspaces with ``quality.evaluate`` and are reported by ``make bench``):

``page``        the memory *is* the tag's entity page (``digest/personal/alice.md``)
``named``       a form of the tag is in the memory's name or description
``mentioned``   ... in its body (one mention 0.4, saturating at 4)
``links_page``  it links to the tag's entity page
``neighbours``  the share of its wikilink neighbours (both ways) that carry the tag
``similar``     the tags of the memories most like it by keyword (BM25, the engine's own
                index queried with the memory's most frequent terms), by rank-weighted vote
``model``       the same vote over the loaded model's most similar memories

A tag is always offered in the most used spelling of its near-duplicate cluster, and
never when the memory already carries any spelling of it. Candidates are tags other
memories carry: a new spelling comes only from the person typing it.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..dupes.keys import separator_key
from ..normalize import MAX_TAGS_PER_FILE
from .forms import Form, FormMatcher, forms_of

if TYPE_CHECKING:
    from ...engine import Engine
    from ...records import Memory

WEIGHTS: dict[str, float] = {
    "page": 4.0,
    "named": 2.5,
    "mentioned": 1.2,
    "links_page": 1.5,
    "neighbours": 1.5,
    "similar": 1.5,
    "model": 1.5,
}
# One short phrase per signal, for a line with no room for the detail.
BRIEF: dict[str, str] = {
    "page": "its entity page",
    "named": "named in its title",
    "mentioned": "mentioned",
    "links_page": "links to its page",
    "neighbours": "on linked memories",
    "similar": "on similar memories",
    "model": "on similar memories (model)",
}
MENTION_SATURATION = 4
NEIGHBOUR_LIMIT = 50
SIMILAR_K = 10
MIN_VOTERS = 3
# Below this a suggestion is noise: a lone weak vote from one similar memory.
MIN_SCORE = 0.35


@dataclass(frozen=True, slots=True)
class Evidence:
    signal: str  # one of WEIGHTS
    score: float  # contribution to the suggestion's score (weight x strength)
    detail: str

    @property
    def brief(self) -> str:
        return BRIEF[self.signal]

    def to_json(self) -> dict[str, Any]:
        return {"signal": self.signal, "score": round(self.score, 6), "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Suggestion:
    tag: str
    score: float
    files: int  # memories carrying any spelling of it
    evidence: tuple[Evidence, ...]
    variants: tuple[str, ...] = ()  # other spellings of the same entity in the workspace

    def to_json(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "score": round(self.score, 6),
            "files": self.files,
            "variants": list(self.variants),
            "evidence": [e.to_json() for e in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class SuggestionReport:
    path: str
    tags: tuple[str, ...]  # what it carries now
    slots_left: int  # ReMe reads only the first MAX_TAGS_PER_FILE tags
    suggestions: tuple[Suggestion, ...]
    signals: tuple[str, ...]  # the signals that could speak (``model`` only with a model)
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "tags": list(self.tags),
            "slots_left": self.slots_left,
            "signals": list(self.signals),
            "notes": list(self.notes),
            "suggestions": [s.to_json() for s in self.suggestions],
        }


class TagSuggester:
    """Suggests tags for the memories of one engine state.

    ``tags_by_file`` replaces the engine's tag view (the quality evaluation hides some
    memories' tags this way); ``canonical`` maps each tag to its cluster's spelling
    (default: the engine's near-duplicate clusters).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        tags_by_file: Mapping[str, tuple[str, ...]] | None = None,
        canonical: Mapping[str, str] | None = None,
        use_model: bool = True,
    ) -> None:
        self._engine = engine
        paths = engine.paths()
        self._view = (
            dict(tags_by_file)
            if tags_by_file is not None
            else {p: tags for p in paths if (tags := engine.tags_of(p))}
        )
        self._canonical = dict(canonical) if canonical is not None else _cluster_map(engine)
        self._files: dict[str, set[str]] = defaultdict(set)
        self._members: dict[str, set[str]] = defaultdict(set)
        for path, tags in self._view.items():
            for tag in tags:
                head = self.canonical_of(tag)
                self._files[head].add(path)
                self._members[head].add(tag)
        self._pages = _entity_pages(paths, self._members)
        self._matcher = FormMatcher(self._forms(engine))
        self._use_model = use_model and engine.embedder is not None

    def canonical_of(self, tag: str) -> str:
        return self._canonical.get(tag, tag)

    def carried_elsewhere(self, tag: str) -> bool:
        """Whether any memory in the view carries a spelling of ``tag``'s entity."""
        return bool(self._files.get(self.canonical_of(tag)))

    @property
    def signals(self) -> tuple[str, ...]:
        return tuple(s for s in WEIGHTS if s != "model" or self._use_model)

    def suggest(self, path: str, limit: int = 5) -> SuggestionReport:
        memory = self._engine.memory(path)
        if memory is None:
            raise KeyError(path)
        current = self._view.get(path, ())
        carried = {self.canonical_of(tag) for tag in current}
        found: dict[str, list[Evidence]] = defaultdict(list)
        for signal, strengths in self._signals(memory):
            for tag, (strength, detail) in strengths.items():
                if tag not in carried and tag in self._files:
                    found[tag].append(Evidence(signal, WEIGHTS[signal] * strength, detail))
        ranked = []
        for tag, evidence in found.items():
            score = sum(e.score for e in evidence)
            if score >= MIN_SCORE:
                ranked.append((score, tag, evidence))
        ranked.sort(key=lambda item: (-item[0], -len(self._files[item[1]]), item[1]))
        suggestions = tuple(
            Suggestion(
                tag,
                score,
                len(self._files[tag]),
                tuple(sorted(evidence, key=lambda e: -e.score)),
                tuple(sorted(self._members[tag] - {tag})),
            )
            for score, tag, evidence in ranked[:limit]
        )
        notes = []
        slots = max(0, MAX_TAGS_PER_FILE - len(current))
        if not slots:
            notes.append(
                f"it already carries {len(current)} tags; ReMe reads only the first "
                f"{MAX_TAGS_PER_FILE}, so a suggestion would replace one"
            )
        if not self._use_model:
            notes.append("no model loaded: suggestions use names, links and keywords only")
        return SuggestionReport(path, current, slots, suggestions, self.signals, tuple(notes))

    # -- signals ---------------------------------------------------------------------

    def _signals(self, memory: Memory) -> Iterable[tuple[str, dict[str, tuple[float, str]]]]:
        yield "page", self._page(memory.path)
        in_name = self._matcher.count(memory.name or "")
        in_description = self._matcher.count(memory.description or "")
        yield (
            "named",
            {
                tag: (1.0, "named in its name" if tag in in_name else "named in its description")
                for tag in in_name | in_description
            },
        )
        body = "\n".join(chunk.text for chunk in memory.chunks)
        yield (
            "mentioned",
            {
                tag: (
                    _mention_strength(n),
                    f"mentioned {n}x in the text",
                )
                for tag, n in self._matcher.count(body).items()
            },
        )
        yield "links_page", self._links_page(memory)
        yield "neighbours", self._neighbours(memory.path)
        yield (
            "similar",
            self._vote(self._engine.keyword_similar(memory.path, SIMILAR_K), "by keywords"),
        )
        if self._use_model:
            similar = [(s.path, s.similarity) for s in self._engine.similar(memory.path, SIMILAR_K)]
            yield "model", self._vote(similar, "by the model")

    def _page(self, path: str) -> dict[str, tuple[float, str]]:
        return {
            tag: (1.0, "this is its entity page")
            for tag, pages in self._pages.items()
            if path in pages
        }

    def _links_page(self, memory: Memory) -> dict[str, tuple[float, str]]:
        targets = {link.target for link in memory.links}
        out = {}
        for tag, pages in self._pages.items():
            linked = sorted(targets & pages - {memory.path})
            if linked:
                out[tag] = (1.0, f"links to {linked[0]}")
        return out

    def _neighbours(self, path: str) -> dict[str, tuple[float, str]]:
        links = self._engine.neighbours(path, NEIGHBOUR_LIMIT)
        near = {n.path for n in (*links.outlinks, *links.inlinks)} - {path}
        if not near:
            return {}
        votes: Counter[str] = Counter()
        for other in near:
            for tag in {self.canonical_of(t) for t in self._view.get(other, ())}:
                votes[tag] += 1
        return {
            tag: (n / len(near), f"{n} of its {len(near)} linked memories carry it")
            for tag, n in votes.items()
        }

    def _vote(self, similar: list[tuple[str, float]], how: str) -> dict[str, tuple[float, str]]:
        """Rank-weighted vote (1/(rank+1)) of the similar memories' tags, share in [0, 1],
        scaled down while fewer than ``MIN_VOTERS`` memories agree (one look-alike is a
        coincidence, not a pattern)."""
        votes: defaultdict[str, float] = defaultdict(float)
        voters: Counter[str] = Counter()
        total = 0.0
        for rank, (path, _score) in enumerate(similar):
            weight = 1.0 / (rank + 1)
            total += weight
            for tag in {self.canonical_of(t) for t in self._view.get(path, ())}:
                votes[tag] += weight
                voters[tag] += 1
        if not total:
            return {}
        return {
            tag: (
                v / total * min(1.0, voters[tag] / MIN_VOTERS) ** 2,
                f"{voters[tag]} of the {len(similar)} most similar memories {how}",
            )
            for tag, v in votes.items()
        }

    # -- set-up ----------------------------------------------------------------------

    def _forms(self, engine: Engine) -> dict[str, set[Form]]:
        forms: dict[str, set[Form]] = defaultdict(set)
        for head, members in self._members.items():
            for member in members:
                forms[head] |= forms_of(member)
            for page in self._pages.get(head, ()):
                memory = engine.memory(page)
                if memory is not None and memory.name:
                    forms[head] |= forms_of(memory.name)
        aliases = _link_aliases(engine, self._pages)
        for head, labels in aliases.items():
            for label in labels:
                forms[head] |= forms_of(label)
        return forms


def _cluster_map(engine: Engine) -> dict[str, str]:
    from ..hygiene import detect_duplicates

    out = {}
    for cluster in detect_duplicates(engine):
        for member in cluster.members:
            out[member.tag] = cluster.suggested
    return out


def _mention_strength(count: int) -> float:
    """One mention is already worth something (0.4); four or more count fully."""
    return 0.4 + 0.6 * (min(count, MENTION_SATURATION) - 1) / (MENTION_SATURATION - 1)


def _entity_pages(paths: Iterable[str], members: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Tag -> the memories named after it (``digest/wiki/project-atlas.md``)."""
    by_key: dict[str, str] = {}
    for head, spellings in members.items():
        for spelling in spellings:
            key = separator_key(spelling)
            if len(key) >= 3:
                by_key.setdefault(key, head)
    pages: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        owner = by_key.get(separator_key(PurePosixPath(path).stem))
        if owner is not None:
            pages[owner].add(path)
    return pages


def _link_aliases(engine: Engine, pages: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Tag -> the labels links to its entity page are written with (``[[p.md|Alice Chen]]``)."""
    page_tag = {page: tag for tag, group in pages.items() for page in group}
    if not page_tag:
        return {}
    out: dict[str, set[str]] = defaultdict(set)
    for path in engine.paths():
        memory = engine.memory(path)
        if memory is None:
            continue
        for link in memory.links:
            tag = page_tag.get(link.target)
            if tag is not None and link.alias:
                out[tag].add(link.alias)
    return out


class SuggestionCache:
    """One TagSuggester per index generation: the set-up (clusters, entity pages, forms)
    is paid once per change to the workspace, not once per memory asked about."""

    def __init__(self, engine: Engine, generation: Callable[[], int]) -> None:
        self._engine = engine
        self._generation = generation
        self._lock = threading.Lock()
        self._held: tuple[int, bool, TagSuggester] | None = None

    def suggester(self) -> TagSuggester:
        generation = self._generation()
        with_model = self._engine.embedder is not None
        with self._lock:
            held = self._held
            if held is None or held[:2] != (generation, with_model):
                held = self._held = (generation, with_model, TagSuggester(self._engine))
            return held[2]

    def suggest(self, path: str, limit: int = 5) -> SuggestionReport:
        return self.suggester().suggest(path, limit)
