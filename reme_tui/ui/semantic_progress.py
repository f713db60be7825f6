"""Semantic search in the app: load the model in a worker, report the embedding job.

The engine embeds chunks in its own thread; this module turns its progress into
`SemanticChanged` messages (coalesced) and its state into short labels for the search bar
and the status bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from reme_tui.engine import Engine
from reme_tui.engine.index import SemanticStatus


@dataclass
class SemanticChanged(Message):
    """The model loaded or failed, or the embedding job advanced. Only the latest matters,
    except a failure, which must be shown."""

    status: SemanticStatus
    loaded: bool = False

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SemanticChanged) and not message.loaded


def start_semantic(
    engine: Engine, model: str, allow_download: bool, post: Callable[[Message], Any]
) -> None:
    """Load `model` (blocking: call from a worker thread) and follow its embedding job."""
    if not model.strip():
        return

    def progress(_done: int, _total: int) -> None:
        post(SemanticChanged(engine.semantic_status()))

    engine.add_embedding_listener(progress)
    engine.load_model(model, allow_download=allow_download)
    post(SemanticChanged(engine.semantic_status(), loaded=True))


def mode_label(status: SemanticStatus, *, vector_error: str | None = None) -> tuple[str, str]:
    """(search bar label, tooltip) for how search ranks right now; ``vector_error`` is why
    the model failed on the last query (that search fell back to keywords)."""
    if vector_error is not None and status.state != "off":
        return "BM25 only", f"the vector search failed for this query: {vector_error}"
    if status.state == "off":
        return "BM25", "keyword search (BM25); set a model for hybrid search"
    if status.state == "failed":
        return "BM25 only", f"semantic search is off: {status.error}"
    if status.state == "embedding":
        return (
            f"hybrid {status.percent}%",
            f"BM25 + {status.model}: {status.done}/{status.total} chunks embedded; "
            "the vector ranking covers only those",
        )
    return "hybrid", f"BM25 + vectors from {status.model}, fused by reciprocal rank"


def status_label(status: SemanticStatus) -> str:
    """The status bar's short word on semantic search ('' when no model is configured)."""
    if status.state == "failed":
        return "⚠ no model"
    if status.state == "embedding":
        return f"embedding {status.percent}%"
    if status.state == "ready":
        return "vectors ✓"
    return ""
