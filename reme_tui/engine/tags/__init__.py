"""Tags: ReMe's normalization and the two-way tag index, near-duplicate detection (dupes,
hygiene), agent junk-tag lints, and the checks the tag editor shows before saving."""

from typing import TYPE_CHECKING

from ..lazy_face import lazy_getattr
from .checks import TagWarning, warnings_for
from .index import Order, OrderBy, TagIndex
from .lints import LINT_CODES, TagFix, lint_tags
from .lookalike import how_it_deceives, look_key, lookalike_of, looks_alike
from .normalize import (
    DEFAULT_TAG_FIELD,
    MAX_TAG_LENGTH,
    MAX_TAGS_PER_FILE,
    TagError,
    TagItem,
    TagVerdict,
    judge_tag,
    normalize_query_tags,
    normalize_tag,
    walk_tag_items,
)

__all__ = [
    "DEFAULT_TAG_FIELD",
    "LINT_CODES",
    "MAX_TAGS_PER_FILE",
    "MAX_TAG_LENGTH",
    "DismissedPairs",
    "DupeCluster",
    "Order",
    "OrderBy",
    "Suggestion",
    "SuggestionCache",
    "SuggestionReport",
    "TagError",
    "TagFix",
    "TagIndex",
    "TagItem",
    "TagVerdict",
    "TagWarning",
    "detect_duplicates",
    "engine_embed",
    "fingerprint_key",
    "how_it_deceives",
    "judge_tag",
    "lint_tags",
    "look_key",
    "lookalike_of",
    "looks_alike",
    "normalize_query_tags",
    "normalize_tag",
    "separator_key",
    "walk_tag_items",
    "warnings_for",
]

# Near-duplicate detection (numpy, rapidfuzz) loads when first asked for.
_WHERE = {
    "DupeCluster": "dupes",
    "DismissedPairs": "hygiene",
    "detect_duplicates": "hygiene",
    "engine_embed": "hygiene",
    "Suggestion": "suggest",
    "SuggestionCache": "suggest",
    "SuggestionReport": "suggest",
    "fingerprint_key": "dupes",
    "separator_key": "dupes",
}
__getattr__ = lazy_getattr(__name__, _WHERE, globals())

if TYPE_CHECKING:
    from .dupes import DupeCluster, fingerprint_key, separator_key
    from .hygiene import DismissedPairs, detect_duplicates, engine_embed
    from .suggest import Suggestion, SuggestionCache, SuggestionReport
