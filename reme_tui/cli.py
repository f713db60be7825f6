"""Command line: the app by default; headless modes print and exit without importing the UI.

Exit codes: 0 success (also with zero results), 1 runtime errors (missing or unreadable
workspace, I/O failures), 2 usage errors (bad flags, invalid dates, tags that normalize
to nothing).
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import __version__, cli_changes, cli_reme
from .engine.core import Engine, EngineConfig, WorkspaceError
from .engine.dates import DateError, parse_date
from .engine.filters import Filters
from .engine.search import (
    DEFAULT_VECTOR_WEIGHT,
    SearchError,
    SearchQuery,
    SearchResponse,
)
from .engine.store import IndexStore
from .engine.tags import TagError, normalize_query_tags
from .safe_text import for_json, for_terminal, for_terminal_line

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input from the command line: reported with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reme-tui",
        description=(
            "Look inside a ReMe agent's long-term memory. Without a mode flag, opens the "
            "terminal app on WORKSPACE; with a headless mode (below), prints and exits."
        ),
        epilog=(
            "exit codes: 0 success (also zero results), 1 runtime error (missing or "
            "unreadable workspace), 2 usage error"
        ),
    )
    parser.add_argument(
        "workspace",
        nargs="?",
        default=None,
        help="ReMe workspace directory (default: ./.reme, else the nearest .reme/ in a "
        "parent folder, else the current folder)",
    )
    parser.add_argument("--version", action="version", version=f"reme-tui {__version__}")

    modes = parser.add_argument_group("headless modes (print and exit)")
    exclusive = modes.add_mutually_exclusive_group()
    exclusive.add_argument("--query", metavar="TEXT", help="search like ReMe's memory search")
    exclusive.add_argument("--list-tags", action="store_true", help="list tags with file counts")
    exclusive.add_argument(
        "--diagnostics", action="store_true", help="list what ReMe silently drops or cannot read"
    )
    exclusive.add_argument(
        "--add-tag",
        nargs=2,
        metavar=("PATH", "TAG"),
        help="add TAG to the memory at PATH (no-op if an equal tag is there)",
    )
    exclusive.add_argument(
        "--remove-tag",
        nargs=2,
        metavar=("PATH", "TAG"),
        help="remove every tag equal to TAG (after normalization) from PATH",
    )
    exclusive.add_argument(
        "--set-tags",
        nargs="+",
        metavar="ARG",
        help="PATH, then the TAGs that replace its tag list",
    )
    cli_changes.add_modes(exclusive)

    search = parser.add_argument_group("search filters (with --query)")
    search.add_argument(
        "--tag", action="append", default=[], metavar="T", help="only memories with this tag"
    )
    search.add_argument(
        "--all-tags", action="store_true", help="require ALL --tag values (default: ANY)"
    )
    search.add_argument(
        "--exclude-tag", action="append", default=[], metavar="T", help="drop memories with T"
    )
    search.add_argument("--since", metavar="YYYY-MM-DD", help="inclusive start date")
    search.add_argument("--until", metavar="YYYY-MM-DD", help="inclusive end date")
    search.add_argument(
        "--strict-dates", action="store_true", help="with a date range, drop undated memories"
    )
    search.add_argument("--limit", type=int, default=5, metavar="N", help="results (default 5)")
    search.add_argument(
        "--min-score", type=float, default=0.0, metavar="X", help="drop lower scores (0 = off)"
    )
    search.add_argument(
        "--follow",
        action="store_true",
        help="keep running and print the results again each time they change (Ctrl-C stops)",
    )

    semantic = parser.add_argument_group(
        "semantic search (with --query or the app; a model2vec model, see README)"
    )
    semantic.add_argument(
        "--model",
        metavar="NAME_OR_PATH",
        help="model2vec model directory, or a model id from the local Hugging Face cache",
    )
    semantic.add_argument(
        "--allow-download",
        action="store_true",
        help="let --model download a model id missing from the local cache",
    )
    semantic.add_argument(
        "--vector-weight",
        type=float,
        default=None,
        metavar="W",
        help="weight of the vector ranking in the fusion, 0..1 (default 0.7)",
    )

    listing = parser.add_argument_group("tag listing (with --list-tags)")
    listing.add_argument("--order-by", choices=("file_count", "tag"), default="file_count")
    listing.add_argument(
        "--order",
        choices=("asc", "desc"),
        default=None,
        help="default: desc for file_count, asc for tag",
    )

    output = parser.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print exactly one JSON document")
    output.add_argument(
        "--all-markdown",
        action="store_true",
        help="treat every .md under the workspace as a memory (default: daily/ and digest/)",
    )

    cache = parser.add_argument_group("saved index")
    cache.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the saved index"
    )
    cache.add_argument(
        "--rebuild", action="store_true", help="discard the saved index and build it again"
    )

    _add_hygiene_flags(parser)
    cli_reme.add_flags(parser)
    cli_changes.add_flags(parser)

    app = parser.add_argument_group("the app")
    app.add_argument("--theme", help="theme name (built-in or from your theme directory)")
    app.add_argument("--config", type=Path, metavar="FILE", help="settings file to use")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _choose_workspace(args)
        return _dispatch(parser, args)
    except UsageError as exc:
        _error(f"{exc}")
        return EXIT_USAGE
    except WorkspaceError as exc:
        _error(str(exc))
        return EXIT_RUNTIME
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output closed early (e.g. piped into `head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _choose_workspace(args: argparse.Namespace) -> None:
    """Replace WORKSPACE by the chosen folder (discovery, --reme-config) and keep the layout."""
    headless = bool(
        args.query is not None
        or args.list_tags
        or args.diagnostics
        or args.json
        or args.add_tag
        or args.remove_tag
        or args.set_tags
        or _hygiene_mode(args)
        or cli_changes.mode(args)
    )
    try:
        choice = cli_reme.resolve(args, headless=headless)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    args.workspace = str(choice.root)
    args.layout = choice.layout
    args.chosen_because = choice.reason


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    cli_changes.check_flags(args, UsageError)
    if cli_changes.mode(args) is not None:
        if _hygiene_mode(args) is not None:
            raise UsageError(f"--{cli_changes.mode(args)} cannot be combined with other modes")
        return cli_changes.run(open_engine(args), args, UsageError)
    if _hygiene_mode(args) is not None:
        return _run_hygiene(parser, args)
    if args.query is not None:
        return _run_query(args)
    _reject_search_flags(parser, args)
    if args.list_tags:
        return _run_list_tags(args)
    if args.diagnostics:
        return _run_diagnostics(args)
    if args.add_tag or args.remove_tag or args.set_tags:
        return _run_tag_edit(args)
    if args.json:
        raise UsageError(
            "--json needs a headless mode: --query, --list-tags, --diagnostics or a tag edit"
        )
    from .ui.app import run_app

    return run_app(
        Path(args.workspace),
        layout=args.layout,
        chosen_because=args.chosen_because,
        theme=args.theme,
        config_path=args.config,
        model=args.model,
        allow_download=True if args.allow_download else None,
        vector_weight=_vector_weight(args),
    )


def _reject_search_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    defaults = {
        "tag": [],
        "all_tags": False,
        "exclude_tag": [],
        "since": None,
        "until": None,
        "strict_dates": False,
        "limit": 5,
        "min_score": 0.0,
        "follow": False,
        "allow_download": False,
        "path": [],
        "path_prefix": [],
        "meta": [],
    }
    if args.list_tags or args.diagnostics:
        defaults.update(model=None, vector_weight=None)
    used = [name for name, default in defaults.items() if getattr(args, name) != default]
    if used:
        flags = ", ".join("--" + name.replace("_", "-") for name in used)
        raise UsageError(f"{flags} only apply with --query")


# -- opening ----------------------------------------------------------------


def open_engine(args: argparse.Namespace) -> Engine:
    """Open and index the workspace, with a progress bar on a TTY after one second."""
    config = EngineConfig(all_markdown=args.all_markdown, layout=args.layout)
    engine = Engine.create(Path(args.workspace), config)
    engine.chosen_because = args.chosen_because
    engine.attach_store(open_store(engine.root, args))
    progress = _ProgressBar(sys.stderr)
    engine.build(progress=progress.update, notice=_info)
    progress.finish()
    return engine


def open_store(root: Path, args: argparse.Namespace) -> IndexStore | None:
    """The saved index for this workspace, honouring --no-cache and --rebuild."""
    if args.no_cache:
        return None
    store = IndexStore(root)
    if args.rebuild:
        store.discard()
    return store


def attach_model(engine: Engine, args: argparse.Namespace) -> None:
    """Load --model; on failure one notice on stderr and the search stays BM25-only."""
    if not args.model:
        return
    error = engine.load_model(args.model, allow_download=args.allow_download)
    if error is not None:
        _info(f"notice: {error}; searching with BM25 only")


def wait_for_embeddings(engine: Engine) -> None:
    """Block until every chunk is embedded, with a progress bar on a TTY after one second."""
    if engine.embedder is None:
        return
    progress = _ProgressBar(sys.stderr, label="embedding", unit="chunks")
    engine.add_embedding_listener(progress.update)
    try:
        engine.wait_for_embeddings()
    finally:
        engine.remove_embedding_listener(progress.update)
        progress.finish()
    error = engine.semantic_status().error
    if error is not None:
        _info(f"notice: {error}; searching with BM25 only")


def _vector_weight(args: argparse.Namespace) -> float | None:
    weight = args.vector_weight
    if weight is not None and not 0.0 <= weight <= 1.0:
        raise UsageError(f"--vector-weight must be between 0 and 1, got {weight}")
    return weight


class _ProgressBar:
    """A one-line stderr progress bar shown only on a TTY and only after one second."""

    def __init__(
        self,
        stream: TextIO,
        delay: float = 1.0,
        *,
        label: str = "indexing",
        unit: str = "memories",
    ) -> None:
        self._label = label
        self._unit = unit
        self._stream = stream
        self._start = time.monotonic()
        self._delay = delay
        self._shown = False
        self._tty = stream.isatty()

    def update(self, done: int, total: int) -> None:
        if not self._tty or time.monotonic() - self._start < self._delay or total <= 0:
            return
        width = 30
        filled = int(width * done / total)
        bar = "█" * filled + "░" * (width - filled)
        self._stream.write(f"\r{self._label} {bar} {done}/{total} {self._unit}")
        self._stream.flush()
        self._shown = True

    def finish(self) -> None:
        if self._shown:
            self._stream.write("\r\033[K")
            self._stream.flush()


# -- modes ------------------------------------------------------------------


def _validated_date(raw: str | None, flag: str) -> str | None:
    if raw is None:
        return None
    try:
        return parse_date(raw)
    except DateError:
        raise UsageError(
            f"{flag} {raw!r} is not a valid date; use YYYY-MM-DD (e.g. 2026-03-01)"
        ) from None


def _filters(args: argparse.Namespace) -> Filters:
    """The search filters the flags ask for; UsageError for a bad date or tag list."""
    since = _validated_date(args.since, "--since")
    until = _validated_date(args.until, "--until")
    for flag, values in (("--tag", args.tag), ("--exclude-tag", args.exclude_tag)):
        try:
            normalize_query_tags(values)
        except TagError:
            shown = ", ".join(repr(v) for v in values)
            raise UsageError(f"{flag} {shown}: tags contained no valid values") from None
    if args.all_tags and not args.tag:
        raise UsageError("--all-tags needs at least one --tag")
    try:
        reme_fields = cli_reme.filter_fields(args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return Filters(
        tags=args.tag,
        all_tags=args.all_tags,
        exclude_tags=args.exclude_tag,
        since=since,
        until=until,
        strict_dates=args.strict_dates,
        **reme_fields,
    )


def _run_query(args: argparse.Namespace) -> int:
    if not args.query.strip():
        raise UsageError("query cannot be empty: --query needs some text to search for")
    if args.limit <= 0:
        raise UsageError(f"--limit must be a positive number, got {args.limit}")
    if not math.isfinite(args.min_score) or args.min_score < 0:
        raise UsageError(f"--min-score must be a number >= 0, got {args.min_score}")
    filters = _filters(args)
    weight = _vector_weight(args)
    engine = open_engine(args)
    attach_model(engine, args)
    wait_for_embeddings(engine)
    query = SearchQuery(
        text=args.query,
        filters=filters,
        limit=args.limit,
        min_score=args.min_score,
        vector_weight=DEFAULT_VECTOR_WEIGHT if weight is None else weight,
    )
    response = _search_or_usage_error(engine, query)
    for warning in response.warnings:
        _warn(warning)
    if args.follow:
        return _follow(engine, query, response, args)
    if args.json:
        _print_json(response.to_json())
    else:
        sys.stdout.write(format_response(response, color=_use_color(sys.stdout)))
    _mention_diagnostics(engine)
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
    from .engine.watch import root_is_gone, watch_batches

    color = _use_color(sys.stdout)

    def emit(current: SearchResponse) -> None:
        if args.json:
            _print_json(current.to_json(), indent=None)
        else:
            stamp = time.strftime("%H:%M:%S")
            sys.stdout.write(_paint(f"--- results at {stamp} ---", "2", color) + "\n")
            sys.stdout.write(format_response(current, color=color))
        sys.stdout.flush()

    emit(response)
    last = response.to_json()
    logging.getLogger("watchfiles").setLevel(logging.ERROR)
    try:
        for batch in watch_batches(
            engine.root,
            all_markdown=engine.config.all_markdown,
            also=engine.is_link_target,
            roots=engine.config.memory_roots,
        ):
            delta = engine.apply(batch)
            if delta.workspace_missing or root_is_gone(engine.root):
                _error(f"workspace {engine.root} was deleted or moved; stopping")
                return EXIT_RUNTIME
            if delta.is_empty:
                continue
            engine.wait_for_embeddings(timeout=30)
            current = _search_or_usage_error(engine, query)
            document = current.to_json()
            if document != last:
                last = document
                emit(current)
    except KeyboardInterrupt:
        pass
    except (OSError, RuntimeError) as exc:
        if root_is_gone(engine.root):
            _error(f"workspace {engine.root} was deleted or moved; stopping")
        else:
            _error(f"watching {engine.root} failed: {exc}")
        return EXIT_RUNTIME
    return EXIT_OK


def _run_list_tags(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    items = engine.list_tags(args.order_by, args.order)
    if args.json:
        _print_json({"total_tags": len(items), "items": [[tag, count] for tag, count in items]})
    else:
        width = max((len(str(count)) for _, count in items), default=1)
        for tag, count in items:
            _out(f"{count:>{width}}  {for_terminal_line(tag)}\n")
        _info(f"{len(items)} tags over {engine.memory_count} memories")
    _mention_diagnostics(engine)
    return EXIT_OK


def _run_diagnostics(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    found = engine.diagnostics()
    if args.json:
        _print_json({"total": len(found), "diagnostics": [d.to_json() for d in found]})
        return EXIT_OK
    color = _use_color(sys.stdout)
    for diag in found:
        where = f"{diag.path}:{diag.line}" if diag.line else diag.path
        severity = _paint(diag.severity, _SEVERITY_COLOR.get(diag.severity, ""), color)
        message = for_terminal_line(diag.message)
        sys.stdout.write(f"{for_terminal_line(where)}: {severity}: {message} [{diag.code}]\n")
    files = len({d.path for d in found})
    _info(f"{len(found)} problems in {files} files ({engine.memory_count} memories indexed)")
    return EXIT_OK


# -- tag hygiene (issue 6) ----------------------------------------------------


def _add_hygiene_flags(parser: argparse.ArgumentParser) -> None:
    hygiene = parser.add_argument_group(
        "tag hygiene (print and exit; --merge-tags writes files, journaled for undo)"
    )
    hygiene.add_argument(
        "--tag-dupes",
        action="store_true",
        help="list clusters of near-duplicate tags (with --model: tag-string embeddings too)",
    )
    hygiene.add_argument(
        "--merge-tags",
        nargs="+",
        metavar="TAG",
        help="rewrite every memory carrying any of these tags to carry --into instead",
    )
    hygiene.add_argument("--into", metavar="TAG", help="the tag --merge-tags merges into")
    hygiene.add_argument(
        "--dry-run",
        action="store_true",
        help="with --merge-tags or --fix-tags: print the diffs, write nothing",
    )
    cli_reme.add_fix_mode(hygiene)
    hygiene.add_argument(
        "--undo-merge",
        action="store_true",
        help="undo the newest merge with something left to undo (an interrupted one included)",
    )
    hygiene.add_argument(
        "--resume-merge", action="store_true", help="finish the newest interrupted merge"
    )
    hygiene.add_argument(
        "--compat-report",
        action="store_true",
        help="per file, what ReMe silently drops, with a fix where one is safe",
    )


def _hygiene_mode(args: argparse.Namespace) -> str | None:
    modes = [
        name
        for name, on in (
            ("--tag-dupes", args.tag_dupes),
            ("--merge-tags", args.merge_tags is not None),
            ("--compat-report", args.compat_report),
            ("--fix-tags", args.fix_tags),
            ("--undo-merge", args.undo_merge),
            ("--resume-merge", args.resume_merge),
        )
        if on
    ]
    if len(modes) > 1:
        raise UsageError(f"{' and '.join(modes)} cannot be combined")
    if not modes and (args.into is not None or (args.dry_run and args.revert is None)):
        raise UsageError(
            "--into and --dry-run only apply with --merge-tags, --fix-tags (or --revert)"
        )
    return modes[0] if modes else None


def _run_hygiene(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    mode = _hygiene_mode(args)
    others = [
        flag
        for flag, on in (
            ("--query", args.query is not None),
            ("--list-tags", args.list_tags),
            ("--diagnostics", args.diagnostics),
        )
        if on
    ]
    if others:
        raise UsageError(f"{mode} cannot be combined with {', '.join(others)}")
    if mode != "--merge-tags" and args.into is not None:
        raise UsageError("--into only applies with --merge-tags")
    if mode not in ("--merge-tags", "--fix-tags") and args.dry_run:
        raise UsageError("--dry-run only applies with --merge-tags or --fix-tags")
    if mode != "--tag-dupes" and (args.model or args.allow_download):
        raise UsageError(f"--model and --allow-download do not apply with {mode}")
    if args.vector_weight is not None:
        raise UsageError(f"--vector-weight does not apply with {mode}")
    checked = argparse.Namespace(**{**vars(args), "model": None, "allow_download": False})
    _reject_search_flags(parser, checked)
    if mode == "--tag-dupes":
        return _run_tag_dupes(args)
    if mode == "--merge-tags":
        return _run_merge_tags(args)
    if mode == "--fix-tags":
        return cli_reme.run_fix_tags(open_engine(args), dry_run=args.dry_run, as_json=args.json)
    if mode in ("--undo-merge", "--resume-merge"):
        return _run_journal_mode(args, undo=mode == "--undo-merge")
    return _run_compat_report(args)


def _run_journal_mode(args: argparse.Namespace, *, undo: bool) -> int:
    """--undo-merge / --resume-merge: act on the newest merge journal entry with work left."""
    from .engine.journal import Journal, JournalCorrupt

    # Only the journaled files are touched: the engine is created, not built (the saved
    # index sees their new stat at the next start and re-reads them).
    engine = Engine.create(Path(args.workspace), EngineConfig(all_markdown=args.all_markdown))
    journal = Journal(engine.root)
    paths: list[str] = []
    refused: list[tuple[str, str]] = []
    try:
        entry = journal.last_undoable() if undo else journal.last_pending()
        if entry is not None and undo:
            undone = engine.undo_merge(entry)
            if undone is not None:
                paths, refused = undone.restored, undone.refused
        elif entry is not None:
            resumed = engine.resume_merge(entry)
            if resumed is not None:
                paths, refused = resumed.written, resumed.refused
    except JournalCorrupt as exc:
        _error(f"{exc}; move it aside to reach older entries")
        return EXIT_RUNTIME
    except OSError as exc:
        _error(f"merge journal: {exc.strerror or exc}")
        return EXIT_RUNTIME
    key = "restored" if undo else "written"
    if args.json:
        _print_json(
            {
                "journal": None if entry is None else entry.get("id"),
                "into": None if entry is None else entry.get("into"),
                key: paths,
                "refused": [{"path": p, "reason": r} for p, r in refused],
            }
        )
    else:
        for path in paths:
            _out(f"{for_terminal_line(path)}: {key}\n")
    if entry is None:
        _info("no merge to undo" if undo else "no interrupted merge to resume")
        return EXIT_OK
    what = "undid" if undo else "resumed"
    _info(f"{what} merge {entry.get('id')} into {entry.get('into')}: {len(paths)} files {key}")
    for path, reason in refused:
        _error(f"{path}: {reason}")
    return EXIT_RUNTIME if refused else EXIT_OK


def _run_tag_dupes(args: argparse.Namespace) -> int:
    from .engine.hygiene import DismissedPairs, detect_duplicates

    engine = open_engine(args)
    embed = None
    if args.model:
        from .engine.semantic import try_load_model

        embedder, error = try_load_model(args.model, allow_download=args.allow_download)
        if embedder is None:
            _info(f"notice: {error}; comparing tag strings without embeddings")
        else:
            embed = embedder.encode
    clusters = detect_duplicates(engine, embed=embed, dismissed=DismissedPairs(engine.root))
    if args.json:
        _print_json({"clusters": [cluster.to_json() for cluster in clusters]})
        return EXIT_OK
    for cluster in clusters:
        members = ", ".join(f"{m.tag} ({m.files})" for m in cluster.members)
        _out(f"[{cluster.confidence}] {members}\n")
        _out(f"    suggested: {cluster.suggested}   methods: ")
        _out(", ".join(cluster.methods) + "\n")
        for member in cluster.members:
            if member.spellings != (member.tag,):
                _out(f"    {member.tag} is written {', '.join(member.spellings)}\n")
    tags = len(engine.list_tags())
    _info(f"{len(clusters)} clusters of near-duplicate tags among {tags} tags")
    return EXIT_OK


def _run_merge_tags(args: argparse.Namespace) -> int:
    from .engine.merge import MergeError, plan_merge

    if args.into is None:
        raise UsageError("--merge-tags needs --into TAG")
    engine = open_engine(args)
    try:
        plan = plan_merge(engine, args.merge_tags, args.into)
    except MergeError as exc:
        raise UsageError(str(exc)) from None
    refused = list(plan.skipped)
    written: list[str] = []
    journal_id = None
    if not args.dry_run:
        try:
            result = engine.merge(plan)
        except OSError as exc:
            _error(f"merge journal not written ({exc.strerror or exc}); no file was changed")
            return EXIT_RUNTIME
        written, journal_id = result.written, result.journal_id
        refused += result.refused
    if args.json:
        document = plan.to_json()
        document.update(
            dry_run=args.dry_run,
            written=written,
            refused=[{"path": p, "reason": r} for p, r in refused],
            journal=journal_id,
        )
        _print_json(document)
    else:
        for change in plan.changes:
            if args.dry_run:
                _out(change.diff())
            elif change.path in written:
                before, after = ", ".join(change.before_tags), ", ".join(change.after_tags)
                _out(for_terminal_line(f"{change.path}: [{before}] -> [{after}]") + "\n")
    verb = "would change" if args.dry_run else "changed"
    count = len(plan.changes) if args.dry_run else len(written)
    _info(f"{verb} {count} files: {', '.join(plan.sources) or '(nothing)'} -> {plan.into}")
    for path, reason in refused:
        _error(f"{path}: {reason}")
    if journal_id:
        _info(f"journaled as {journal_id}; the app can undo it (d, then u)")
    return EXIT_RUNTIME if refused else EXIT_OK


def _run_compat_report(args: argparse.Namespace) -> int:
    from .engine.compat import SHORT_LABELS, compat_report

    report = compat_report(open_engine(args))
    if args.json:
        _print_json(report.to_json())
        return EXIT_OK
    for path, issues in report.by_file().items():
        _out(f"{for_terminal_line(path)}\n")
        for issue in issues:
            where = f"{issue.line}: " if issue.line else ""
            fix = f"\n      fix: {issue.fix}" if issue.fix else ""
            safe = " (safe)" if issue.safe_fix else ""
            _out(f"  {where}{issue.kind}: {for_terminal_line(issue.message)}{fix}{safe}\n")
    counts = ", ".join(f"{n} {SHORT_LABELS[k]}" for k, n in report.counts.items())
    _info(f"{len(report.issues)} problems in {len(report.by_file())} files ({counts})")
    return EXIT_OK


def _run_tag_edit(args: argparse.Namespace) -> int:
    """--add-tag / --remove-tag / --set-tags: rewrite only the file's tag lines."""
    from .engine.frontmatter import AddTag, EditError, RemoveTag, SetTags

    op: AddTag | RemoveTag | SetTags
    if args.add_tag:
        rel, tag = args.add_tag
        op = AddTag(tag)
    elif args.remove_tag:
        rel, tag = args.remove_tag
        op = RemoveTag(tag)
    else:
        rel, *tags = args.set_tags
        if not tags:
            raise UsageError("--set-tags needs a PATH and then the tags (none clears the list)")
        op = SetTags(tags)
    # No index is needed to edit one file: the engine is created, not built.
    engine = Engine.create(Path(args.workspace), EngineConfig(all_markdown=args.all_markdown))
    try:
        result = engine.edit_tags(rel, op)
    except EditError as exc:
        if exc.exit_code == EXIT_USAGE:
            raise UsageError(str(exc)) from None
        _error(str(exc))
        return EXIT_RUNTIME
    except OSError as exc:
        _error(f"{rel}: {exc.strerror or exc}")
        return EXIT_RUNTIME
    for note in result.notes:
        _warn(f"{rel}: {note}")
    if args.json:
        _print_json(
            {
                "path": rel,
                "changed": result.changed,
                "old_tags": list(result.old_tags),
                "new_tags": list(result.new_tags),
            }
        )
    else:
        before = ", ".join(result.old_tags) or "(none)"
        after = ", ".join(result.new_tags) or "(none)"
        verb = "tags" if result.changed else "unchanged, tags"
        shown = f"{before} -> {after}" if result.changed else before
        _out(for_terminal_line(f"{rel}: {verb} {shown}") + "\n")
    return EXIT_OK


# -- output -----------------------------------------------------------------

_SEVERITY_COLOR = {"error": "31", "warning": "33", "info": "36"}


def _use_color(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _paint(text: str, code: str, color: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if color and code else text


def format_response(response: SearchResponse, *, color: bool = False) -> str:
    """ReMe-like text: a header per chunk, the chunk, then its link neighbours."""
    if not response.hits:
        return "No results.\n"
    hybrid = response.hybrid
    lines: list[str] = []
    for hit in response.hits:
        scores = f"score={hit.score:.4f}"
        if hybrid:
            for label, value in (("vector", hit.vector_score), ("keyword", hit.keyword_score)):
                scores += f" {label}={value:.4f}" if value is not None else f" {label}=-"
        where = f"{for_terminal_line(hit.path)}:{hit.start_line}-{hit.end_line}"
        header = f"========== {where} [{scores}] =========="
        lines.append(_paint(header, "1;34", color))
        lines.append(for_terminal(hit.text))
        neighbours = response.links.get(hit.path)
        if neighbours is not None:
            for direction, arrow, items in (
                ("outlinks", "→", neighbours.outlinks),
                ("inlinks", "←", neighbours.inlinks),
            ):
                if not items:
                    continue
                lines.append(f"  {direction} ({len(items)}):")
                for item in items:
                    meta = []
                    if item.name:
                        meta.append(f'name="{for_terminal_line(item.name)}"')
                    if item.description:
                        meta.append(f'description="{for_terminal_line(item.description)}"')
                    shown = "  ".join(meta) if meta else "(no meta)"
                    path = _paint(for_terminal_line(item.path), "36", color)
                    lines.append(f"    {arrow} {path}  {shown}")
                    anchors = map(for_terminal_line, item.anchors)
                    lines.extend(f"        via anchor=#{anchor}" for anchor in anchors)
    return "\n".join(lines) + "\n"


def _print_json(document: dict[str, Any], *, indent: int | None = 2) -> None:
    """One JSON document on stdout; C1 and bidi characters escaped too (``for_json``)."""
    sys.stdout.write(for_json(document, indent=indent) + "\n")


def _out(text: str) -> None:
    """Workspace-derived text to stdout, escaped (``text`` holds no colour codes)."""
    sys.stdout.write(for_terminal(text))


def _mention_diagnostics(engine: Engine) -> None:
    if not sys.stderr.isatty():
        return
    problems = [d for d in engine.diagnostics() if d.severity != "info"]
    if problems:
        files = len({d.path for d in problems})
        _info(f"{len(problems)} problems in {files} files; see --diagnostics")


def _info(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"reme-tui: {for_terminal(message)}\n")


def _warn(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"reme-tui: warning: {for_terminal(message)}\n")


def _error(message: str) -> None:
    sys.stderr.write(f"reme-tui: error: {for_terminal(message)}\n")


def die(message: str, code: int = EXIT_RUNTIME) -> NoReturn:
    _error(message)
    raise SystemExit(code)
