"""Near-duplicate tag detection: which canonical tags probably name the same entity.

Pure engine code (no UI imports, no engine-facade imports): the caller passes one
:class:`TagStats` per canonical tag (see ``tags.normalize_tag``) and, optionally,
evidence from the files and an embedding function.

Methods, strict to lax (the name is recorded on every link they make):

``separator``       separator-insensitive key: accents folded, casefolded, every
                    character that is not alphanumeric (or ``+``/``#``, which carry
                    meaning in ``c++``/``c#``) dropped. A separator between two digits
                    is kept as ``.`` so ``v1_2`` and ``v12`` stay apart.
``fingerprint``     OpenRefine's fingerprint key: the folded tag split into tokens,
                    unique tokens sorted and joined (``smith_alice`` = ``alice_smith``);
                    digit-bearing tokens must keep their order (``1_2`` != ``2_1``).
                    A second key also drops legal-form tokens (``acme_corp`` = ``acme``);
                    that one only earns medium confidence.
``ngram``           OpenRefine's n-gram fingerprint (n = 2) of the separator key: the
                    unique sorted bigrams. Only for keys of 5+ characters whose lengths
                    are within 80 % of each other (``bana`` is not ``banana``).
``edit_distance``   optimal-string-alignment distance (a transposition costs 1), found
                    through a deletion-neighbourhood index (SymSpell-style blocking), so
                    no all-pairs comparison. When the tags have the same tokens except
                    one, that token is compared, else the whole key. Thresholds by the
                    length L of the shorter compared string: L <= 4 never; 5-7 one edit
                    (low); 8-11 one edit (medium) or two (low); 12+ two edits (medium).
                    A lone substitution of the last letter (``carolina``/``caroline``,
                    ``francesca``/``francesco``) is capped at low.
``cooccurrence``    the tags share memories far more than chance: at least 2 shared
                    memories, lift (observed / expected) >= 2, and >= 50 % of the
                    rarer tag's memories.
``text_similarity`` cosine of term frequencies of the tags' memory text (the first
                    20,000 characters of each), >= 0.5.
``embedding``       cosine of the embedded tag strings (unit vectors from ``embed``),
                    compared in numpy blocks; skipped when ``embed`` is None.

Guards: every method after the key methods refuses a pair whose digit runs differ
(``q3_budget``/``q4_budget``, ``v1``/``v2``, ``v1_2``/``v12``) or whose only differing
tokens are short (<= 3 characters, legal forms aside: ``project_a``/``project_b``,
``mobile_app``/``mobile_api``, ``project``/``project_a``). Tokens are compared for
every spelling sharing a separator key, so ``projecta`` is as distinct from
``project_b`` as ``project_a`` is. A numeronym (``k8s``/``kubernetes``) is exempt.
The guards are also cannot-link constraints for clustering: two guarded tags never
end up in one cluster through a third (``项目a`` resembling both ``project_a`` and
``project_b``). The evidence methods never link on their own: the tag strings must
also show some affinity (token containment, prefix, acronym, numeronym, abbreviation
as a subsequence, or a fuzzy ratio >= 75). Their candidates come from blocking too
(shared token, 3-letter prefix, initials, numeronym shape, first+last letter).

Confidence
----------
Each link gets a level: separator and fingerprint are high; the legal-form
fingerprint, n-gram, strong edit distance and a very high embedding similarity of
dissimilar strings are medium; weak edit distance, a merely high embedding
similarity (or any embedding similarity of strings that already look alike, since
model2vec then mostly echoes the letters) and the evidence methods are low. A pair
with a low string link (edit distance or embedding) that the files corroborate
(co-occurrence or text) is raised to medium: two independent weak signals.

Clusters are connected components over the links, built strongest link first
(Kruskal order). A cluster's confidence is its *bottleneck*: the weakest link needed
to connect it, so a cluster is "high" only when every member is attached by high
links, and merging a whole high cluster is always safe. (Taking the strongest link
instead would let one low link hang a look-alike on a high cluster and present it as
certain.) Two rules keep weak links from doing harm:

* a low link never joins a medium or high cluster (no dilution): ``mueller`` does not
  drag the certain ``müller``/``muller`` pair down to low; once that pair is merged,
  the next detection pass proposes ``mueller`` on its own;
* a low link only attaches a lone tag to a low cluster of fewer than
  ``weak_cluster_cap`` (4) tags, so chains of look-alikes cannot snowball.

Dismissed pairs are cannot-link constraints as well: a link that would put a
dismissed pair into one cluster is skipped, and the pair itself is never linked.

The output is independent of the input order: tags are sorted first and every
loop runs over sorted keys.

Why this module is long (~900 lines): it is one algorithm, a cascade of candidate
rules (keys, edit distance, affinity, co-occurrence, text, embedding) feeding one
clustering step, each rule measured against the labelled set in
``tests/engine/dupes_labelled.py`` with the thresholds of ``DupeThresholds``. The rules
share the private ``_Tag``/``_Link`` records and the guard against false friends; the
sections below are the reading order.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations, pairwise
from typing import Any, Literal

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

Confidence = Literal["high", "medium", "low"]

METHODS: tuple[str, ...] = (
    "separator",
    "fingerprint",
    "ngram",
    "edit_distance",
    "cooccurrence",
    "text_similarity",
    "embedding",
)
HIGH, MEDIUM, LOW = 3, 2, 1
_LEVEL_NAME: dict[int, Confidence] = {HIGH: "high", MEDIUM: "medium", LOW: "low"}
_METHOD_RANK = {name: rank for rank, name in enumerate(METHODS)}
_EVIDENCE_METHODS = frozenset({"cooccurrence", "text_similarity"})
_WEAK_STRING_METHODS = frozenset({"edit_distance", "embedding"})

#: Legal-form tokens dropped by the second fingerprint key (``acme_corp`` -> ``acme``).
LEGAL_FORMS = frozenset(
    {
        "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited",
        "llc", "llp", "plc", "gmbh", "ag", "bv", "nv", "pty", "srl",
    }
)  # fmt: skip
_TOKEN = re.compile(r"(?:[^\W_]|[+#])+")  # alphanumerics, plus the + and # of c++ / c#
_SPECIAL_FOLDS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)
_NUMERONYM = re.compile(r"([^\W\d_])(\d+)([^\W\d_])")
_TEXT_TOKEN = re.compile(r"\w{3,}")
_TEXT_STOPWORDS = frozenset(
    {
        "the", "and", "for", "are", "was", "were", "with", "that", "this", "from", "have",
        "has", "had", "not", "but", "you", "all", "any", "can", "her", "his", "its", "our",
        "their", "they", "them", "she", "him", "who", "what", "when", "where", "which", "will",
        "would", "about", "into", "than", "then", "there", "these", "those", "been", "also",
        "more", "most", "some", "such", "only", "very", "just",
    }
)  # fmt: skip


# --------------------------------------------------------------------------- public data


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


# --------------------------------------------------------------------------- keys


def fold(text: str) -> str:
    """Casefold and strip accents (NFKD, drop combining marks, recompose)."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    decomposed = unicodedata.normalize("NFKD", folded.translate(_SPECIAL_FOLDS))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def tokens_of(tag: str) -> tuple[str, ...]:
    """Folded tokens: runs of alphanumerics (and ``+``/``#``)."""
    return tuple(_TOKEN.findall(fold(tag)))


def separator_key(tag: str) -> str:
    """``project_a``, ``Project-A``, ``projecta`` -> ``projecta``; ``v1_2`` -> ``v1.2``."""
    parts = tokens_of(tag)
    if not parts:
        return fold(tag)
    out = parts[0]
    for part in parts[1:]:
        joiner = "." if out[-1].isdigit() and part[0].isdigit() else ""
        out += joiner + part
    return out


def fingerprint_key(tag: str) -> str:
    """OpenRefine fingerprint: unique folded tokens, sorted, joined by a space."""
    return " ".join(sorted(set(tokens_of(tag))))


def legal_fingerprint_key(tag: str) -> str:
    """Fingerprint after dropping trailing legal-form tokens (``acme_corp`` -> ``acme``)."""
    parts = list(tokens_of(tag))
    while len(parts) > 1 and parts[-1] in LEGAL_FORMS:
        parts.pop()
    return " ".join(sorted(set(parts)))


def ngram_fingerprint(tag: str, n: int = 2) -> str:
    """OpenRefine n-gram fingerprint of the separator key: unique sorted n-grams joined."""
    return _ngram_key(separator_key(tag), n)


def _ngram_key(key: str, n: int = 2) -> str:
    if len(key) <= n:
        return key
    return "".join(sorted({key[i : i + n] for i in range(len(key) - n + 1)}))


# --------------------------------------------------------------------------- internals


@dataclass(frozen=True, slots=True)
class _Tag:
    tag: str
    files: int
    spellings: tuple[str, ...]
    key: str
    tokens: tuple[str, ...]
    digits: tuple[str, ...]
    forms: tuple[tuple[str, ...], ...]  # token tuples of every tag sharing this key
    fingerprint: str
    legal: str


@dataclass(frozen=True, slots=True)
class _Link:
    a: str
    b: str
    method: str
    level: int


@dataclass
class _Components:
    """Union-find with member sets and cannot-link constraints."""

    parent: dict[str, str]
    members: dict[str, set[str]]
    forbidden: Mapping[str, set[str]]
    conflict: Callable[[str, str], bool]
    weak_cluster_cap: int = 4
    bottleneck: dict[str, int] = field(default_factory=dict)

    def find(self, item: str) -> str:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: str, b: str, level: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if level < MEDIUM and not self._weak_link_allowed(ra, rb, level):
            return False
        small, big = sorted((ra, rb), key=lambda r: (len(self.members[r]), r))
        big_members = self.members[big]
        if any(self.forbidden.get(m, set()) & big_members for m in self.members[small]):
            return False
        if any(self.conflict(x, y) for x in self.members[small] for y in big_members):
            return False
        self.parent[small] = big
        big_members |= self.members.pop(small)
        worst = min(level, self.bottleneck.pop(small, level), self.bottleneck.get(big, level))
        self.bottleneck[big] = worst
        return True

    def _weak_link_allowed(self, ra: str, rb: str, level: int) -> bool:
        """Weak links neither dilute nor chain.

        A weak link may not drag a cluster built from stronger links down to its
        level, and it only attaches a lone tag to a small weak cluster, so a string
        of look-alikes (``finjo``-``finlo``-``finlos``-``finros``) cannot snowball.
        """
        if any(self.bottleneck.get(root, level) > level for root in (ra, rb)):
            return False
        sizes = sorted((len(self.members[ra]), len(self.members[rb])))
        return sizes[0] == 1 and sizes[1] < self.weak_cluster_cap


def _prepare(stats: Sequence[TagStats]) -> list[_Tag]:
    merged: dict[str, tuple[int, tuple[str, ...]]] = {}
    for item in stats:
        files, spellings = merged.get(item.tag, (0, ()))
        if item.tag in merged:
            spellings = tuple(sorted(set(spellings) | set(item.spellings)))
        else:
            spellings = tuple(item.spellings)
        merged[item.tag] = (files + item.files, spellings)
    forms: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for tag in merged:
        forms[separator_key(tag)].add(tokens_of(tag))
    out = []
    for tag in sorted(merged):
        files, spellings = merged[tag]
        key = separator_key(tag)
        tokens = tokens_of(tag)
        fingerprint = " ".join(sorted(set(tokens)))
        legal = legal_fingerprint_key(tag) if set(tokens) & LEGAL_FORMS else fingerprint
        out.append(
            _Tag(
                tag, files, spellings, key, tokens, _digit_runs(key),
                tuple(sorted(forms[key])), fingerprint, legal,
            )
        )  # fmt: skip
    return out


def _digit_runs(key: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\d+", key))


def _link(a: str, b: str, method: str, level: int) -> _Link:
    first, second = (a, b) if a < b else (b, a)
    return _Link(first, second, method, level)


def _group_by(tags: Iterable[_Tag], keyfunc: Callable[[_Tag], str | None]) -> list[list[_Tag]]:
    groups: dict[str, list[_Tag]] = defaultdict(list)
    for tag in tags:
        key = keyfunc(tag)
        if key is not None:
            groups[key].append(tag)
    return [group for _, group in sorted(groups.items()) if len(group) > 1]


def _chain(group: Sequence[_Tag], method: str, level: int) -> Iterator[_Link]:
    """Links enough to connect a key-collision group (it is transitive anyway)."""
    for left, right in pairwise(group):
        yield _link(left.tag, right.tag, method, level)


def _numbers_differ(a: _Tag, b: _Tag) -> bool:
    return a.digits != b.digits


def _short_token_difference(a: _Tag, b: _Tag) -> bool:
    """True when the tags differ only by short tokens (``project_a``/``project_b``).

    Every spelling sharing a separator key is compared, so ``projecta`` inherits the
    tokens of ``project_a`` and stays apart from ``project_b``.
    """
    if a.key == b.key:
        return False
    return any(
        _short_tokens_only(x, y) for x in a.forms or (a.tokens,) for y in b.forms or (b.tokens,)
    )


def _short_tokens_only(x: tuple[str, ...], y: tuple[str, ...]) -> bool:
    if x == y or all(len(tok) > 3 for tok in x + y):
        return False
    if len(set(x)) == len(x) and len(set(y)) == len(y):
        only_x: Collection[str] = set(x).difference(y)
        only_y: Collection[str] = set(y).difference(x)
    else:
        only_x, only_y = Counter(x) - Counter(y), Counter(y) - Counter(x)
    differing = [tok for tok in (*only_x, *only_y) if tok not in LEGAL_FORMS]
    if not differing or not all(len(tok) <= 3 for tok in differing):
        return False
    return not only_x or not only_y or len(x) == len(y)


def _guard_rejects(a: _Tag, b: _Tag) -> bool:
    return _numbers_differ(a, b) or _short_token_difference(a, b)


def _distinct(a: _Tag, b: _Tag) -> bool:
    """The guards, with numeronyms (``k8s``/``kubernetes``) exempt: a cannot-link."""
    short, long = (a, b) if len(a.key) <= len(b.key) else (b, a)
    return _guard_rejects(a, b) and not _numeronym(short.key, long.key)


# --------------------------------------------------------------------------- key methods


def _separator_links(tags: Sequence[_Tag]) -> Iterator[_Link]:
    for group in _group_by(tags, lambda t: t.key):
        yield from _chain(group, "separator", HIGH)


def _digit_order(tag: _Tag) -> tuple[str, ...]:
    return tuple(tok for tok in tag.tokens if any(ch.isdigit() for ch in tok))


def _fingerprint_links(tags: Sequence[_Tag]) -> Iterator[_Link]:
    for group in _group_by(tags, lambda t: t.fingerprint):
        yield from _ordered_pairs(group, "fingerprint", HIGH, skip=_same_key)
    for group in _group_by(tags, lambda t: t.legal):
        yield from _ordered_pairs(group, "fingerprint", MEDIUM, skip=_same_fingerprint)


def _same_key(left: _Tag, right: _Tag) -> bool:
    return left.key == right.key


def _same_fingerprint(left: _Tag, right: _Tag) -> bool:
    return left.fingerprint == right.fingerprint


def _ordered_pairs(
    group: Sequence[_Tag], method: str, level: int, *, skip: Callable[[_Tag, _Tag], bool]
) -> Iterator[_Link]:
    for left, right in combinations(group, 2):
        if skip(left, right):
            continue
        if _digit_order(left) == _digit_order(right):
            yield _link(left.tag, right.tag, method, level)


def _ngram_links(tags: Sequence[_Tag], limits: DupeThresholds) -> Iterator[_Link]:
    long_enough = [t for t in tags if len(t.key) >= limits.ngram_min_chars]
    for group in _group_by(long_enough, lambda t: _ngram_key(t.key)):
        if len(group) > limits.bucket_cap:
            continue
        for left, right in combinations(group, 2):
            if left.key == right.key or _guard_rejects(left, right):
                continue
            shorter, longer = sorted((len(left.key), len(right.key)))
            if shorter / longer >= limits.ngram_min_length_ratio:
                yield _link(left.tag, right.tag, "ngram", MEDIUM)


# --------------------------------------------------------------------------- edit distance


def _deletions(word: str, depth: int) -> set[str]:
    """The word and every string made by deleting up to ``depth`` characters."""
    size = len(word)
    out = {word[:i] + word[i + 1 :] for i in range(size)}
    out.add(word)
    if depth >= 2:
        out.update(
            word[:i] + word[i + 1 : j] + word[j + 1 :]
            for i in range(size)
            for j in range(i + 1, size)
        )
    return out


def _edit_candidates(tags: Sequence[_Tag], limits: DupeThresholds) -> set[tuple[str, str]]:
    """Pairs of separator keys that may be within two edits (deletion blocking).

    Two strings within k edits share a string reachable by at most k deletions from
    each (a substitution or transposition is one deletion on both sides), so keys are
    bucketed by their deletion variants (prefixed by their digit runs, which must
    match anyway). Only buckets shared by several keys are built.
    """
    keys = sorted({t.key for t in tags if len(t.key) >= limits.edit_min_chars})
    variants = [_bucket_keys(key, limits) for key in keys]
    counts = Counter(chain.from_iterable(variants))
    shared = {variant for variant, count in counts.items() if 1 < count <= limits.bucket_cap}
    buckets: dict[str, list[str]] = defaultdict(list)
    for key, own in zip(keys, variants, strict=True):
        for variant in own & shared:
            buckets[variant].append(key)
    pairs: set[tuple[str, str]] = set()
    for members in buckets.values():
        pairs.update(combinations(members, 2))
    return pairs


def _bucket_keys(key: str, limits: DupeThresholds) -> set[str]:
    variants = _deletions(key, 1 if len(key) < limits.edit_two_min_chars else 2)
    digits = "|".join(_digit_runs(key))
    return {f"{digits}\x1f{v}" for v in variants} if digits else variants


def _compared_strings(a: _Tag, b: _Tag) -> tuple[str, str]:
    """The one differing token when all other tokens match, else the whole keys."""
    if len(a.tokens) == len(b.tokens) and len(a.tokens) > 1:
        differing = [(x, y) for x, y in zip(a.tokens, b.tokens, strict=True) if x != y]
        if len(differing) == 1:
            return differing[0]
    return a.key, b.key


def _edit_level(a: _Tag, b: _Tag, limits: DupeThresholds) -> int:
    """0 (no link), LOW or MEDIUM for an edit-distance link between two tags."""
    if a.key == b.key or _guard_rejects(a, b):
        return 0
    left, right = _compared_strings(a, b)
    length = min(len(left), len(right))
    if length < limits.edit_min_chars:
        return 0
    distance = OSA.distance(left, right, score_cutoff=2)
    if distance > 2 or (distance == 2 and length < limits.edit_two_min_chars):
        return 0
    if distance == 1 and _last_letter_swap(left, right):
        return LOW if length >= limits.edit_medium_chars else 0
    if length < limits.edit_medium_chars:
        return LOW
    return MEDIUM if distance == 1 or length >= limits.edit_two_medium_chars else LOW


def _last_letter_swap(left: str, right: str) -> bool:
    return len(left) == len(right) and left[:-1] == right[:-1]


def _edit_links(
    tags: Sequence[_Tag], by_key: Mapping[str, list[_Tag]], limits: DupeThresholds
) -> Iterator[_Link]:
    for key_a, key_b in sorted(_edit_candidates(tags, limits)):
        for a in by_key[key_a]:
            for b in by_key[key_b]:
                level = _edit_level(a, b, limits)
                if level:
                    yield _link(a.tag, b.tag, "edit_distance", level)


# --------------------------------------------------------------------------- affinity


def _is_subsequence(short: str, long: str) -> bool:
    remaining = iter(long)
    return all(ch in remaining for ch in short)


def _numeronym(short: str, long: str) -> bool:
    """``k8s`` / ``kubernetes``, ``i18n`` / ``internationalization``."""
    match = _NUMERONYM.fullmatch(short) if short[1:2].isdigit() else None
    if match is None:
        return False
    first, count, last = match.groups()
    return long[0] == first and long[-1] == last and len(long) == int(count) + 2


def _acronym(short: str, long_tokens: Sequence[str]) -> bool:
    return len(long_tokens) >= 2 and short == "".join(tok[0] for tok in long_tokens)


def _affinity(a: _Tag, b: _Tag, min_ratio: float) -> bool:
    """Do the two strings look related enough for file evidence to count?"""
    short, long = (a, b) if (len(a.key), a.key) <= (len(b.key), b.key) else (b, a)
    if _numeronym(short.key, long.key):
        return True
    return _looks_related(short, long, min_ratio) and not _distinct(a, b)


def _looks_related(short: _Tag, long: _Tag, min_ratio: float) -> bool:
    if set(short.tokens) < set(long.tokens) or _acronym(short.key, long.tokens):
        return True
    if len(short.key) >= 3 and long.key.startswith(short.key):
        return True
    same_start = len(short.key) >= 2 and short.key[0] == long.key[0]
    if same_start and _is_subsequence(short.key, long.key):
        return True
    return fuzz.ratio(short.key, long.key, score_cutoff=min_ratio) >= min_ratio


def _affinity_candidates(tags: Sequence[_Tag], cap: int) -> set[tuple[str, str]]:
    """Blocking for affinity: shared token, shared 3-prefix, acronym, numeronym."""
    blocks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for tag in tags:
        for token in set(tag.tokens):
            blocks[("tok", token)].append(tag.tag)
        blocks[("pre", tag.key[:3])].append(tag.tag)
        if len(tag.tokens) >= 2:
            blocks[("acr", "".join(tok[0] for tok in tag.tokens))].append(tag.tag)
        blocks[("acr", tag.key)].append(tag.tag)
        if len(tag.key) >= 4:
            shape = f"{tag.key[0]}{len(tag.key) - 2}{tag.key[-1]}"
            blocks[("num", shape)].append(tag.tag)
        blocks[("num", tag.key)].append(tag.tag)
    pairs: set[tuple[str, str]] = set()
    for members in blocks.values():
        if 1 < len(members) <= cap:
            pairs.update(combinations(sorted(set(members)), 2))
    pairs.update(_abbreviation_candidates(tags, cap))
    return pairs


def _abbreviation_candidates(tags: Sequence[_Tag], cap: int) -> Iterator[tuple[str, str]]:
    """``mgmt``/``management``, ``mgr``/``manager``: same first and last letter, and the
    short key is a subsequence of the long one."""
    longs: dict[tuple[str, str], list[_Tag]] = defaultdict(list)
    for tag in tags:
        if len(tag.key) >= 6:
            longs[(tag.key[0], tag.key[-1])].append(tag)
    for tag in tags:
        if not 2 <= len(tag.key) <= 5 or not tag.key.isalpha():
            continue
        bucket = longs.get((tag.key[0], tag.key[-1]), [])
        if len(bucket) > 4 * cap:
            continue
        for other in bucket:
            if _is_subsequence(tag.key, other.key):
                yield (min(tag.tag, other.tag), max(tag.tag, other.tag))


# --------------------------------------------------------------------------- evidence


def _cooccurrence_counts(
    evidence: TagEvidence, known: Collection[str], max_tags: int
) -> Counter[tuple[str, str]]:
    tags_by_file: dict[str, list[str]] = defaultdict(list)
    for tag in sorted(evidence.files_by_tag):
        if tag in known:
            for path in evidence.files_by_tag[tag]:
                tags_by_file[path].append(tag)
    counts: Counter[tuple[str, str]] = Counter()
    for file_tags in tags_by_file.values():
        if 1 < len(file_tags) <= max_tags:
            counts.update(combinations(file_tags, 2))
    return counts


def _cooccurrence_links(
    by_tag: Mapping[str, _Tag], evidence: TagEvidence, limits: DupeThresholds
) -> Iterator[_Link]:
    total = max(evidence.total_files, 1)
    counts = _cooccurrence_counts(evidence, by_tag, limits.max_tags_per_file)
    for (a, b), shared in sorted(counts.items()):
        if shared < limits.cooc_min_support:
            continue
        n_a, n_b = len(evidence.files_by_tag[a]), len(evidence.files_by_tag[b])
        lift = shared * total / (n_a * n_b)
        overlap = shared / min(n_a, n_b)
        if lift < limits.cooc_min_lift or overlap < limits.cooc_min_overlap:
            continue
        if _affinity(by_tag[a], by_tag[b], limits.affinity_min_ratio):
            yield _link(a, b, "cooccurrence", LOW)


def _term_vector(text: str) -> dict[str, float]:
    counts = Counter(
        tok for tok in _TEXT_TOKEN.findall(text.casefold()) if tok not in _TEXT_STOPWORDS
    )
    norm = math.sqrt(sum(c * c for c in counts.values()))
    return {tok: c / norm for tok, c in counts.items()} if norm else {}


def _cosine(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    if len(u) > len(v):
        u, v = v, u
    return sum(weight * v.get(tok, 0.0) for tok, weight in u.items())


def _text_links(
    by_tag: Mapping[str, _Tag],
    candidates: Iterable[tuple[str, str]],
    text_of_tag: Callable[[str], str],
    limits: DupeThresholds,
) -> Iterator[_Link]:
    vectors: dict[str, dict[str, float]] = {}

    def vector(tag: str) -> dict[str, float]:
        if tag not in vectors:
            vectors[tag] = _term_vector((text_of_tag(tag) or "")[: limits.text_max_chars])
        return vectors[tag]

    for a, b in sorted(candidates):
        if not _affinity(by_tag[a], by_tag[b], limits.affinity_min_ratio):
            continue
        if _cosine(vector(a), vector(b)) >= limits.text_min_cosine:
            yield _link(a, b, "text_similarity", LOW)


# --------------------------------------------------------------------------- embedding


def _embedding_links(
    tags: Sequence[_Tag],
    embed: Callable[[list[str]], np.ndarray],
    limits: DupeThresholds,
    block: int = 512,
) -> Iterator[_Link]:
    if len(tags) < 2:
        return
    texts = [" ".join(t.tokens) or t.tag for t in tags]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    for start in range(0, len(tags), block):
        sims = vectors[start : start + block] @ vectors.T
        rows, cols = np.nonzero(sims >= limits.embed_low)
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
            i = start + row
            if col <= i:
                continue
            level = _embedding_level(tags[i], tags[col], float(sims[row, col]), limits)
            if level:
                yield _link(tags[i].tag, tags[col].tag, "embedding", level)


def _embedding_level(a: _Tag, b: _Tag, similarity: float, limits: DupeThresholds) -> int:
    if a.key == b.key or _guard_rejects(a, b):
        return 0
    looks_alike = fuzz.ratio(a.key, b.key) >= limits.embed_lexical_ratio
    if similarity >= limits.embed_medium and not looks_alike:
        return MEDIUM
    return LOW


# --------------------------------------------------------------------------- clustering


def _pair_levels(links: Iterable[_Link]) -> dict[tuple[str, str], int]:
    methods: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for link in links:
        known = methods[(link.a, link.b)]
        known[link.method] = max(link.level, known.get(link.method, 0))
    levels: dict[tuple[str, str], int] = {}
    for pair, by_method in methods.items():
        level = max(by_method.values())
        if _corroborated(by_method.keys()):
            level = max(level, MEDIUM)
        levels[pair] = level
    return levels


def _corroborated(methods: Collection[str]) -> bool:
    """A weak string link and file evidence for the same pair."""
    has_evidence = not _EVIDENCE_METHODS.isdisjoint(methods)
    return has_evidence and not _WEAK_STRING_METHODS.isdisjoint(methods)


def _forbidden(dismissed: Collection[frozenset[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for pair in dismissed:
        if len(pair) == 2:
            a, b = sorted(pair)
            out[a].add(b)
            out[b].add(a)
    return out


def _components(
    tags: Sequence[_Tag],
    levels: Mapping[tuple[str, str], int],
    forbidden: Mapping[str, set[str]],
    weak_cluster_cap: int,
) -> _Components:
    by_tag = {t.tag: t for t in tags}

    def conflict(a: str, b: str) -> bool:
        return _distinct(by_tag[a], by_tag[b])

    comps = _Components(
        parent={t.tag: t.tag for t in tags}, members={t.tag: {t.tag} for t in tags},
        forbidden=forbidden, conflict=conflict, weak_cluster_cap=weak_cluster_cap,
    )  # fmt: skip
    for (a, b), level in sorted(levels.items(), key=lambda item: (-item[1], item[0])):
        comps.union(a, b, level)
    return comps


def _suggest(members: Sequence[_Tag]) -> str:
    return min(members, key=lambda t: (-t.files, len(t.tag), t.tag)).tag


def _build_cluster(members: Sequence[_Tag], level: int, links: Iterable[_Link]) -> DupeCluster:
    ordered = sorted(members, key=lambda t: (-t.files, t.tag))
    inside = sorted(
        {(ln.a, ln.b, ln.method) for ln in links},
        key=lambda p: (_METHOD_RANK[p[2]], p[0], p[1]),
    )
    methods = tuple(sorted({p[2] for p in inside}, key=_METHOD_RANK.__getitem__))
    return DupeCluster(
        members=tuple(DupeMember(t.tag, t.files, t.spellings) for t in ordered),
        suggested=_suggest(members),
        methods=methods,
        confidence=_LEVEL_NAME[level],
        pairs=tuple(inside),
    )


# --------------------------------------------------------------------------- entry point


def find_links(
    stats: Sequence[TagStats],
    evidence: TagEvidence | None = None,
    *,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    dismissed: Collection[frozenset[str]] = (),
    thresholds: DupeThresholds = DEFAULT_THRESHOLDS,
) -> list[tuple[str, str, str, Confidence]]:
    """Every link (a, b, method, level) before clustering; for tests and diagnostics."""
    tags = _prepare(stats)
    links = _all_links(tags, evidence, embed, thresholds, _dismissed_set(dismissed))
    return [(ln.a, ln.b, ln.method, _LEVEL_NAME[ln.level]) for ln in links]


def find_tag_clusters(
    stats: Sequence[TagStats],
    evidence: TagEvidence | None = None,
    *,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    dismissed: Collection[frozenset[str]] = (),
    thresholds: DupeThresholds = DEFAULT_THRESHOLDS,
) -> list[DupeCluster]:
    """Clusters of canonical tags that probably name one entity, most certain first."""
    tags = _prepare(stats)
    links = _all_links(tags, evidence, embed, thresholds, _dismissed_set(dismissed))
    comps = _components(
        tags, _pair_levels(links), _forbidden(dismissed), thresholds.weak_cluster_cap
    )
    by_tag = {t.tag: t for t in tags}
    links_by_root: dict[str, list[_Link]] = defaultdict(list)
    for link in links:
        root = comps.find(link.a)
        if root == comps.find(link.b):
            links_by_root[root].append(link)
    clusters = [
        _build_cluster([by_tag[m] for m in members], comps.bottleneck[root], links_by_root[root])
        for root, members in comps.members.items()
        if len(members) > 1
    ]
    rank = {"high": 0, "medium": 1, "low": 2}
    clusters.sort(key=lambda c: (rank[c.confidence], -c.total_files, c.suggested))
    return clusters


def _dismissed_set(dismissed: Collection[frozenset[str]]) -> frozenset[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for pair in dismissed:
        if len(pair) == 2:
            a, b = sorted(pair)
            out.add((a, b))
    return frozenset(out)


def _all_links(
    tags: Sequence[_Tag],
    evidence: TagEvidence | None,
    embed: Callable[[list[str]], np.ndarray] | None,
    limits: DupeThresholds,
    dismissed: frozenset[tuple[str, str]],
) -> list[_Link]:
    by_tag = {t.tag: t for t in tags}
    by_key: dict[str, list[_Tag]] = defaultdict(list)
    for tag in tags:
        by_key[tag.key].append(tag)
    links: list[_Link] = [
        *_separator_links(tags),
        *_fingerprint_links(tags),
        *_ngram_links(tags, limits),
        *_edit_links(tags, by_key, limits),
    ]
    if evidence is not None:
        links.extend(_cooccurrence_links(by_tag, evidence, limits))
        if evidence.text_of_tag is not None:
            candidates = _affinity_candidates(tags, limits.bucket_cap)
            candidates |= set(_cooccurrence_counts(evidence, by_tag, limits.max_tags_per_file))
            links.extend(_text_links(by_tag, candidates, evidence.text_of_tag, limits))
    if embed is not None:
        links.extend(_embedding_links(tags, embed, limits))
    unique = {(ln.a, ln.b, ln.method, ln.level): ln for ln in links if ln.a != ln.b}
    kept = [ln for ln in unique.values() if (ln.a, ln.b) not in dismissed]
    kept.sort(key=lambda ln: (-ln.level, _METHOD_RANK[ln.method], ln.a, ln.b))
    return kept
