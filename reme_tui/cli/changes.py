"""The command line's part for the change history (issue 15).

* ``--changes [--since DATE|last-review] [--json]``: what changed, newest first, after
  recording what changed since the history last looked (the first run records a baseline);
* ``--mark-reviewed [UNTIL]``: everything up to UNTIL (a date, a time, a change id; default
  now) is reviewed;
* ``--revert PATH --to VERSION [--dry-run]``: restore PATH to the version change VERSION
  recorded (the listing first; refused when the file changed since it was recorded).

No UI imports: headless modes stay free of Textual. The flags are in the table
(`table.py`) with every other flag.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reme_tui.cli.output import print_json, print_json_lines
from reme_tui.engine.history import (
    ChangeHistory,
    HistoryError,
    RecordResult,
    ReportArgumentError,
    report_json,
    report_text,
    select,
    until_bound,
    version_ref,
)
from reme_tui.engine.write import RevertError, plan_version
from reme_tui.safe_text import for_terminal

if TYPE_CHECKING:
    from reme_tui.engine import Engine

EXIT_OK, EXIT_RUNTIME, EXIT_USAGE = 0, 1, 2


def mode(args: argparse.Namespace) -> str | None:
    if getattr(args, "changes", False):
        return "changes"
    if getattr(args, "mark_reviewed", None) is not None:
        return "mark-reviewed"
    if getattr(args, "revert", None) is not None:
        return "revert"
    return None


def run_mode(args: argparse.Namespace) -> int:
    """--changes, --mark-reviewed, --revert (the table refuses flags they do not use)."""
    from reme_tui.cli import opening
    from reme_tui.cli.common import UsageError

    if mode(args) == "revert" and args.to is None:
        raise UsageError("revert needs --to VERSION (a change id from reme-tui changes)")
    # It records through its own history below (and says when that was the first look).
    return run(opening.open_engine(args, record=False), args, UsageError)


def open_history(engine: Engine) -> tuple[ChangeHistory, RecordResult, bool]:
    """Attach the workspace's history and record what changed since it last looked."""
    history = ChangeHistory.for_workspace(engine.root)
    if history.notice:
        _info(f"notice: {history.notice}")
    engine.attach_history(history)
    first = not history.has_baseline
    recorded = engine.sync_history()
    history.prune()
    return history, recorded, first


def run(engine: Engine, args: argparse.Namespace, error: type[Exception]) -> int:
    """Run the chosen mode on an opened engine; returns the exit code."""
    try:
        history, _recorded, first = open_history(engine)
    except HistoryError as exc:
        _info(f"reme-tui: {exc}")
        return EXIT_RUNTIME
    try:
        chosen = mode(args)
        if chosen == "changes":
            return _changes(engine, history, args, first, error)
        if chosen == "mark-reviewed":
            return _mark_reviewed(history, args, error)
        return _revert(engine, history, args, error)
    except HistoryError as exc:
        _info(f"reme-tui: {exc}")
        return EXIT_RUNTIME
    finally:
        engine.attach_history(None)
        history.close()


def _changes(
    engine: Engine, history: ChangeHistory, args: argparse.Namespace, first: bool, error: type
) -> int:
    if first:
        _info(
            f"first run: recorded a baseline of {engine.memory_count} memories; "
            "changes are listed from now on"
        )
    try:
        entries = select(history, args.since)
    except ReportArgumentError as exc:
        raise error(f"--since: {exc}") from None
    tag_field = engine.config.tag_field
    if args.json or getattr(args, "jsonl", False):
        document = report_json(
            history, entries, since=args.since, tag_field=tag_field, baseline_recorded=first
        )
        if args.json:
            print_json(document, indent=None)
        else:  # one change a line, newest first, each as in the document's "entries"
            print_json_lines(document["entries"])
    elif entries:
        print(for_terminal(report_text(entries)))
    else:
        _info("no changes" + (f" since {args.since}" if args.since else ""))
    return EXIT_OK


def _mark_reviewed(history: ChangeHistory, args: argparse.Namespace, error: type) -> int:
    until_text = None if args.mark_reviewed == "now" else args.mark_reviewed
    try:
        until = until_bound(history, until_text)
    except ReportArgumentError as exc:
        raise error(f"mark-reviewed: {exc}") from None
    marked = history.mark_reviewed_until(until)
    left = history.unreviewed_count()
    if args.json:
        print_json({"marked": marked, "unreviewed": left}, indent=None)
    else:
        print(f"marked {marked} change(s) reviewed; {left} left to review")
    return EXIT_OK


def _revert(engine: Engine, history: ChangeHistory, args: argparse.Namespace, error: type) -> int:
    try:
        version, before = version_ref(args.to)
    except ReportArgumentError as exc:
        raise error(f"--to: {exc}") from None
    try:
        plan = plan_version(history, args.revert, version, before=before)
    except RevertError as exc:
        raise error(str(exc)) from None
    document: dict[str, Any] = {
        "path": args.revert,
        "to": args.to,
        "plan": [{"action": s.action, "path": s.path} for s in plan.steps],
    }
    if not plan.steps:
        _info(f"{args.revert} already holds version {args.to}; nothing to do")
    if args.dry_run or not plan.steps:
        _emit(args, document, plan.listing())
        return EXIT_OK
    result, _delta = engine.revert(plan)
    document["written"] = result.written
    document["refused"] = [{"path": p, "reason": r} for p, r in result.refused]
    lines = [f"reverted {p} to {args.to}" for p in result.written]
    _emit(args, document, lines)
    for path, reason in result.refused:
        _info(f"reme-tui: {path}: {reason}")
    return EXIT_OK if result.ok else EXIT_RUNTIME


def _emit(args: argparse.Namespace, document: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print_json(document, indent=None)
    elif lines:
        print(for_terminal("\n".join(lines)))


def _info(message: str) -> None:
    print(for_terminal(message), file=sys.stderr)
