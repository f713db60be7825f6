"""Tags prepared for comparison, the links methods make, and the guards every
method applies (numbers differ, only short tokens differ)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .keys import LEGAL_FORMS, legal_fingerprint_key, separator_key, tokens_of
from .model import TagStats


@dataclass(frozen=True, slots=True)
class Tag:
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
class Link:
    a: str
    b: str
    method: str
    level: int


def prepare(stats: Sequence[TagStats]) -> list[Tag]:
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
            Tag(
                tag, files, spellings, key, tokens, digit_runs(key),
                tuple(sorted(forms[key])), fingerprint, legal,
            )
        )  # fmt: skip
    return out


def digit_runs(key: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\d+", key))


def link(a: str, b: str, method: str, level: int) -> Link:
    first, second = (a, b) if a < b else (b, a)
    return Link(first, second, method, level)


def group_by(tags: Iterable[Tag], keyfunc: Callable[[Tag], str | None]) -> list[list[Tag]]:
    groups: dict[str, list[Tag]] = defaultdict(list)
    for tag in tags:
        key = keyfunc(tag)
        if key is not None:
            groups[key].append(tag)
    return [group for _, group in sorted(groups.items()) if len(group) > 1]


def chain_links(group: Sequence[Tag], method: str, level: int) -> Iterator[Link]:
    """Links enough to connect a key-collision group (it is transitive anyway)."""
    for left, right in pairwise(group):
        yield link(left.tag, right.tag, method, level)


def _numbers_differ(a: Tag, b: Tag) -> bool:
    return a.digits != b.digits


def _short_token_difference(a: Tag, b: Tag) -> bool:
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


def guard_rejects(a: Tag, b: Tag) -> bool:
    return _numbers_differ(a, b) or _short_token_difference(a, b)
