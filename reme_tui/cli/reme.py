"""The command line's part for real ReMe installations (issue 13); its flags are in the
table (`table.py`) with every other flag.

* which workspace: WORKSPACE, else ``--reme-config``'s ``workspace_dir``, else ``.reme``
  discovery; ``--daily-dir`` / ``--digest-dir`` rename the memory folders;
* ReMe's search filters: ``--path`` (exact, any of), ``--path-prefix`` (any of),
  ``--meta KEY=VALUE`` (all of; a JSON list value means any of);
* ``--fix-tags [--dry-run]``: the agent-junk-tag fixes, with a diff first.

No UI imports: headless modes stay free of Textual.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from reme_tui.engine.reme import RemeConfigError, WorkspaceChoice
from reme_tui.engine.reme import choose_workspace as choose
from reme_tui.safe_text import for_terminal

if TYPE_CHECKING:
    from reme_tui.engine import Engine


def resolve(args: argparse.Namespace, *, headless: bool) -> WorkspaceChoice:
    """Decide the workspace and layout; say it on stderr when it was not given."""
    try:
        choice = choose(
            args.workspace,
            config_file=args.reme_config,
            daily_dir=args.daily_dir,
            digest_dir=args.digest_dir,
            into_project=not getattr(args, "all_markdown", False),
        )
    except RemeConfigError as exc:
        raise ValueError(str(exc)) from None
    for warning in choice.warnings:
        print(for_terminal(f"reme-tui: warning: {warning}"), file=sys.stderr)
    if headless and choice.discovered:
        print(for_terminal(f"reme-tui: workspace {choice.root} ({choice.reason})"), file=sys.stderr)
    return choice


def choose_workspace(args: argparse.Namespace, *, headless: bool) -> None:
    """Replace WORKSPACE by the chosen folder (discovery, --reme-config) and keep the layout
    (`args.layout`) and why it was chosen (`args.chosen_because`) for the mode."""
    from reme_tui.cli.common import UsageError

    try:
        choice = resolve(args, headless=headless)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    args.workspace = str(choice.root)
    args.layout = choice.layout
    args.chosen_because = choice.reason


def run_fix_tags(engine: Engine, *, dry_run: bool, as_json: bool) -> int:
    """Print the diff of every fix; write them unless ``dry_run``. Exit 1 if any refused."""
    plans, refused = engine.plan_tag_fixes()
    outcomes = [] if dry_run else engine.apply_tag_fixes(plans)[0]
    failed = {o.path: o.error for o in outcomes if o.error}
    failed.update(dict(refused))
    if as_json:
        from reme_tui.cli.output import print_json

        document = {
            "dry_run": dry_run,
            "files": [
                {
                    "path": plan.path,
                    "old_tags": [str(t) for t in plan.fix.old],
                    "new_tags": list(plan.fix.new),
                    "diff": plan.diff,
                    "written": not dry_run and plan.path not in failed,
                    "error": failed.get(plan.path),
                }
                for plan in plans
            ],
            "refused": [{"path": path, "error": error} for path, error in refused],
        }
        print_json(document, indent=None)
    else:
        for plan in plans:
            sys.stdout.write(for_terminal(plan.diff))
    for path, error in failed.items():
        print(for_terminal(f"reme-tui: {path}: {error}"), file=sys.stderr)
    written = 0 if dry_run else sum(1 for o in outcomes if o.changed)
    verb = "would fix" if dry_run else "fixed"
    count = len(plans) if dry_run else written
    print(f"reme-tui: {verb} the tags of {count} files", file=sys.stderr)
    return 1 if failed else 0


def run_fix_tags_mode(args: argparse.Namespace) -> int:
    from reme_tui.cli import opening

    return run_fix_tags(opening.open_engine(args), dry_run=args.dry_run, as_json=args.json)
