"""The one table of the command line: every command, its handler, its arguments, the option
flags it takes, its examples, and the flag that selected it before there were commands.
The parsers are built from it (`parser.py` for `reme-tui COMMAND`, `legacy.py` for the
deprecated mode flags), and so are the refusals, the help, the completion scripts and the
man page: a flag given to a command that does not list it is a usage error.

To add an option flag: append a `Flag` to `FLAGS` and name its dest in the `accepts` of
every command that uses it. To add a command: append a `Mode` before the app (its handler
is named "module:function" inside reme_tui.cli, imported only when the command runs, so
that `--help` does not load the engine).

Every option flag defaults to None (or False for switches), so "given" is exact: a handler
that needs a default fills it in (`--limit` given as 5 is still given).

This module imports nothing heavy: `reme-tui --help` reads it.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Handler = Callable[[argparse.Namespace], int]
WorkspaceArgument = Literal["last", "option", "none"]


@dataclass(frozen=True, slots=True)
class Flag:
    """One command-line argument; `options` are `argparse.add_argument` keywords. A name
    without a leading dash is a positional (its name is its dest)."""

    names: tuple[str, ...]
    group: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dest(self) -> str:
        return str(self.options.get("dest") or self.names[0].lstrip("-").replace("-", "_"))

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def positional(self) -> bool:
        return not self.names[0].startswith("-")

    @property
    def takes_value(self) -> bool:
        return self.options.get("action") not in ("store_true", "store_false", "version")

    @property
    def shown(self) -> str:
        """How the argument is written in a usage line (QUERY, TAG..., [UNTIL])."""
        metavar = self.options.get("metavar") or self.dest.upper()
        text = " ".join(metavar) if isinstance(metavar, tuple) else str(metavar)
        nargs = self.options.get("nargs")
        if nargs in ("+", "*"):
            text += "..."
        return f"[{text}]" if nargs in ("?", "*") else text


@dataclass(frozen=True, slots=True)
class Mode:
    """One command: `reme-tui COMMAND`. `flag` is the mode flag that selected it before
    commands (a deprecated alias: `reme-tui WS --query TEXT`); `sets` are the values that
    old flag left in the arguments, which the handler still reads."""

    command: str
    handler: str
    accepts: frozenset[str]
    summary: str
    flag: Flag | None = None
    more_flags: tuple[Flag, ...] = ()
    arguments: tuple[Flag, ...] = ()
    examples: tuple[str, ...] = ()
    details: str = ""
    workspace: WorkspaceArgument = "last"
    sets: Mapping[str, Any] = field(default_factory=dict)
    hidden: bool = False  # machinery for the shell scripts: in no help, list or man page

    @property
    def old_flags(self) -> tuple[Flag, ...]:
        """Every deprecated mode flag that selects it."""
        return () if self.flag is None else (self.flag, *self.more_flags)

    @property
    def label(self) -> str:
        """How refusals name it: its old flag, else the command."""
        if self.flag is not None:
            return self.flag.name
        return "the app" if self.command == APP else f"reme-tui {self.command}"

    @property
    def headless(self) -> bool:
        return self.command != APP

    @property
    def usage(self) -> str:
        """The one-line usage: `reme-tui search QUERY [WORKSPACE] [options]`."""
        parts = ["reme-tui", self.command]
        parts += [a.shown for a in self.arguments if a.positional]
        if self.workspace == "last":
            parts.append("[WORKSPACE]")
        if self.options or any(not a.positional for a in self.arguments):
            parts.append("[options]")
        return " ".join(parts)

    @property
    def options(self) -> tuple[Flag, ...]:
        """The table's option flags it takes, in the table's order."""
        return tuple(f for f in FLAGS if f.dest in self.accepts)

    def run(self, args: argparse.Namespace) -> int:
        module, function = self.handler.split(":")
        handler: Handler = getattr(importlib.import_module(f"reme_tui.cli.{module}"), function)
        return handler(args)


def flag(*names: str, group: str, **options: Any) -> Flag:
    return Flag(names, group, options)


def argument(name: str, **options: Any) -> Flag:
    """A command's own argument (a positional, or an option only it has)."""
    return Flag((name,), "arguments", options)


APP = "app"
COMPLETE = "__complete"  # asked by the completion scripts; its words are never parsed

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
SETTINGS_GROUP = "settings"


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
    flag("--limit", group=SEARCH_GROUP, type=int, metavar="N",
         help="how many (search: default 5; list: all)"),
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
    flag("--jsonl", group=OUTPUT_GROUP, action="store_true",
         help="one JSON object per line (list: a memory; search: a result; tags: a tag; "
              "diagnostics: a finding; dupes: a cluster), each with its schema version"),
    flag("--paths", group=OUTPUT_GROUP, action="store_true",
         help="workspace-relative paths only, one a line (search: each memory once, best "
              "first)"),
    flag("-0", "--null", group=OUTPUT_GROUP, action="store_true", dest="null",
         help="paths only, each ended by a NUL byte (for xargs -0, fzf --read0)"),
    flag("--fail-on", group=OUTPUT_GROUP, choices=("warning", "error"),
         help="exit 3 when a finding is at least this severe (for CI and pre-commit)"),
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
    flag("--config", group=SETTINGS_GROUP, type=Path, metavar="FILE",
         help="settings file to use; it must exist (default: $REME_TUI_CONFIG, else "
              "~/.config/reme-tui/config.toml; see reme-tui config)"),
)  # fmt: skip


# Where the workspace is and which folders hold memories: every command on a workspace.
# (And the settings file: every command reads it.)
_WHERE = frozenset({"reme_config", "daily_dir", "digest_dir", "config"})
_INDEX = _WHERE | {"all_markdown", "no_cache", "rebuild"}
_FILTERS = frozenset(
    {"tag", "all_tags", "exclude_tag", "since", "until", "strict_dates", "limit"}
    | {"path", "path_prefix", "meta"}
)
_SEARCH = _FILTERS | {"min_score"}
_SEMANTIC = frozenset({"model", "allow_download", "vector_weight"})
_MODES_GROUP = "headless modes (print and exit)"
_MCP_DETAILS = (
    "Serve the workspace's live index to AI agents over MCP (Model Context Protocol) on "
    "stdin/stdout: tools search, list_tags, read_memory, neighbours, suggest_tags, tag_dupes, "
    "diagnostics, changes; each memory as a resource reme://<path>, the tags as reme://tags. "
    "Read-only unless --allow-writes. The index starts from the saved index and a file "
    "watcher keeps it current. Set-up for Claude Code: "
    "claude mcp add reme -- reme-tui mcp /path/to/workspace"
)

MODES: tuple[Mode, ...] = (
    Mode("search", "search:run_query",
         _INDEX | _SEARCH | _SEMANTIC | {"follow", "json", "jsonl", "paths", "null"},
         "search like ReMe's memory search",
         flag=flag("--query", group=_MODES_GROUP, metavar="TEXT",
                   help="search like ReMe's memory search"),
         arguments=(argument("query", metavar="QUERY", help="the words to search for"),),
         examples=('reme-tui search "launch budget"',
                   'reme-tui search budget ~/agent/.reme --tag project_atlas --json',
                   'reme-tui search "release plan" --since 2026-03-01 --follow',
                   "reme-tui search budget --limit 20 --paths | fzf",
                   "reme-tui search budget --jsonl | jq -r .path")),
    Mode("explain", "search:run_explain", _INDEX | _SEARCH | _SEMANTIC | {"query", "json"},
         "why a memory is (or is not) among a search's results, stage by stage",
         flag=flag("--explain", group=_MODES_GROUP, metavar="PATH",
                   help="why the memory at PATH is (or is not) among --query's results, stage "
                        "by stage; takes every search filter"),
         arguments=(argument("explain", metavar="PATH", help="the memory, workspace-relative"),
                    argument("query", metavar="QUERY", help="the search to explain")),
         examples=('reme-tui explain daily/2026-03-10.md "launch budget"',
                   'reme-tui explain daily/2026-03-10.md budget --tag alice --json')),
    Mode("list", "listing:run_list", _INDEX | _FILTERS | {"json", "jsonl", "paths", "null"},
         "list memories by tag, date or path, newest first (no query)",
         examples=("reme-tui list --tag alice --since 2026-03-01",
                   "reme-tui list --path-prefix digest/ --paths",
                   "reme-tui list --tag project_atlas -0 | xargs -0 grep -l budget",
                   "reme-tui list --jsonl | jq -r .name")),
    Mode("tags", "tags:run_list_tags", _INDEX | {"order_by", "order", "json", "jsonl"},
         "list tags with file counts",
         flag=flag("--list-tags", group=_MODES_GROUP, action="store_true",
                   help="list tags with file counts"),
         sets={"list_tags": True},
         examples=("reme-tui tags", "reme-tui tags --order-by tag --json")),
    Mode("diagnostics", "reports:run_diagnostics", _INDEX | {"json", "jsonl", "fail_on"},
         "list what ReMe silently drops or cannot read",
         flag=flag("--diagnostics", group=_MODES_GROUP, action="store_true",
                   help="list what ReMe silently drops or cannot read"),
         sets={"diagnostics": True},
         examples=("reme-tui diagnostics",
                   "reme-tui diagnostics --fail-on warning  # exit 3: for CI, pre-commit")),
    Mode("compat-report", "reports:run_compat_report", _INDEX | {"json"},
         "per file, what ReMe silently drops, with a fix where one is safe",
         flag=flag("--compat-report", group=_MODES_GROUP, action="store_true",
                   help="per file, what ReMe silently drops, with a fix where one is safe"),
         sets={"compat_report": True},
         examples=("reme-tui compat-report --json",)),
    Mode("edit-tags", "tags:run_edit_tags", _WHERE | {"all_markdown", "json"},
         "add, remove or set the tags of one memory",
         flag=flag("--add-tag", group=_MODES_GROUP, nargs=2, metavar=("PATH", "TAG"),
                   help="add TAG to the memory at PATH (no-op if an equal tag is there)"),
         more_flags=(flag("--remove-tag", group=_MODES_GROUP, nargs=2, metavar=("PATH", "TAG"),
                          help="remove every tag equal to TAG (after normalization) from PATH"),
                     flag("--set-tags", group=_MODES_GROUP, nargs="+", metavar="ARG",
                          help="PATH, then the TAGs that replace its tag list")),
         arguments=(argument("path", metavar="PATH", help="the memory, workspace-relative"),
                    argument("--add", metavar="TAG",
                             help="add TAG (no-op if an equal tag is there)"),
                    argument("--remove", metavar="TAG",
                             help="remove every tag equal to TAG (after normalization)"),
                    argument("--set", nargs="+", metavar="TAG",
                             help="replace the tag list with these TAGs")),
         details="Give one of --add, --remove, --set. A 4th tag, or one ReMe would drop, is "
                 "written as asked with a warning on stderr (ReMe reads the first 3).",
         examples=("reme-tui edit-tags daily/2026-03-10.md --add project_atlas",
                   "reme-tui edit-tags daily/2026-03-10.md ~/agent/.reme --set alice budget",
                   "reme-tui edit-tags daily/2026-03-10.md --remove draft --json")),
    Mode("suggest-tags", "tags:run_suggest_tags",
         _INDEX | {"model", "allow_download", "limit", "json"},
         "existing tags for one memory, ranked with their evidence",
         flag=flag("--suggest-tags", group=_MODES_GROUP, metavar="PATH",
                   help="existing tags for the memory at PATH (relative to the workspace), "
                        "ranked with their evidence"),
         arguments=(argument("suggest_tags", metavar="PATH",
                             help="the memory, workspace-relative"),),
         examples=("reme-tui suggest-tags daily/2026-03-10.md --limit 3",)),
    Mode("dupes", "hygiene:run_tag_dupes",
         _INDEX | {"model", "allow_download", "json", "jsonl"},
         "list clusters of near-duplicate tags",
         flag=flag("--tag-dupes", group=_MODES_GROUP, action="store_true",
                   help="list clusters of near-duplicate tags (--model: embeddings too)"),
         sets={"tag_dupes": True},
         examples=("reme-tui dupes", "reme-tui dupes --json | jq '.clusters[0]'")),
    Mode("merge", "hygiene:run_merge_tags", _INDEX | {"into", "dry_run", "json"},
         "rewrite every memory carrying any of the tags to carry --into instead (undoable)",
         flag=flag("--merge-tags", group=_MODES_GROUP, nargs="+", metavar="TAG",
                   help="rewrite every memory carrying any of these tags to carry --into "
                        "instead (journaled for undo)"),
         arguments=(argument("merge_tags", nargs="+", metavar="TAG",
                             help="the tags to merge away"),),
         workspace="option",
         examples=("reme-tui merge proj-atlas ProjectAtlas --into project_atlas --dry-run",
                   "reme-tui merge proj-atlas --into project_atlas -w ~/agent/.reme")),
    Mode("undo-merge", "hygiene:run_undo_merge", _WHERE | {"all_markdown", "json"},
         "undo the newest merge with something left to undo",
         flag=flag("--undo-merge", group=_MODES_GROUP, action="store_true",
                   help="undo the newest merge with something left to undo (an interrupted "
                        "one included)"),
         sets={"undo_merge": True},
         examples=("reme-tui undo-merge",)),
    Mode("resume-merge", "hygiene:run_resume_merge", _WHERE | {"all_markdown", "json"},
         "finish the newest interrupted merge",
         flag=flag("--resume-merge", group=_MODES_GROUP, action="store_true",
                   help="finish the newest interrupted merge"),
         sets={"resume_merge": True},
         examples=("reme-tui resume-merge",)),
    Mode("fix-tags", "reme:run_fix_tags_mode", _INDEX | {"dry_run", "json"},
         "fix agent junk tags (comma-joined, list-as-text, quotes, dates, whitespace)",
         flag=flag("--fix-tags", group=_MODES_GROUP, action="store_true",
                   help="fix agent junk tags (comma-joined, list-as-text, quotes, dates, "
                        "whitespace); with --dry-run, print the diff only"),
         sets={"fix_tags": True},
         examples=("reme-tui fix-tags --dry-run", "reme-tui fix-tags")),
    Mode("changes", "changes:run_mode", _INDEX | {"since", "json", "jsonl"},
         "what changed in the memories, newest first",
         flag=flag("--changes", group=_MODES_GROUP, action="store_true",
                   help="what changed in the memories (with --since DATE or --since "
                        "last-review)"),
         sets={"changes": True},
         examples=("reme-tui changes --since last-review",
                   "reme-tui changes --since 2026-03-01 --json",
                   "reme-tui changes --jsonl | jq -r 'select(.kind == \"deleted\") | .path'")),
    Mode("mark-reviewed", "changes:run_mode", _INDEX | {"json"},
         "mark the changes reviewed (up to now, or --until)",
         flag=flag("--mark-reviewed", group=_MODES_GROUP, nargs="?", const="now",
                   metavar="UNTIL",
                   help="mark changes reviewed up to UNTIL (YYYY-MM-DD[THH:MM], a change id, "
                        "default now)"),
         arguments=(argument("--until", dest="mark_reviewed", metavar="UNTIL",
                             help="YYYY-MM-DD[THH:MM] or a change id (default: now)"),),
         sets={"mark_reviewed": "now"},
         examples=("reme-tui mark-reviewed", "reme-tui mark-reviewed --until 42")),
    Mode("revert", "changes:run_mode", _INDEX | {"to", "dry_run", "json"},
         "restore one memory to a version the change history recorded",
         flag=flag("--revert", group=_MODES_GROUP, metavar="PATH",
                   help="restore the memory at PATH to the version --to names (--dry-run: "
                        "list only)"),
         arguments=(argument("revert", metavar="PATH", help="the memory, workspace-relative"),),
         examples=("reme-tui revert daily/2026-03-10.md --to 12 --dry-run",
                   "reme-tui revert daily/2026-03-10.md --to 12^")),
    Mode("config", "config_command:run_config", frozenset({"config", "json"}),
         "where the settings file is, what is in effect, and every key it may hold",
         arguments=(argument("action", choices=("path", "show", "keys"), metavar="path|show|keys",
                             help="path: the file in effect; show: every setting in effect "
                                  "(file over defaults) as TOML; keys: every key with its "
                                  "type, default and use"),),
         workspace="none",
         examples=("reme-tui config path", "reme-tui config show --config ./ci.toml",
                   "reme-tui config keys")),
    Mode("demo", "demo:run_demo", frozenset({"theme", "config"}),
         "copy the sample workspace somewhere writable and open it in the app",
         arguments=(argument("folder", nargs="?", metavar="DIR",
                             help="where to copy it (default: your data folder's "
                                  "reme-tui/demo; an existing one is opened as it is)"),),
         details="Without a terminal, prints the copy's path instead of opening the app.",
         workspace="none",
         examples=("reme-tui demo", "reme-tui demo ~/reme-demo --theme reme-paper",
                   'reme-tui search budget "$(reme-tui demo </dev/null)"')),
    Mode("completion", "completion:run_completion", frozenset(),
         "print the shell completion script (commands, flags, tags and paths)",
         arguments=(argument("shell", choices=("bash", "zsh", "fish"), metavar="bash|zsh|fish",
                             help="the shell to complete for"),),
         details="Tags and memory paths come from the workspace's saved index (a workspace "
                 "no command has opened yet completes commands and flags only).",
         workspace="none",
         examples=('eval "$(reme-tui completion bash)"        # in ~/.bashrc',
                   'reme-tui completion zsh > "${fpath[1]}/_reme-tui"',
                   "reme-tui completion fish > ~/.config/fish/completions/reme-tui.fish")),
    Mode("manpage", "manpage:run_manpage", frozenset(),
         "print the man page (roff), made from this same table",
         workspace="none",
         examples=("reme-tui manpage > ~/.local/share/man/man1/reme-tui.1",
                   "reme-tui manpage | man -l -")),
    Mode(COMPLETE, "completion:run_complete", frozenset(),
         "what may come next on a command line (for the completion scripts)",
         arguments=(argument("words", nargs="*", metavar="WORD"),),
         workspace="none", hidden=True,
         examples=("reme-tui __complete -- list --tag ''",)),
    Mode("mcp", "serve:run_mcp", _INDEX | _SEMANTIC,
         "serve the index to AI agents over MCP on stdio",
         arguments=(argument("--allow-writes", action="store_true",
                             help="also serve the write tools add_tag, remove_tag, set_tags, "
                                  "merge_tags (through the one write door: refused when the "
                                  "file changed since it was read)"),),
         details=_MCP_DETAILS,
         examples=("claude mcp add reme -- reme-tui mcp /path/to/workspace",
                   "reme-tui mcp ~/agent/.reme --allow-writes")),
    # The app: no selecting flag, so it must stay last (the default).
    Mode(APP, "app:run_app_mode", _INDEX | _SEMANTIC | {"theme"},
         "the terminal app (the default: reme-tui [WORKSPACE])",
         examples=("reme-tui", "reme-tui ~/agent/.reme --theme reme-paper")),
)  # fmt: skip

COMMANDS: Mapping[str, Mode] = {mode.command: mode for mode in MODES}


def selector_dests() -> frozenset[str]:
    """The dests the old mode flags set (still read by some handlers)."""
    return frozenset(f.dest for m in MODES for f in m.old_flags)


def headless_commands() -> list[str]:
    """The commands that print and exit, for hints."""
    return [mode.command for mode in MODES if mode.headless]


def given(args: argparse.Namespace, dest: str) -> bool:
    return getattr(args, dest, None) not in (None, False)


def fill_defaults(args: argparse.Namespace, mode: Mode) -> argparse.Namespace:
    """Every dest a handler may read, present: the table's flags and the old selectors
    (None or False when not given), then what the mode's old flag would have set."""
    for item in [*FLAGS, *(f for m in MODES for f in m.old_flags)]:
        if not hasattr(args, item.dest):
            setattr(args, item.dest, False if not item.takes_value else None)
    for dest, value in mode.sets.items():
        if getattr(args, dest, None) in (None, False):
            setattr(args, dest, value)
    return args
