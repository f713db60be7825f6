"""What the app sets up before it imports Textual: its settings, its engine, the forked
loader pool, and the saved index's load, started in a thread so that reading and
decoding it overlap the UI's imports and first paint (issue 19: a warm start).

Nothing here imports Textual or a screen (tests/ui/test_startup.py checks): the point is
to run before them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from msgspec import structs

from reme_tui.config import Settings, load_settings
from reme_tui.engine import Engine, EngineConfig
from reme_tui.engine.index import (
    fork_pool_for_threads,
    saved_index,
    start_pool_helpers,
    tune_allocator,
)
from reme_tui.ui.options import AppOptions


@dataclass(frozen=True, slots=True)
class EarlyStart:
    """The settings (with the command line's overrides) and the engine of one run, its
    saved index already being read."""

    settings: Settings
    engine: Engine


def start_early(
    workspace: Path, options: AppOptions | None = None, config_path: Path | None = None
) -> EarlyStart:
    """Settings, engine and loader pool for the app, and the saved index's load started.

    Call it from the main thread while the process has no other: the loader pool is
    forked first (a threaded process must not fork), then the load's thread starts.
    Raises WorkspaceError when the workspace cannot be opened."""
    tune_allocator()  # before the index's first big allocation
    options = options or AppOptions()
    settings = with_overrides(load_settings(config_path), options)
    engine = app_engine(workspace, settings, options)
    # Before any thread starts: a build in a thread parses in these forked workers.
    fork_pool_for_threads()
    start_pool_helpers()  # while sys.stderr is still a real file (the app captures it)
    engine.preload()
    return EarlyStart(settings, engine)


def app_engine(workspace: Path, settings: Settings, options: AppOptions) -> Engine:
    """The engine the app uses for ``workspace``: its config from the settings and the
    command line, its saved index attached (not yet read)."""
    engine_config = EngineConfig(
        tag_field=settings.index.tag_field, all_markdown=options.all_markdown
    )
    if options.layout is not None:
        engine_config = replace(engine_config, layout=options.layout)
    engine = Engine.create(workspace, engine_config)
    engine.chosen_because = options.chosen_because
    engine.attach_store(
        saved_index(
            engine.root,
            all_markdown=options.all_markdown,
            enabled=options.use_saved_index,
            rebuild=options.rebuild,
        )
    )
    return engine


def with_overrides(settings: Settings, options: AppOptions) -> Settings:
    """`settings` with the semantic-search values given on the command line."""
    index, search = settings.index, settings.search
    if options.model is not None:
        index = structs.replace(index, model=options.model)
    if options.allow_download is not None:
        index = structs.replace(index, allow_download=options.allow_download)
    if options.vector_weight is not None:
        search = structs.replace(search, vector_weight=options.vector_weight)
    return replace(settings, index=index, search=search)
