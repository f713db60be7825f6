"""Tag hygiene: `dupes` (old: --tag-dupes) lists near-duplicate tags, `merge` (--merge-tags)
rewrites them (journaled), `undo-merge` and `resume-merge` act on the journal (an
interrupted merge included)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, UsageError, error, info, warn
from reme_tui.cli.output import out, print_json, print_json_lines
from reme_tui.cli.search import one_format
from reme_tui.safe_text import for_terminal_line


def run_tag_dupes(args: argparse.Namespace) -> int:
    from reme_tui.engine.tags import DismissedPairs, detect_duplicates

    one_format(args)
    engine = opening.open_engine(args)
    embed = None
    model, allow_download = opening.model_choice(args)
    if model:
        from reme_tui.engine.index import try_load_model

        embedder, error = try_load_model(model, allow_download=allow_download)
        if embedder is None:
            info(f"notice: {error}; comparing tag strings without embeddings")
        else:
            embed = embedder.encode
    clusters = detect_duplicates(engine, embed=embed, dismissed=DismissedPairs(engine.root))
    if args.json:
        print_json({"clusters": [cluster.to_json() for cluster in clusters]})
        return EXIT_OK
    if args.jsonl:
        print_json_lines(cluster.to_json() for cluster in clusters)
        return EXIT_OK
    line = for_terminal_line
    for cluster in clusters:
        members = ", ".join(f"{line(m.tag)} ({m.files})" for m in cluster.members)
        out(f"[{cluster.confidence}] {members}\n")
        out(f"    suggested: {line(cluster.suggested)}   methods: ")
        out(", ".join(cluster.methods) + "\n")
        for member in cluster.members:
            if member.spellings != (member.tag,):
                spellings = ", ".join(map(line, member.spellings))
                out(f"    {line(member.tag)} is written {spellings}\n")
    tags = len(engine.list_tags())
    info(f"{len(clusters)} clusters of near-duplicate tags among {tags} tags")
    return EXIT_OK


def run_merge_tags(args: argparse.Namespace) -> int:
    from reme_tui.engine.write import MergeError, plan_merge

    if args.into is None:
        raise UsageError("merging needs --into TAG: the tag to merge into")
    engine = opening.open_engine(args)
    try:
        plan = plan_merge(engine, args.merge_tags, args.into)
    except MergeError as exc:
        raise UsageError(str(exc)) from None
    refused = list(plan.skipped)
    written: list[str] = []
    notes: tuple[str, ...] = ()
    journal_id = None
    if not args.dry_run:
        try:
            result = engine.merge(plan)
        except OSError as exc:
            error(f"merge journal not written ({exc.strerror or exc}); no file was changed")
            return EXIT_RUNTIME
        written, journal_id = result.written, result.journal_id
        refused += result.refused
        notes = result.notes
    if args.json:
        document = plan.to_json()
        document.update(
            dry_run=args.dry_run,
            written=written,
            refused=[{"path": p, "reason": r} for p, r in refused],
            journal=journal_id,
            notes=list(notes),
        )
        print_json(document)
    else:
        for change in plan.changes:
            if args.dry_run:
                out(change.diff())
            elif change.path in written:
                before = ", ".join(map(for_terminal_line, change.before_tags))
                after = ", ".join(map(for_terminal_line, change.after_tags))
                out(f"{for_terminal_line(change.path)}: [{before}] -> [{after}]\n")
    verb = "would change" if args.dry_run else "changed"
    count = len(plan.changes) if args.dry_run else len(written)
    info(f"{verb} {count} files: {', '.join(plan.sources) or '(nothing)'} -> {plan.into}")
    for path, reason in refused:
        error(f"{path}: {reason}")
    for note in notes:
        warn(note)
    if journal_id:
        info(f"journaled as {journal_id}; the app can undo it (d, then u)")
    return EXIT_RUNTIME if refused or notes else EXIT_OK


def run_undo_merge(args: argparse.Namespace) -> int:
    """--undo-merge: undo the newest merge with something left to undo (an interrupted
    one included); files changed since the merge are refused and listed."""
    return _journal_mode(args, undo=True)


def run_resume_merge(args: argparse.Namespace) -> int:
    """--resume-merge: finish the newest interrupted merge."""
    return _journal_mode(args, undo=False)


def _journal_mode(args: argparse.Namespace, *, undo: bool) -> int:
    """--undo-merge / --resume-merge: act on the newest merge journal entry with work left."""
    from reme_tui.engine import Engine
    from reme_tui.engine.write import Journal, JournalCorrupt

    # Only the journaled files are touched: the engine is created, not built (the saved
    # index sees their new stat at the next start and re-reads them).
    engine = Engine.create(Path(args.workspace), opening.engine_config(args))
    journal = Journal(engine.root)
    paths: list[str] = []
    refused: list[tuple[str, str]] = []
    try:
        entry = journal.last_undoable() if undo else journal.last_pending()
        if entry is not None and undo:
            undone = engine.undo_merge(entry)
            if undone is not None:
                paths, refused = undone.written, undone.refused
        elif entry is not None:
            resumed = engine.resume_merge(entry)
            if resumed is not None:
                paths, refused = resumed.written, resumed.refused
    except JournalCorrupt as exc:
        error(f"{exc}; move it aside to reach older entries")
        return EXIT_RUNTIME
    except OSError as exc:
        error(f"merge journal: {exc.strerror or exc}")
        return EXIT_RUNTIME
    key = "restored" if undo else "written"
    if args.json:
        print_json(
            {
                "journal": None if entry is None else entry.get("id"),
                "into": None if entry is None else entry.get("into"),
                key: paths,
                "refused": [{"path": p, "reason": r} for p, r in refused],
            }
        )
    else:
        for path in paths:
            out(f"{for_terminal_line(path)}: {key}\n")
    if entry is None:
        info("no merge to undo" if undo else "no interrupted merge to resume")
        return EXIT_OK
    what = "undid" if undo else "resumed"
    info(f"{what} merge {entry.get('id')} into {entry.get('into')}: {len(paths)} files {key}")
    for path, reason in refused:
        error(f"{path}: {reason}")
    return EXIT_RUNTIME if refused else EXIT_OK
