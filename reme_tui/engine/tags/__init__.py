"""Tags: ReMe's normalization and the two-way tag index, near-duplicate detection (dupes,
hygiene), agent junk-tag lints, and the checks the tag editor shows before saving."""

from .checks import TagWarning, warnings_for
from .dupes import DupeCluster
from .hygiene import DismissedPairs, detect_duplicates, engine_embed
from .index import Order, OrderBy, TagIndex
from .lints import LINT_CODES, TagFix, lint_tags
from .normalize import (
    DEFAULT_TAG_FIELD,
    MAX_TAG_LENGTH,
    MAX_TAGS_PER_FILE,
    TagError,
    TagVerdict,
    judge_tag,
    normalize_query_tags,
    normalize_tag,
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
    "TagError",
    "TagFix",
    "TagIndex",
    "TagVerdict",
    "TagWarning",
    "detect_duplicates",
    "engine_embed",
    "judge_tag",
    "lint_tags",
    "normalize_query_tags",
    "normalize_tag",
    "warnings_for",
]
