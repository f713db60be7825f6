"""What near-duplicate detection takes and gives: tag statistics, evidence,
thresholds, clusters; the methods and their confidence levels."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Confidence = Literal["high", "medium", "low"]


METHODS: tuple[str, ...] = (
    "lookalike",  # identical to the eye: invisible characters, Cyrillic look-alikes
    "separator",
    "fingerprint",
    "ngram",
    "edit_distance",
    "cooccurrence",
    "text_similarity",
    "embedding",
)


HIGH, MEDIUM, LOW = 3, 2, 1


LEVEL_NAME: dict[int, Confidence] = {HIGH: "high", MEDIUM: "medium", LOW: "low"}


METHOD_RANK = {name: rank for rank, name in enumerate(METHODS)}


EVIDENCE_METHODS = frozenset({"cooccurrence", "text_similarity"})


WEAK_STRING_METHODS = frozenset({"edit_distance", "embedding"})


@dataclass(frozen=True)
class TagStats:
    """One canonical tag, its file count and the original spellings seen in files."""

    tag: str
    files: int
    spellings: tuple[str, ...] = ()


@dataclass(frozen=True)
class DupeMember:
    tag: str
    files: int
    spellings: tuple[str, ...]


@dataclass(frozen=True)
class DupeCluster:
    """Tags that probably name one entity, with the evidence that linked them."""

    members: tuple[DupeMember, ...]
    suggested: str
    methods: tuple[str, ...]
    confidence: Confidence
    pairs: tuple[tuple[str, str, str], ...]  # (tag a, tag b, method), a < b

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(member.tag for member in self.members)

    @property
    def total_files(self) -> int:
        return sum(member.files for member in self.members)

    def to_json(self) -> dict[str, Any]:
        return {
            "tags": [
                {"tag": m.tag, "files": m.files, "spellings": list(m.spellings)}
                for m in self.members
            ],
            "suggested": self.suggested,
            "methods": list(self.methods),
            "confidence": self.confidence,
        }


@dataclass(frozen=True)
class TagEvidence:
    """What the files say: tag -> files, the number of tagged files, optional text."""

    files_by_tag: Mapping[str, Collection[str]]
    total_files: int
    text_of_tag: Callable[[str], str] | None = None


@dataclass(frozen=True)
class DupeThresholds:
    """Tunable limits; the defaults are what the labelled set was measured with."""

    cooc_min_support: int = 2  # shared memories
    cooc_min_lift: float = 2.0  # observed / expected co-occurrence
    cooc_min_overlap: float = 0.5  # shared / files of the rarer tag
    text_min_cosine: float = 0.5
    text_max_chars: int = 20_000  # a tag's text is cut here: a sample is enough for TF
    embed_medium: float = 0.92
    embed_low: float = 0.85
    embed_lexical_ratio: float = 50.0  # fuzz.ratio above which strings "look alike"
    affinity_min_ratio: float = 75.0
    weak_cluster_cap: int = 4  # a low-confidence cluster never grows beyond this
    bucket_cap: int = 64  # blocking buckets larger than this are enumerations; skipped
    max_tags_per_file: int = 20  # co-occurrence candidates per memory
    ngram_min_chars: int = 5  # shorter keys share too many bigrams by chance
    ngram_min_length_ratio: float = 0.8  # shorter / longer key length
    edit_min_chars: int = 5  # compared strings of 4 characters or fewer never link
    edit_two_min_chars: int = 8  # two edits only between strings this long; below, one
    edit_medium_chars: int = 8  # below this, an edit link is low confidence
    edit_two_medium_chars: int = 12  # two edits are medium confidence from this length


DEFAULT_THRESHOLDS = DupeThresholds()
