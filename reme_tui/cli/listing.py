"""`reme-tui list`: memories by tag, date or path, newest first, with no query; as text, one
JSON document (with a schema version), JSON lines, paths, or NUL-ended paths for pipes."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, UsageError, info, warn
from reme_tui.cli.output import print_json, print_json_lines, write_paths
from reme_tui.cli.search import filters_from, one_format
from reme_tui.engine.search import SearchError
from reme_tui.safe_text import for_terminal_line

if TYPE_CHECKING:
    from reme_tui.engine import Memory


def run_list(args: argparse.Namespace) -> int:
    one_format(args)
    if args.limit is not None and args.limit <= 0:
        raise UsageError(f"--limit must be a positive number, got {args.limit}")
    filters = filters_from(args)
    engine = opening.open_engine(args)
    try:
        # The warnings first (a date ReMe cannot read is dropped, as search says).
        for warning in engine.allowed_paths(filters)[2]:
            warn(warning)
        memories = engine.browse(filters, limit=args.limit or max(engine.memory_count, 1))
    except SearchError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json({"total": len(memories), "memories": [memory_json(m) for m in memories]})
    elif args.jsonl:
        print_json_lines(memory_json(m) for m in memories)
    elif args.paths or args.null:
        write_paths((m.path for m in memories), nul=args.null)
    else:
        sys.stdout.writelines(text_line(m) + "\n" for m in memories)
    if not (args.null or args.paths or args.jsonl or args.json):
        info(f"{len(memories)} of {engine.memory_count} memories")
    return EXIT_OK


def memory_json(memory: Memory) -> dict[str, Any]:
    return {
        "path": memory.path,
        "date": memory.date,
        "name": memory.name,
        "description": memory.description,
        "tags": list(memory.tags),
    }


def text_line(memory: Memory) -> str:
    """`2026-03-02  daily/2026-03-02.md  [alice, bob]  Name`, escaped."""
    tags = ", ".join(map(for_terminal_line, memory.tags))
    name = f"  {for_terminal_line(memory.name)}" if memory.name else ""
    return f"{memory.date or '-':<10}  {for_terminal_line(memory.path)}  [{tags}]{name}"
