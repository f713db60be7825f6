"""How a tag is named in prose: its surface forms, and counting them in a text.

A tag ``project_atlas`` is written ``Project Atlas``, ``ProjectAtlas`` or just ``Atlas``
in a memory; ``yunfan_tech`` as ``Yunfan``; ``tom_becker`` as ``Tom Becker``. The forms
of a tag are token sequences (folded, as the near-duplicate keys fold them): the whole
tag, the tag without generic words (``project``, legal forms), the separator key as one
token, and aliases the workspace itself gives (its entity page's ``name``, the labels of
links to that page). CJK forms have no word boundaries and are counted as substrings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from ..dupes.keys import LEGAL_FORMS, fold, separator_key, tokens_of

# Words that say what kind of entity a tag is rather than which one.
GENERIC_TOKENS = LEGAL_FORMS | {
    "project", "proj", "team", "tech", "technology", "technologies", "group", "the",
    "person", "people", "client", "customer", "vendor", "partner", "org",
}  # fmt: skip

# A form of one short token (``v2``, ``ai``) matches too much prose to count.
MIN_SINGLE_TOKEN = 3

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

Form = tuple[str, ...]


def is_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def forms_of(spelling: str) -> set[Form]:
    """Token-sequence forms of one tag spelling or alias (empty when too vague)."""
    if is_cjk(spelling):
        return {(fold(spelling).replace("_", "").replace(" ", ""),)}
    tokens = tokens_of(spelling)
    if not tokens:
        return set()
    out: set[Form] = {tokens}
    key = separator_key(spelling)
    if len(tokens) > 1 and key:
        out.add((key,))
    distinct = tuple(t for t in tokens if t not in GENERIC_TOKENS)
    if distinct and distinct != tokens:
        out.add(distinct)
    return {form for form in out if len(form) > 1 or _specific(form[0])}


def _specific(token: str) -> bool:
    return len(token) >= MIN_SINGLE_TOKEN and token not in GENERIC_TOKENS and not token.isdigit()


class FormMatcher:
    """Counts, in one pass over a text's tokens, which tags are named and how often.

    At each position the longest form wins, so ``Atlas v2`` counts for
    ``project_atlas_v2`` and not also for ``project_atlas``.
    """

    def __init__(self, forms_by_tag: Mapping[str, Iterable[Form]]) -> None:
        self._by_first: dict[str, list[tuple[Form, str]]] = {}
        self._cjk: list[tuple[str, str]] = []
        for tag, forms in forms_by_tag.items():
            for form in forms:
                if len(form) == 1 and is_cjk(form[0]):
                    self._cjk.append((form[0], tag))
                else:
                    self._by_first.setdefault(form[0], []).append((form, tag))
        for entries in self._by_first.values():
            entries.sort(key=lambda entry: -len(entry[0]))

    def count(self, text: str) -> Counter[str]:
        counts: Counter[str] = Counter()
        tokens = tokens_of(text)
        i = 0
        while i < len(tokens):
            step = 1
            for form, tag in self._by_first.get(tokens[i], ()):
                if tokens[i : i + len(form)] == form:
                    counts[tag] += 1
                    step = len(form)
                    break
            i += step
        if self._cjk and is_cjk(text):
            folded = fold(text)
            for needle, tag in self._cjk:
                hits = folded.count(needle)
                if hits:
                    counts[tag] += hits
        return counts
