"""Opening the index for a headless mode: the saved index, progress on stderr, a model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reme_tui.cli.common import UsageError, info
from reme_tui.cli.progress import Progress, delay_from_env
from reme_tui.cli.user_config import settings_for
from reme_tui.config import HistorySettings
from reme_tui.engine import Engine, EngineConfig
from reme_tui.engine.index import saved_index


def engine_config(args: argparse.Namespace) -> EngineConfig:
    """Which files are memories and where their tags are: the flags, the ReMe layout, and
    the settings file's [index] tag_field."""
    tag_field = settings_for(args).index.tag_field
    return EngineConfig(tag_field=tag_field, all_markdown=args.all_markdown, layout=args.layout)


def open_engine(args: argparse.Namespace, *, record: bool = True) -> Engine:
    """Open and index the workspace, with progress on stderr after one second (a bar on a
    terminal, a line every few seconds elsewhere: ``progress.py``); then
    (``record``) note in the change history what changed since anything last looked."""
    engine = Engine.create(Path(args.workspace), engine_config(args))
    engine.chosen_because = args.chosen_because
    engine.attach_store(
        saved_index(
            engine.root,
            all_markdown=args.all_markdown,
            enabled=not args.no_cache,
            rebuild=args.rebuild,
        )
    )
    progress = Progress(sys.stderr, delay=delay_from_env())
    engine.build(progress=progress.update, notice=info)
    progress.finish()
    if record:
        record_changes(engine, settings_for(args).history)
    return engine


def record_edit(
    engine: Engine, rel: str, tags: tuple[str, ...], label: str, settings: HistorySettings
) -> str | None:
    """Record one file the command line just rewrote as an "edit" (without building the
    index); the reason when the history could not record it (a full data dir, a lock),
    None when recorded or when there is nothing to record into (disabled, no baseline yet:
    the next look takes the file in)."""
    from reme_tui.engine.history import ChangeHistory, HistoryError, Observed

    if not settings.enabled:
        return None
    try:
        data = (engine.root / rel).read_bytes()
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        history = ChangeHistory.for_workspace(engine.root, retention_days=settings.retention_days)
    except HistoryError as exc:
        return str(exc)
    try:
        if history.has_baseline:
            history.record([Observed(rel, data, tags)], source="edit", label=label)
    except HistoryError as exc:
        return str(exc)
    finally:
        history.close()
    return None


def record_changes(engine: Engine, settings: HistorySettings) -> None:
    """Record what changed since the history last looked, as the app does when it opens:
    every mode that opens a workspace looks, so an edit between two ``--query`` runs is its
    own change, not folded into a later diff. Only files whose content hash moved are read.
    A disabled (``[history] enabled = false``) or broken history never fails the mode."""
    from reme_tui.engine.history import ChangeHistory, HistoryError

    if not settings.enabled:
        return
    try:
        history = ChangeHistory.for_workspace(engine.root, retention_days=settings.retention_days)
    except HistoryError as exc:
        info(f"notice: changes not recorded: {exc}")
        return
    try:
        engine.attach_history(history)
        engine.sync_history("start")
    except HistoryError as exc:
        info(f"notice: changes not recorded: {exc}")
    finally:
        engine.attach_history(None)
        history.close()


def model_choice(args: argparse.Namespace) -> tuple[str, bool]:
    """The model to load and whether it may download: --model and --allow-download, else
    the settings file's [index] model and allow_download ("" = none)."""
    index = settings_for(args).index
    if args.model:
        return args.model, bool(args.allow_download or index.allow_download)
    return index.model, bool(args.allow_download or index.allow_download)


def attach_model(engine: Engine, args: argparse.Namespace) -> None:
    """Load the model (--model, else [index] model); on failure one notice on stderr and
    the search stays BM25-only."""
    model, allow_download = model_choice(args)
    if not model:
        return
    error = engine.load_model(model, allow_download=allow_download)
    if error is not None:
        info(f"notice: {error}; searching with BM25 only")


def wait_for_embeddings(engine: Engine) -> None:
    """Block until every chunk is embedded, with progress on stderr after one second."""
    if engine.embedder is None:
        return
    progress = Progress(sys.stderr, label="embedding", unit="chunks", delay=delay_from_env())
    engine.add_embedding_listener(progress.update)
    try:
        engine.wait_for_embeddings()
    finally:
        engine.remove_embedding_listener(progress.update)
        progress.finish()
    error = engine.semantic_status().error
    if error is not None:
        info(f"notice: {error}; searching with BM25 only")


def search_weight(args: argparse.Namespace) -> float:
    """The fusion weight for a command: --vector-weight, else [search] vector_weight."""
    weight = vector_weight(args)
    return settings_for(args).search.vector_weight if weight is None else weight


def vector_weight(args: argparse.Namespace) -> float | None:
    weight: float | None = args.vector_weight
    if weight is not None and not 0.0 <= weight <= 1.0:
        raise UsageError(f"--vector-weight must be between 0 and 1, got {weight}")
    return weight
