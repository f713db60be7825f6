"""--diagnostics and --compat-report: what ReMe silently drops or cannot read, per file."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_FINDINGS, EXIT_OK, info
from reme_tui.cli.output import (
    SEVERITY_STYLE,
    out,
    print_json,
    print_json_lines,
    styled,
    write_styled,
)
from reme_tui.cli.search import one_format
from reme_tui.safe_text import for_terminal_line

if TYPE_CHECKING:
    from reme_tui.engine import Diagnostic


def run_diagnostics(args: argparse.Namespace) -> int:
    one_format(args)
    engine = opening.open_engine(args)
    found = engine.diagnostics()
    if args.json:
        print_json({"total": len(found), "diagnostics": [d.to_json() for d in found]})
        return _verdict(found, args.fail_on)
    if args.jsonl:
        print_json_lines(d.to_json() for d in found)
        return _verdict(found, args.fail_on)
    lines = []
    for diag in found:
        path = for_terminal_line(diag.path)
        where = f"{path}:{diag.line}" if diag.line else path
        severity = (diag.severity, SEVERITY_STYLE.get(diag.severity, ""))
        message = f": {for_terminal_line(diag.message)} [{diag.code}]\n"
        lines.append(styled(f"{where}: ", severity, message))
    write_styled(styled().join(lines))
    files = len({d.path for d in found})
    info(f"{len(found)} problems in {files} files ({engine.memory_count} memories indexed)")
    return _verdict(found, args.fail_on)


# --fail-on LEVEL fails on that severity and every one above it.
_AT_LEAST = {"warning": frozenset({"warning", "error"}), "error": frozenset({"error"})}


def _verdict(found: list[Diagnostic], fail_on: str | None) -> int:
    """EXIT_FINDINGS when --fail-on is given and a finding is at least that severe (said
    once on stderr), else EXIT_OK."""
    if fail_on is None:
        return EXIT_OK
    failing = [d for d in found if d.severity in _AT_LEAST[fail_on]]
    if not failing:
        return EXIT_OK
    info(f"failing (--fail-on {fail_on}): {len(failing)} findings at {fail_on} or above")
    return EXIT_FINDINGS


def run_compat_report(args: argparse.Namespace) -> int:
    from reme_tui.engine.reme import SHORT_LABELS, compat_report

    report = compat_report(opening.open_engine(args))
    if args.json:
        print_json(report.to_json())
        return EXIT_OK
    for path, issues in report.by_file().items():
        out(f"{for_terminal_line(path)}\n")
        for issue in issues:
            where = f"{issue.line}: " if issue.line else ""
            fix = f"\n      fix: {for_terminal_line(issue.fix)}" if issue.fix else ""
            safe = " (safe)" if issue.safe_fix else ""
            out(f"  {where}{issue.kind}: {for_terminal_line(issue.message)}{fix}{safe}\n")
    counts = ", ".join(f"{n} {SHORT_LABELS[k]}" for k, n in report.counts.items())
    info(f"{len(report.issues)} problems in {len(report.by_file())} files ({counts})")
    return EXIT_OK
