"""The change history of a workspace's memories: the SQLite store (``database``), what it
records (``entries``), what the engine tells it (``recorder``), changes seen together
(``timeline``: bursts, tag churn), what one change did (``diff``), and the history as a
report for scripts (``report``)."""

from .database import DEFAULT_RETENTION_DAYS, ChangeHistory
from .diff import ChangeDiff, diff_entry
from .entries import (
    KINDS,
    SOURCES,
    ChangeEntry,
    ChangeFilter,
    HistoryError,
    HistoryStats,
    Observed,
    RecordResult,
    content_key,
)
from .recorder import Recorder
from .report import ReportArgumentError, report_json, report_text, select, until_bound, version_ref
from .timeline import BURST_GAP_NS, Burst, bursts, tag_churn

__all__ = [
    "BURST_GAP_NS",
    "DEFAULT_RETENTION_DAYS",
    "KINDS",
    "SOURCES",
    "Burst",
    "ChangeDiff",
    "ChangeEntry",
    "ChangeFilter",
    "ChangeHistory",
    "HistoryError",
    "HistoryStats",
    "Observed",
    "RecordResult",
    "Recorder",
    "ReportArgumentError",
    "bursts",
    "content_key",
    "diff_entry",
    "report_json",
    "report_text",
    "select",
    "tag_churn",
    "until_bound",
    "version_ref",
]
