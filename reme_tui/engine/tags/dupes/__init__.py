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

from .clustering import find_links, find_tag_clusters
from .keys import (
    LEGAL_FORMS,
    fingerprint_key,
    fold,
    legal_fingerprint_key,
    ngram_fingerprint,
    separator_key,
    tokens_of,
)
from .model import (
    DEFAULT_THRESHOLDS,
    HIGH,
    LOW,
    MEDIUM,
    METHODS,
    Confidence,
    DupeCluster,
    DupeMember,
    DupeThresholds,
    TagEvidence,
    TagStats,
)

__all__ = [
    "DEFAULT_THRESHOLDS",
    "HIGH",
    "LEGAL_FORMS",
    "LOW",
    "MEDIUM",
    "METHODS",
    "Confidence",
    "DupeCluster",
    "DupeMember",
    "DupeThresholds",
    "TagEvidence",
    "TagStats",
    "find_links",
    "find_tag_clusters",
    "fingerprint_key",
    "fold",
    "legal_fingerprint_key",
    "ngram_fingerprint",
    "separator_key",
    "tokens_of",
]
