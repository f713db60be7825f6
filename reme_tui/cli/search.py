"""`search` (old: --query): one search like ReMe's, or (--follow) the same search again on
every change; `explain` (old: --explain): why one memory is or is not among its results."""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys
import threading
import time
from typing import Any

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, UsageError, error, warn
from reme_tui.cli.output import (
    format_explanation,
    format_response,
    mention_diagnostics,
    print_json,
    print_json_lines,
    styled,
    write_paths,
    write_styled,
)
from reme_tui.engine import Engine
from reme_tui.engine.search import (
    ArgumentNames,
    Filters,
    SearchError,
    SearchQuery,
    SearchResponse,
    checked_filters,
)

DEFAULT_LIMIT = 5


# How the flags are spelled in the refusals of the one filter check (engine/search).
FLAG_NAMES = ArgumentNames(
    tags="--tag",
    all_tags="--all-tags",
    exclude_tags="--exclude-tag",
    since="--since",
    until="--until",
    meta="--meta",
)


def filters_from(args: argparse.Namespace) -> Filters:
    """The search filters the flags ask for; UsageError for a bad date, tag list or --meta."""
    try:
        return checked_filters(
            tags=args.tag or (),
            all_tags=args.all_tags,
            exclude_tags=args.exclude_tag or (),
            since=args.since,
            until=args.until,
            strict_dates=args.strict_dates,
            paths=args.path or (),
            path_prefixes=args.path_prefix or (),
            meta=args.meta or (),
            names=FLAG_NAMES,
        )
    except SearchError as exc:
        raise UsageError(str(exc)) from None


def _query_from(args: argparse.Namespace) -> tuple[Engine, SearchQuery]:
    """The search the flags ask for (checked before the workspace is opened), and the
    engine opened with the model the flags name."""
    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    min_score = 0.0 if args.min_score is None else args.min_score
    if not args.query.strip():
        raise UsageError("query cannot be empty: give some text to search for")
    if limit <= 0:
        raise UsageError(f"--limit must be a positive number, got {limit}")
    if not math.isfinite(min_score) or min_score < 0:
        raise UsageError(f"--min-score must be a number >= 0, got {min_score}")
    filters = filters_from(args)
    weight = opening.search_weight(args)
    engine = opening.open_engine(args)
    opening.attach_model(engine, args)
    opening.wait_for_embeddings(engine)
    query = SearchQuery(
        text=args.query,
        filters=filters,
        limit=limit,
        min_score=min_score,
        vector_weight=weight,
    )
    return engine, query


FORMATS = {"json": "--json", "jsonl": "--jsonl", "paths": "--paths", "null": "-0"}


def one_format(args: argparse.Namespace) -> str | None:
    """The output format flag given (``--json``, ``--jsonl``, ...), if any; UsageError when
    more than one is."""
    chosen = [flag for dest, flag in FORMATS.items() if getattr(args, dest, False)]
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(chosen)} cannot be combined: choose one output")
    return chosen[0] if chosen else None


def run_query(args: argparse.Namespace) -> int:
    chosen = one_format(args)
    if args.follow and chosen not in (None, "--json"):
        raise UsageError(f"{chosen} prints the results once: not with --follow")
    engine, query = _query_from(args)
    response = _search_or_usage_error(engine, query)
    for warning in response.warnings:
        warn(warning)
    if args.follow:
        return _follow(engine, query, response, args)
    if args.paths or args.null:
        write_paths(dict.fromkeys(hit.path for hit in response.hits), nul=args.null)
    elif args.json:
        print_json(response.to_json())
    elif args.jsonl:
        print_json_lines(hit_lines(response))
    else:
        write_styled(format_response(response))
    mention_diagnostics(engine)
    return EXIT_OK


def hit_lines(response: SearchResponse) -> list[dict[str, Any]]:
    """``search --jsonl``: one object per result, best first: its rank, the result as in
    ``--json``'s ``results``, and its memory's link neighbours (null when it has none)."""
    lines = []
    for rank, hit in enumerate(response.hits, 1):
        neighbours = response.links.get(hit.path)
        links = neighbours.to_json() if neighbours is not None else None
        lines.append({"rank": rank, **hit.to_json(), "links": links})
    return lines


def run_explain(args: argparse.Namespace) -> int:
    """--explain PATH --query TEXT: the search's stages for that one memory. A path that is
    no memory is explained (exit 0); one that does not exist exits 1."""
    if args.query is None:
        raise UsageError("--explain needs --query TEXT: the search to explain")
    engine, query = _query_from(args)
    try:
        explanation = engine.explain(args.explain, query)
    except SearchError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json(explanation.to_json())
    else:
        write_styled(format_explanation(explanation))
    if not explanation.exists:
        error(f"{args.explain}: no such file")
        return EXIT_RUNTIME
    return EXIT_OK


def _search_or_usage_error(engine: Engine, query: SearchQuery) -> SearchResponse:
    try:
        return engine.search(query)
    except SearchError as exc:
        raise UsageError(str(exc)) from None


def _follow(
    engine: Engine, query: SearchQuery, response: SearchResponse, args: argparse.Namespace
) -> int:
    """Print the results, then again each time a change to the files changes them."""
    from reme_tui.engine.files import root_is_gone, watch_batches

    def emit(current: SearchResponse) -> None:
        if args.json:
            print_json(current.to_json(), indent=None)
        else:
            stamp = time.strftime("%H:%M:%S")
            write_styled(styled((f"--- results at {stamp} ---", "dim"), "\n"))
            write_styled(format_response(current))
        sys.stdout.flush()

    # In place before the first results show: a Ctrl-C as soon as they are seen stops
    # following (exit 0), never a KeyboardInterrupt between printing and watching.
    stop = threading.Event()
    previous = _stop_on_signals(stop)
    applied = False  # the saved index is behind: saved when following stops
    try:
        emit(response)
        last = response.to_json()
        logging.getLogger("watchfiles").setLevel(logging.ERROR)
        for batch in watch_batches(
            engine.root,
            stop_event=stop,
            all_markdown=engine.config.all_markdown,
            also=engine.is_link_target,
            roots=engine.config.memory_roots,
            rescan_when_armed=True,
        ):
            delta = engine.apply(batch)
            if delta.workspace_missing or root_is_gone(engine.root):
                error(f"workspace {engine.root} was deleted or moved; stopping")
                return EXIT_RUNTIME
            if delta.is_empty:
                continue
            applied = True
            engine.wait_for_embeddings(timeout=30)
            current = _search_or_usage_error(engine, query)
            document = current.to_json()
            if document != last:
                last = document
                emit(current)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        raise  # the reader went away (`| head`): the entry's quiet exit, not a watch failure
    except (OSError, RuntimeError) as exc:
        if root_is_gone(engine.root):
            error(f"workspace {engine.root} was deleted or moved; stopping")
        else:
            error(f"watching {engine.root} failed: {exc}")
        return EXIT_RUNTIME
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        saved = not applied or root_is_gone(engine.root) or engine.save()
        if not saved and engine.save_error is not None:
            error(engine.save_error)
    return EXIT_OK


def _stop_on_signals(stop: threading.Event) -> dict[int, Any]:
    """Ctrl-C and SIGTERM ask --follow to stop between two updates (and save what it
    followed) instead of raising wherever they land: a KeyboardInterrupt inside an update
    could leave a lock held and the final save waiting on it. A second one interrupts at
    once. A SIGTERM the parent set to be ignored stays ignored. Returns the handlers replaced."""

    def stop_following(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(signum) != signal.SIG_IGN:
            previous[signum] = signal.signal(signum, stop_following)
    return previous
