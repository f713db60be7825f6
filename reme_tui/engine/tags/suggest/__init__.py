"""Tag suggestions: existing workspace tags for a memory, ranked with their evidence
(its names, its links, the memories like it), and how well they recover hidden tags."""

from .quality import SuggestionQuality, evaluate, folds_of
from .suggester import (
    WEIGHTS,
    Evidence,
    Suggestion,
    SuggestionCache,
    SuggestionReport,
    TagSuggester,
)

__all__ = [
    "WEIGHTS",
    "Evidence",
    "Suggestion",
    "SuggestionCache",
    "SuggestionQuality",
    "SuggestionReport",
    "TagSuggester",
    "evaluate",
    "folds_of",
]
