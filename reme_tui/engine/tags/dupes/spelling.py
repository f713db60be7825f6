"""Links from spelling alone: key collisions (separator, fingerprint, n-gram), edit
distance through a deletion-neighbourhood index, and abbreviation affinity."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain, combinations

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from ..lookalike import look_key
from .candidates import Link, Tag, chain_links, digit_runs, group_by, guard_rejects, link
from .keys import ngram_key
from .model import HIGH, LOW, MEDIUM, DupeThresholds

_NUMERONYM = re.compile(r"([^\W\d_])(\d+)([^\W\d_])")


def distinct(a: Tag, b: Tag) -> bool:
    """The guards, with numeronyms (``k8s``/``kubernetes``) and tags that look identical
    (``bob``/``bοb`` with a Greek omicron) exempt: a cannot-link."""
    short, long = (a, b) if len(a.key) <= len(b.key) else (b, a)
    if not guard_rejects(a, b) or _numeronym(short.key, long.key):
        return False
    return look_key(a.tag) != look_key(b.tag)


def lookalike_links(tags: Sequence[Tag]) -> Iterator[Link]:
    """Tags a reader cannot tell apart (invisible characters, Cyrillic look-alikes)."""
    for group in group_by(tags, lambda t: look_key(t.tag)):
        yield from chain_links(group, "lookalike", HIGH)


def separator_links(tags: Sequence[Tag]) -> Iterator[Link]:
    for group in group_by(tags, lambda t: t.key):
        yield from chain_links(group, "separator", HIGH)


def _digit_order(tag: Tag) -> tuple[str, ...]:
    return tuple(tok for tok in tag.tokens if any(ch.isdigit() for ch in tok))


def fingerprint_links(tags: Sequence[Tag]) -> Iterator[Link]:
    for group in group_by(tags, lambda t: t.fingerprint):
        yield from _ordered_pairs(group, "fingerprint", HIGH, skip=_same_key)
    for group in group_by(tags, lambda t: t.legal):
        yield from _ordered_pairs(group, "fingerprint", MEDIUM, skip=_same_fingerprint)


def _same_key(left: Tag, right: Tag) -> bool:
    return left.key == right.key


def _same_fingerprint(left: Tag, right: Tag) -> bool:
    return left.fingerprint == right.fingerprint


def _ordered_pairs(
    group: Sequence[Tag], method: str, level: int, *, skip: Callable[[Tag, Tag], bool]
) -> Iterator[Link]:
    for left, right in combinations(group, 2):
        if skip(left, right):
            continue
        if _digit_order(left) == _digit_order(right):
            yield link(left.tag, right.tag, method, level)


def ngram_links(tags: Sequence[Tag], limits: DupeThresholds) -> Iterator[Link]:
    long_enough = [t for t in tags if len(t.key) >= limits.ngram_min_chars]
    for group in group_by(long_enough, lambda t: ngram_key(t.key)):
        if len(group) > limits.bucket_cap:
            continue
        for left, right in combinations(group, 2):
            if left.key == right.key or guard_rejects(left, right):
                continue
            shorter, longer = sorted((len(left.key), len(right.key)))
            if shorter / longer >= limits.ngram_min_length_ratio:
                yield link(left.tag, right.tag, "ngram", MEDIUM)


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


def edit_candidates(tags: Sequence[Tag], limits: DupeThresholds) -> set[tuple[str, str]]:
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
    digits = "|".join(digit_runs(key))
    return {f"{digits}\x1f{v}" for v in variants} if digits else variants


def _compared_strings(a: Tag, b: Tag) -> tuple[str, str]:
    """The one differing token when all other tokens match, else the whole keys."""
    if len(a.tokens) == len(b.tokens) and len(a.tokens) > 1:
        differing = [(x, y) for x, y in zip(a.tokens, b.tokens, strict=True) if x != y]
        if len(differing) == 1:
            return differing[0]
    return a.key, b.key


def _edit_level(a: Tag, b: Tag, limits: DupeThresholds) -> int:
    """0 (no link), LOW or MEDIUM for an edit-distance link between two tags."""
    if a.key == b.key or guard_rejects(a, b):
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


def edit_links(
    tags: Sequence[Tag], by_key: Mapping[str, list[Tag]], limits: DupeThresholds
) -> Iterator[Link]:
    for key_a, key_b in sorted(edit_candidates(tags, limits)):
        for a in by_key[key_a]:
            for b in by_key[key_b]:
                level = _edit_level(a, b, limits)
                if level:
                    yield link(a.tag, b.tag, "edit_distance", level)


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


def affinity(a: Tag, b: Tag, min_ratio: float) -> bool:
    """Do the two strings look related enough for file evidence to count?"""
    short, long = (a, b) if (len(a.key), a.key) <= (len(b.key), b.key) else (b, a)
    if _numeronym(short.key, long.key):
        return True
    return _looks_related(short, long, min_ratio) and not distinct(a, b)


def _looks_related(short: Tag, long: Tag, min_ratio: float) -> bool:
    if set(short.tokens) < set(long.tokens) or _acronym(short.key, long.tokens):
        return True
    if len(short.key) >= 3 and long.key.startswith(short.key):
        return True
    same_start = len(short.key) >= 2 and short.key[0] == long.key[0]
    if same_start and _is_subsequence(short.key, long.key):
        return True
    return fuzz.ratio(short.key, long.key, score_cutoff=min_ratio) >= min_ratio


def affinity_candidates(tags: Sequence[Tag], cap: int) -> set[tuple[str, str]]:
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


def _abbreviation_candidates(tags: Sequence[Tag], cap: int) -> Iterator[tuple[str, str]]:
    """``mgmt``/``management``, ``mgr``/``manager``: same first and last letter, and the
    short key is a subsequence of the long one."""
    longs: dict[tuple[str, str], list[Tag]] = defaultdict(list)
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
