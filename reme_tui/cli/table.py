"""The one table of the command line: every mode, the flag that selects it, its handler,
and the option flags it uses. The parser is built from it, and so are the refusals: a flag
given to a mode that does not list it is a usage error, never silently dropped.

To add an option flag: append a `Flag` to `FLAGS` and name its dest in the `accepts` of
every mode that uses it. To add a mode: append a `Mode` (its selecting `Flag` and handler).

Every option flag defaults to None (or False for switches), so "given" is exact: a handler
that needs a default fills it in (`--limit` given as 5 is still given).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reme_tui.cli import app, changes, hygiene, reme, reports, search, tags
from reme_tui.cli.common import UsageError

Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Flag:
    """One command-line option; `options` are `argparse.add_argument` keywords."""

    names: tuple[str, ...]
    group: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dest(self) -> str:
        return str(self.options.get("dest") or self.names[0].lstrip("-").replace("-", "_"))

    @property
    def name(self) -> str:
        return self.names[0]


@dataclass(frozen=True, slots=True)
class Mode:
    """A way to run: headless modes have a selecting flag, the app has none."""

    flag: Flag | None
    run: Handler
    accepts: frozenset[str]

    @property
    def label(self) -> str:
        return self.flag.name if self.flag is not None else "the app"

    @property
    def headless(self) -> bool:
        return self.flag is not None


SEARCH_GROUP = "search filters"
SEMANTIC_GROUP = "semantic search (a model2vec model, see README)"
LISTING_GROUP = "tag listing"
INDEX_GROUP = "which files and the saved index"
OUTPUT_GROUP = "output"
MERGE_GROUP = "tag merging"
APP_GROUP = "the app"
REME_GROUP = "ReMe installations"
REME_FILTERS_GROUP = "ReMe search filters"
HISTORY_GROUP = "change history"


def flag(*names: str, group: str, **options: Any) -> Flag:
    return Flag(names, group, options)


FLAGS: tuple[Flag, ...] = (
    flag("--tag", group=SEARCH_GROUP, action="append", metavar="T",
         help="only memories with this tag (several: ANY of them)"),
    flag("--all-tags", group=SEARCH_GROUP, action="store_true",
         help="require ALL --tag values"),
    flag("--exclude-tag", group=SEARCH_GROUP, action="append", metavar="T",
         help="drop memories with T"),
    flag("--since", group=SEARCH_GROUP, metavar="YYYY-MM-DD", help="inclusive start date"),
    flag("--until", group=SEARCH_GROUP, metavar="YYYY-MM-DD", help="inclusive end date"),
    flag("--strict-dates", group=SEARCH_GROUP, action="store_true",
         help="with a date range, drop undated memories"),
    flag("--limit", group=SEARCH_GROUP, type=int, metavar="N", help="results (default 5)"),
    flag("--min-score", group=SEARCH_GROUP, type=float, metavar="X",
         help="drop lower scores (default 0 = off)"),
    flag("--follow", group=SEARCH_GROUP, action="store_true",
         help="keep running and print the results again each time they change (Ctrl-C stops)"),
    flag("--model", group=SEMANTIC_GROUP, metavar="NAME_OR_PATH",
         help="model2vec model directory, or a model id from the local Hugging Face cache"),
    flag("--allow-download", group=SEMANTIC_GROUP, action="store_true",
         help="let --model download a model id missing from the local cache"),
    flag("--vector-weight", group=SEMANTIC_GROUP, type=float, metavar="W",
         help="weight of the vector ranking in the fusion, 0..1 (default 0.7)"),
    flag("--order-by", group=LISTING_GROUP, choices=("file_count", "tag"),
         help="default: file_count"),
    flag("--order", group=LISTING_GROUP, choices=("asc", "desc"),
         help="default: desc for file_count, asc for tag"),
    flag("--into", group=MERGE_GROUP, metavar="TAG", help="the tag --merge-tags merges into"),
    flag("--dry-run", group=MERGE_GROUP, action="store_true",
         help="print the diffs, write nothing"),
    flag("--all-markdown", group=INDEX_GROUP, action="store_true",
         help="treat every .md under the workspace as a memory (default: daily/ and digest/)"),
    flag("--no-cache", group=INDEX_GROUP, action="store_true",
         help="neither read nor write the saved index"),
    flag("--rebuild", group=INDEX_GROUP, action="store_true",
         help="discard the saved index and build it again"),
    flag("--json", group=OUTPUT_GROUP, action="store_true",
         help="print exactly one JSON document"),
    flag("--reme-config", group=REME_GROUP, metavar="FILE",
         help="ReMe's YAML config (reme start config=FILE): workspace_dir (relative to the "
              "config's folder), daily_dir, digest_dir, session_dir, resource_dir, "
              "include_frontmatter_in_metadata"),
    flag("--daily-dir", group=REME_GROUP, metavar="DIR", help="ReMe's daily_dir (default: daily)"),
    flag("--digest-dir", group=REME_GROUP, metavar="DIR",
         help="ReMe's digest_dir (default: digest)"),
    flag("--path", group=REME_FILTERS_GROUP, action="append", metavar="P",
         help="only this exact path (any of)"),
    flag("--path-prefix", group=REME_FILTERS_GROUP, action="append", metavar="P",
         help="only paths starting with P (any of; plain text prefix, as ReMe's path_prefix)"),
    flag("--meta", group=REME_FILTERS_GROUP, action="append", metavar="KEY=VALUE",
         help="frontmatter KEY equals VALUE (JSON when it parses; a JSON list = any of); "
              "needs include_frontmatter_in_metadata in the ReMe config"),
    flag("--to", group=HISTORY_GROUP, metavar="VERSION",
         help="a change id from --changes: 12 (what change 12 wrote) or 12^ (what it replaced)"),
    flag("--theme", group=APP_GROUP, help="theme name (bundled or from your theme directory)"),
    flag("--config", group=APP_GROUP, type=Path, metavar="FILE", help="settings file to use"),
)  # fmt: skip

# Where the workspace is and which folders hold memories: every mode.
_WHERE = frozenset({"reme_config", "daily_dir", "digest_dir"})
_INDEX = _WHERE | {"all_markdown", "no_cache", "rebuild"}
_SEARCH = frozenset(
    {"tag", "all_tags", "exclude_tag", "since", "until", "strict_dates", "limit", "min_score"}
    | {"path", "path_prefix", "meta"}
)
_SEMANTIC = frozenset({"model", "allow_download", "vector_weight"})
_MODES_GROUP = "headless modes (print and exit)"

# The option flags of each subcommand (`reme-tui mcp`, cli/serve.py), from this same table.
SUBCOMMAND_FLAGS: Mapping[str, frozenset[str]] = {"mcp": _INDEX | _SEMANTIC}

MODES: tuple[Mode, ...] = (
    Mode(flag("--query", group=_MODES_GROUP, metavar="TEXT",
              help="search like ReMe's memory search"),
         search.run_query, _INDEX | _SEARCH | _SEMANTIC | {"follow", "json"}),
    Mode(flag("--explain", group=_MODES_GROUP, metavar="PATH",
              help="why the memory at PATH is (or is not) among --query's results, stage "
                   "by stage; takes every search filter"),
         search.run_explain, _INDEX | _SEARCH | _SEMANTIC | {"query", "json"}),
    Mode(flag("--list-tags", group=_MODES_GROUP, action="store_true",
              help="list tags with file counts"),
         tags.run_list_tags, _INDEX | {"order_by", "order", "json"}),
    Mode(flag("--diagnostics", group=_MODES_GROUP, action="store_true",
              help="list what ReMe silently drops or cannot read"),
         reports.run_diagnostics, _INDEX | {"json"}),
    Mode(flag("--compat-report", group=_MODES_GROUP, action="store_true",
              help="per file, what ReMe silently drops, with a fix where one is safe"),
         reports.run_compat_report, _INDEX | {"json"}),
    Mode(flag("--add-tag", group=_MODES_GROUP, nargs=2, metavar=("PATH", "TAG"),
              help="add TAG to the memory at PATH (no-op if an equal tag is there)"),
         tags.run_tag_edit, _WHERE | {"all_markdown", "json"}),
    Mode(flag("--remove-tag", group=_MODES_GROUP, nargs=2, metavar=("PATH", "TAG"),
              help="remove every tag equal to TAG (after normalization) from PATH"),
         tags.run_tag_edit, _WHERE | {"all_markdown", "json"}),
    Mode(flag("--set-tags", group=_MODES_GROUP, nargs="+", metavar="ARG",
              help="PATH, then the TAGs that replace its tag list"),
         tags.run_tag_edit, _WHERE | {"all_markdown", "json"}),
    Mode(flag("--suggest-tags", group=_MODES_GROUP, metavar="PATH",
              help="existing tags for the memory at PATH (relative to the workspace), "
                   "ranked with their evidence"),
         tags.run_suggest_tags, _INDEX | {"model", "allow_download", "limit", "json"}),
    Mode(flag("--tag-dupes", group=_MODES_GROUP, action="store_true",
              help="list clusters of near-duplicate tags (--model: embeddings too)"),
         hygiene.run_tag_dupes, _INDEX | {"model", "allow_download", "json"}),
    Mode(flag("--merge-tags", group=_MODES_GROUP, nargs="+", metavar="TAG",
              help="rewrite every memory carrying any of these tags to carry --into instead"
                   " (journaled for undo)"),
         hygiene.run_merge_tags, _INDEX | {"into", "dry_run", "json"}),
    Mode(flag("--undo-merge", group=_MODES_GROUP, action="store_true",
              help="undo the newest merge with something left to undo (an interrupted one"
                   " included)"),
         hygiene.run_undo_merge, _WHERE | {"all_markdown", "json"}),
    Mode(flag("--resume-merge", group=_MODES_GROUP, action="store_true",
              help="finish the newest interrupted merge"),
         hygiene.run_resume_merge, _WHERE | {"all_markdown", "json"}),
    Mode(flag("--fix-tags", group=_MODES_GROUP, action="store_true",
              help="fix agent junk tags (comma-joined, list-as-text, quotes, dates, "
                   "whitespace); with --dry-run, print the diff only"),
         reme.run_fix_tags_mode, _INDEX | {"dry_run", "json"}),
    Mode(flag("--changes", group=_MODES_GROUP, action="store_true",
              help="what changed in the memories (with --since DATE or --since last-review)"),
         changes.run_mode, _INDEX | {"since", "json"}),
    Mode(flag("--mark-reviewed", group=_MODES_GROUP, nargs="?", const="now", metavar="UNTIL",
              help="mark changes reviewed up to UNTIL (YYYY-MM-DD[THH:MM], a change id, "
                   "default now)"),
         changes.run_mode, _INDEX | {"json"}),
    Mode(flag("--revert", group=_MODES_GROUP, metavar="PATH",
              help="restore the memory at PATH to the version --to names (--dry-run: list "
                   "only)"),
         changes.run_mode, _INDEX | {"to", "dry_run", "json"}),
    # The app: no selecting flag, so it must stay last (the default).
    Mode(None, app.run_app_mode, _INDEX | _SEMANTIC | {"theme", "config"}),
)  # fmt: skip


def headless_flags() -> list[str]:
    """The flags that select a headless mode, for hints."""
    return [mode.label for mode in MODES if mode.headless]


def add_workspace_and_version(parser: argparse.ArgumentParser, version: str) -> None:
    """The WORKSPACE positional and --version, the same in every parser (modes and mcp)."""
    parser.add_argument(
        "workspace",
        nargs="?",
        default=None,
        help="ReMe workspace directory (default: ./.reme, else the nearest .reme/ in a "
        "parent folder, else the current folder)",
    )
    parser.add_argument("--version", action="version", version=f"reme-tui {version}")


def build_parser(version: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reme-tui",
        description=(
            "Look inside a ReMe agent's long-term memory. Without a mode flag, opens the "
            "terminal app on WORKSPACE; with a headless mode (below), prints and exits."
        ),
        epilog=(
            "subcommand: reme-tui mcp [WORKSPACE] [--allow-writes] serves the index to AI "
            "agents over MCP on stdio (see reme-tui mcp --help). "
            "exit codes: 0 success (also zero results), 1 runtime error (missing or "
            "unreadable workspace; --explain of a file that does not exist), 2 usage error "
            "(also: a flag the mode does not use)"
        ),
    )
    add_workspace_and_version(parser, version)
    groups: dict[str, argparse._ArgumentGroup] = {}
    selectors = [mode.flag for mode in MODES if mode.flag is not None]
    for flag in [*selectors, *FLAGS]:
        if flag.group not in groups:
            groups[flag.group] = parser.add_argument_group(flag.group)
        groups[flag.group].add_argument(*flag.names, **_with_uses(flag))
    return parser


def _with_uses(flag: Flag) -> dict[str, Any]:
    options = dict(flag.options)
    users = [mode.label for mode in MODES if flag.dest in mode.accepts]
    if users and options.get("help"):
        options["help"] = f"{options['help']} [{', '.join(users)}]"
    return options


def given(args: argparse.Namespace, dest: str) -> bool:
    return getattr(args, dest) not in (None, False)


def select_mode(args: argparse.Namespace) -> Mode:
    """The mode the arguments ask for; UsageError for two modes or a flag the mode ignores."""
    chosen = [mode for mode in MODES if mode.flag is not None and given(args, mode.flag.dest)]
    # A mode may take another mode's flag as an option (--explain PATH --query TEXT).
    taken = {dest for mode in chosen for dest in mode.accepts}
    chosen = [m for m in chosen if m.flag is None or m.flag.dest not in taken] or chosen
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(m.label for m in chosen)} cannot be combined")
    mode = chosen[0] if chosen else MODES[-1]
    refused = [flag for flag in FLAGS if given(args, flag.dest) and flag.dest not in mode.accepts]
    if refused:
        raise UsageError(_refusal(mode, refused))
    return mode


def _refusal(mode: Mode, refused: Iterable[Flag]) -> str:
    parts = []
    headless = set(headless_flags())
    for flag in refused:
        users = [m.label for m in MODES if flag.dest in m.accepts]
        if set(users) == headless:
            where = f"a headless mode ({', '.join(users)})"
        else:
            where = " or ".join(users) if users else "nothing"
        parts.append(f"{flag.name} only applies with {where}")
    return "; ".join(parts) + (f", not with {mode.label}" if mode.headless else "")
