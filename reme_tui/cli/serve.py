"""`reme-tui mcp [WORKSPACE] [--allow-writes]`: the MCP server on stdio (reme_tui/mcp).

The first subcommand: its parser takes the table's flags it uses (where the workspace is,
which files, the saved index, a model) plus --allow-writes, so discovery and configuration
are those of every other mode. stdout is the protocol; everything else goes to stderr."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Sequence

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, info
from reme_tui.cli.table import FLAGS, SUBCOMMAND_FLAGS, add_workspace_and_version

NAME = "mcp"
_ACCEPTS = SUBCOMMAND_FLAGS[NAME]


def wants(argv: Sequence[str]) -> bool:
    """Whether the command line asks for this subcommand (`mcp` first)."""
    return bool(argv) and argv[0] == NAME


def build_parser(version: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reme-tui mcp",
        description=(
            "Serve the workspace's live index to AI agents over MCP (Model Context Protocol) "
            "on stdin/stdout: tools search, list_tags, read_memory, neighbours, suggest_tags, "
            "tag_dupes, diagnostics, changes; each memory as a resource reme://<path>, the tags as "
            "reme://tags. Read-only unless --allow-writes. The index starts from the saved "
            "index and a file watcher keeps it current. Set-up for Claude Code: "
            "claude mcp add reme -- reme-tui mcp /path/to/workspace"
        ),
        epilog="(a workspace folder literally named mcp: write ./mcp)",
    )
    add_workspace_and_version(parser, version)
    parser.add_argument(
        "--allow-writes",
        action="store_true",
        help="also serve the write tools add_tag, remove_tag, set_tags, merge_tags (through "
        "the one write door: refused when the file changed since it was read)",
    )
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag in FLAGS:
        if flag.dest in _ACCEPTS:
            if flag.group not in groups:
                groups[flag.group] = parser.add_argument_group(flag.group)
            groups[flag.group].add_argument(*flag.names, **flag.options)
    return parser


def run_mcp(args: argparse.Namespace) -> int:
    weight = opening.vector_weight(args)
    # The SDK takes about as long to import as a warm open of 10,000 memories: it loads
    # in a thread while the index opens, which waits on the disk part of the time (at 10k
    # memories, start to first answer 1.52 -> 1.46 s, medians of 10).
    preload = threading.Thread(target=_import_server, name="reme-mcp-import", daemon=True)
    preload.start()
    engine = opening.open_engine(args)
    opening.attach_model(engine, args)
    opening.wait_for_embeddings(engine)  # as --query does: hybrid answers from the first call
    access = "read-write" if args.allow_writes else "read-only"
    info(f"serving {engine.memory_count} memories of {engine.root} over MCP on stdio ({access})")
    preload.join()
    from reme_tui.mcp import serve

    serve(engine, allow_writes=args.allow_writes, vector_weight=weight)
    return EXIT_OK


def _import_server() -> None:
    import reme_tui.mcp  # noqa: F401
