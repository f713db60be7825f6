"""`reme-tui mcp [WORKSPACE] [--allow-writes]`: the MCP server on stdio (reme_tui/mcp).

A command of the table (`table.py`) like any other: it takes the table's flags it uses
(where the workspace is, which files, the saved index, a model) plus --allow-writes, so
discovery and configuration are those of every other command. stdout is the protocol;
everything else goes to stderr."""

from __future__ import annotations

import argparse
import threading

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, info


def run_mcp(args: argparse.Namespace) -> int:
    weight = opening.search_weight(args)
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
