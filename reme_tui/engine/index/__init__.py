"""The index: the loader that reads many files, BM25 postings (keyword), embeddings
(vectors, semantic), and the saved index for warm starts (store, saved_index)."""

from .collector import collector_paused, freeze_after_builds
from .keyword import KeywordIndex
from .link_graph import Edge, LinkGraph
from .loader import Reread, load_all, reread_one, start_pool_helpers, worker_setting_problem
from .semantic import STATE_KEY, Semantic, SemanticStatus, SimilarMemory, try_load_model
from .store import IndexStore, Snapshot, StoreInvalid, code_fingerprint, now_ns
from .store_choice import saved_index
from .vectors import Embedder, EmbeddingCache, VectorIndex, load_model

__all__ = [
    "STATE_KEY",
    "Edge",
    "Embedder",
    "EmbeddingCache",
    "IndexStore",
    "KeywordIndex",
    "LinkGraph",
    "Reread",
    "Semantic",
    "SemanticStatus",
    "SimilarMemory",
    "Snapshot",
    "StoreInvalid",
    "VectorIndex",
    "code_fingerprint",
    "collector_paused",
    "freeze_after_builds",
    "load_all",
    "load_model",
    "now_ns",
    "reread_one",
    "saved_index",
    "start_pool_helpers",
    "try_load_model",
    "worker_setting_problem",
]
