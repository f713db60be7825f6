"""`tags` (old: --list-tags), `suggest-tags`, and `edit-tags` (old: --add-tag, --remove-tag,
--set-tags), the tag edits that touch one file."""

from __future__ import annotations

import argparse
from pathlib import Path

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, UsageError, error, info, warn
from reme_tui.cli.output import mention_diagnostics, out, print_json, print_json_lines
from reme_tui.cli.search import one_format
from reme_tui.cli.user_config import settings_for
from reme_tui.engine import Engine
from reme_tui.safe_text import for_terminal_line


def run_list_tags(args: argparse.Namespace) -> int:
    one_format(args)
    engine = opening.open_engine(args)
    items = engine.list_tags(args.order_by or "file_count", args.order)
    if args.json:
        print_json({"total_tags": len(items), "items": [[tag, count] for tag, count in items]})
    elif args.jsonl:
        print_json_lines({"tag": tag, "files": count} for tag, count in items)
    else:
        width = max((len(str(count)) for _, count in items), default=1)
        for tag, count in items:
            out(f"{count:>{width}}  {for_terminal_line(tag)}\n")
        info(f"{len(items)} tags over {engine.memory_count} memories")
        _warn_lookalikes([tag for tag, _count in items])
    mention_diagnostics(engine)
    return EXIT_OK


def run_edit_tags(args: argparse.Namespace) -> int:
    """`reme-tui edit-tags PATH --add TAG | --remove TAG | --set [TAG...]`: the old flags'
    edit, one operation per run. The old flags (--add-tag PATH TAG ...) come here with
    their own arguments and no PATH."""
    if getattr(args, "path", None) is None:
        return run_tag_edit(args)
    chosen = [name for name in ("add", "remove", "set") if getattr(args, name) is not None]
    if len(chosen) != 1:
        raise UsageError("edit-tags needs exactly one of --add TAG, --remove TAG, --set TAG...")
    if args.add is not None:
        args.add_tag = [args.path, args.add]
    elif args.remove is not None:
        args.remove_tag = [args.path, args.remove]
    else:
        args.set_tags = [args.path, *args.set]
    return run_tag_edit(args)


def run_tag_edit(args: argparse.Namespace) -> int:
    """--add-tag / --remove-tag / --set-tags: rewrite only the file's tag lines."""
    from reme_tui.engine import EditError
    from reme_tui.engine.parse import AddTag, RemoveTag, SetTags

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
    engine = Engine.create(Path(args.workspace), opening.engine_config(args))
    try:
        result = engine.edit_tags(rel, op)
    except EditError as exc:
        if exc.exit_code == EXIT_USAGE:
            raise UsageError(str(exc)) from None
        error(str(exc))
        return EXIT_RUNTIME
    except OSError as exc:
        error(f"{rel}: {exc.strerror or exc}")
        return EXIT_RUNTIME
    for note in result.notes:
        warn(f"{rel}: {note}")
    ignored = what_reme_ignores(result.new_tags) if result.changed else []
    for message in ignored:
        warn(f"{rel}: {message}")
    for note in _lookalike_notes(result.old_tags, result.new_tags):
        warn(f"{rel}: {note}")
    if result.changed:
        history = settings_for(args).history
        label = f"tags of {rel}"
        unrecorded = opening.record_edit(engine, rel, result.new_canonical, label, history)
        if unrecorded is not None:
            warn(f"{rel}: written, but the change history did not record it: {unrecorded}")
    if args.json:
        print_json(
            {
                "path": rel,
                "changed": result.changed,
                "old_tags": list(result.old_tags),
                "new_tags": list(result.new_tags),
                "warnings": ignored,
            }
        )
    else:
        before = ", ".join(map(for_terminal_line, result.old_tags)) or "(none)"
        after = ", ".join(map(for_terminal_line, result.new_tags)) or "(none)"
        verb = "tags" if result.changed else "unchanged, tags"
        shown = f"{before} -> {after}" if result.changed else before
        out(f"{for_terminal_line(rel)}: {verb} {shown}\n")
    return EXIT_OK


def what_reme_ignores(tags: tuple[str, ...]) -> list[str]:
    """The tag editor's warnings about what ReMe will not index (a 4th tag, a second
    spelling of one tag, a tag it drops), for the tag list just written. Near-duplicates of
    other memories' tags are the editor's only: they need the whole index built."""
    from reme_tui.engine.tags import warnings_for

    return [w.message for w in warnings_for(tags) if w.kind != "near-duplicate"]


def _warn_lookalikes(tags: list[str]) -> None:
    from reme_tui.engine.tags import look_key

    seen: dict[str, list[str]] = {}
    for tag in tags:
        seen.setdefault(look_key(tag), []).append(tag)
    twins = sorted(
        ", ".join(map(for_terminal_line, group)) for group in seen.values() if len(group) > 1
    )
    for group in twins:
        warn(f"tags that look identical but are different tags: {group} (see reme-tui dupes)")


def _lookalike_notes(old: tuple[str, ...], new: tuple[str, ...]) -> list[str]:
    """A tag the edit brought in that cannot be told apart from another of the file's:
    ReMe keeps both (they are different strings), the reader sees one tag twice."""
    from reme_tui.engine.tags import lookalike_of

    notes = []
    for tag in new:
        twin = lookalike_of(tag, [other for other in new if other != tag])
        if tag not in old and twin is not None:
            notes.append(
                f"tag {for_terminal_line(tag)} looks like {for_terminal_line(twin)} but is "
                "another tag (invisible or look-alike characters); ReMe keeps both"
            )
    return notes


def run_suggest_tags(args: argparse.Namespace) -> int:
    """--suggest-tags PATH: existing workspace tags for one memory, with their evidence."""
    from reme_tui.engine.files import PathOutsideWorkspace, to_relative

    engine = opening.open_engine(args)
    raw = Path(args.suggest_tags)
    try:
        # Relative paths are read from the workspace root, as --add-tag reads them.
        rel = (
            to_relative(engine.root.absolute(), raw)
            if raw.is_absolute()
            else to_relative(engine.root, args.suggest_tags)
        )
    except PathOutsideWorkspace as exc:
        raise UsageError(str(exc)) from None
    opening.attach_model(engine, args)
    opening.wait_for_embeddings(engine)
    limit = 5 if args.limit is None else args.limit
    if limit <= 0:
        raise UsageError(f"--limit must be a positive number, got {limit}")
    try:
        report = engine.suggest_tags(rel, limit)
    except KeyError:
        where = for_terminal_line(rel)
        error(f"{where} is not a memory of this workspace (see reme-tui diagnostics)")
        return EXIT_RUNTIME
    if args.json:
        print_json(report.to_json())
        return EXIT_OK
    line = for_terminal_line
    current = ", ".join(map(line, report.tags)) or "(none)"
    out(f"{line(rel)}: tags {current}; {report.slots_left} of 3 slots free\n")
    for rank, suggestion in enumerate(report.suggestions, 1):
        variants = f"  (also written {', '.join(map(line, suggestion.variants))})"
        out(
            f"{rank}. {line(suggestion.tag)}  score {suggestion.score:.2f}"
            f"  ({suggestion.files} memories){variants if suggestion.variants else ''}\n"
        )
        for evidence in suggestion.evidence:
            out(f"     {evidence.signal:<10} +{evidence.score:.2f}  {line(evidence.detail)}\n")
    if not report.suggestions:
        out("no suggestion: nothing in it names or links to a tagged entity\n")
    for note in report.notes:
        info(f"note: {note}")
    return EXIT_OK
