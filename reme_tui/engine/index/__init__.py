"""The index: every index derived from the files, kept together (``state``), what a change
means for it (``updates``: the planner), building it cold or warm (``build``), the loader
that reads many files on many cores (``loader``), BM25 postings (``keyword``), the link
graph (``link_graph``), embeddings (``vectors``, ``semantic``), and the saved index for
warm starts (``store``, ``store_choice``, ``pending``: read in the background), and the
C allocator's settings for a process that keeps an index for hours (``allocator``)."""

from .allocator import give_back, tune_allocator
from .build import ProgressCallback, build_cold, build_warm, commit, in_slices
from .collector import BurstWindow, collector_paused, freeze_after_builds, paused_for
from .keyword import ChunkScore, KeywordIndex, TermScore
from .link_graph import Edge, LinkGraph
from .loader import (
    Reread,
    fork_pool_for_threads,
    load_all,
    reread_one,
    start_pool_helpers,
    worker_setting_problem,
)
from .pending import PendingLoad
from .semantic import STATE_KEY, Semantic, SemanticStatus, SimilarMemory, try_load_model
from .standby import drop_standby_pool
from .state import IndexState, Update
from .store import IndexStore, Snapshot, StoreInvalid, code_fingerprint, now_ns
from .store_choice import saved_index
from .updates import Planner, Scope, dir_identity
from .vectors import Embedder, EmbeddingCache, VectorIndex, load_model

__all__ = [
    "STATE_KEY",
    "BurstWindow",
    "ChunkScore",
    "Edge",
    "Embedder",
    "EmbeddingCache",
    "IndexState",
    "IndexStore",
    "KeywordIndex",
    "LinkGraph",
    "PendingLoad",
    "Planner",
    "ProgressCallback",
    "Reread",
    "Scope",
    "Semantic",
    "SemanticStatus",
    "SimilarMemory",
    "Snapshot",
    "StoreInvalid",
    "TermScore",
    "Update",
    "VectorIndex",
    "build_cold",
    "build_warm",
    "code_fingerprint",
    "collector_paused",
    "commit",
    "dir_identity",
    "drop_standby_pool",
    "fork_pool_for_threads",
    "freeze_after_builds",
    "give_back",
    "in_slices",
    "load_all",
    "load_model",
    "now_ns",
    "paused_for",
    "reread_one",
    "saved_index",
    "start_pool_helpers",
    "try_load_model",
    "tune_allocator",
    "worker_setting_problem",
]
