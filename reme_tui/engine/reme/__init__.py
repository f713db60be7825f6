"""What is specific to ReMe: its layout and config (.reme discovery), compatibility
checks, day-index pages, provenance links and session transcripts."""

from .checks import RemeChecks
from .compat import SHORT_LABELS, compat_counts, compat_report, format_counts
from .day_index import StaleEntry
from .layout import DEFAULT_LAYOUT, RemeConfigError, RemeLayout, WorkspaceChoice, choose_workspace
from .provenance import IMAGE_SUFFIXES, Source, SourceChecker
from .transcript import Transcript, Turn, parse_transcript

__all__ = [
    "DEFAULT_LAYOUT",
    "IMAGE_SUFFIXES",
    "SHORT_LABELS",
    "RemeChecks",
    "RemeConfigError",
    "RemeLayout",
    "Source",
    "SourceChecker",
    "StaleEntry",
    "Transcript",
    "Turn",
    "WorkspaceChoice",
    "choose_workspace",
    "compat_counts",
    "compat_report",
    "format_counts",
    "parse_transcript",
]
