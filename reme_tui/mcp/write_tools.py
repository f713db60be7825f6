"""The write tools, served only with `--allow-writes`: tag edits and merges through the
engine's one write door (read with a stamp, refuse if changed, atomic replace, history)."""

from __future__ import annotations

from typing import Any

from reme_tui.engine import EditError
from reme_tui.engine.files import FileStamp
from reme_tui.engine.parse import AddTag, RemoveTag, SetTags

from . import arguments as a
from .arguments import Args, ToolError
from .catalog import Context, ToolSpec, boolean, string, string_list
from .read_tools import known_memory

STAMP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "The `stamp` read_memory returned: the write is refused if the file changed since."
    ),
    "properties": {
        "mtime_ns": {"type": "integer"},
        "size": {"type": "integer"},
        "sha256": {"type": "string"},
    },
    "required": ["mtime_ns", "size", "sha256"],
    "additionalProperties": False,
}


def expected_stamp(args: Args) -> FileStamp | None:
    raw = args.get("expected")
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"mtime_ns", "size", "sha256"}:
        raise ToolError("expected must be the stamp object read_memory returned")
    mtime, size, digest = raw["mtime_ns"], raw["size"], raw["sha256"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (mtime, size)):
        raise ToolError("expected.mtime_ns and expected.size must be whole numbers")
    if not isinstance(digest, str) or len(digest) != 64:
        raise ToolError("expected.sha256 must be a 64-character hex digest")
    return FileStamp(mtime, size, digest)


def _edit(context: Context, args: Args, op: AddTag | RemoveTag | SetTags) -> dict[str, Any]:
    engine = context.engine
    rel = known_memory(engine, args)
    try:
        result = engine.edit_tags(rel, op, expected_stamp(args))
    except EditError as exc:
        raise ToolError(f"{rel}: {exc}") from None
    except OSError as exc:
        raise ToolError(f"{rel}: {exc.strerror or exc}") from None
    return {
        "path": rel,
        "changed": result.changed,
        "old_tags": list(result.old_tags),
        "new_tags": list(result.new_tags),
        "notes": list(result.notes),
    }


def add_tag(context: Context, args: Args) -> dict[str, Any]:
    return _edit(context, args, AddTag(a.required_text(args, "tag")))


def remove_tag(context: Context, args: Args) -> dict[str, Any]:
    return _edit(context, args, RemoveTag(a.required_text(args, "tag")))


def set_tags(context: Context, args: Args) -> dict[str, Any]:
    if "tags" not in args:
        raise ToolError("tags is required (an empty list clears the tags)")
    return _edit(context, args, SetTags(list(a.strings(args, "tags"))))


_PATH = string("Workspace-relative path of the memory.")
_EXPECTED = STAMP_SCHEMA
_WRITES = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}

ADD_TAG = ToolSpec(
    name="add_tag",
    description=(
        "Add a tag to one memory's frontmatter (nothing happens if an equal tag is there); "
        "only the tag lines are rewritten. Refused if the file changed since `expected`."
    ),
    properties={"path": _PATH, "tag": string("The tag to add."), "expected": _EXPECTED},
    handler=add_tag,
    required=("path", "tag"),
    writes=True,
    annotations=_WRITES,
)
REMOVE_TAG = ToolSpec(
    name="remove_tag",
    description=(
        "Remove every tag equal to `tag` (after ReMe's normalization) from one memory. "
        "Refused if the file changed since `expected`."
    ),
    properties={"path": _PATH, "tag": string("The tag to remove."), "expected": _EXPECTED},
    handler=remove_tag,
    required=("path", "tag"),
    writes=True,
    annotations=_WRITES,
)
SET_TAGS = ToolSpec(
    name="set_tags",
    description=(
        "Replace one memory's tag list with `tags` (an empty list clears it). Refused if "
        "the file changed since `expected`."
    ),
    properties={"path": _PATH, "tags": string_list("The new tag list."), "expected": _EXPECTED},
    handler=set_tags,
    required=("path", "tags"),
    writes=True,
    annotations=_WRITES,
)


def merge_tags(context: Context, args: Args) -> dict[str, Any]:
    from reme_tui.engine.write import MergeError, plan_merge

    sources = a.strings(args, "tags")
    into = a.required_text(args, "into")
    if not sources:
        raise ToolError("tags is required: the tags to merge into `into`")
    dry_run = a.flag(args, "dry_run")
    engine = context.engine
    try:
        plan = plan_merge(engine, sources, into)
    except MergeError as exc:
        raise ToolError(str(exc)) from None
    refused = list(plan.skipped)
    written: list[str] = []
    journal = None
    if not dry_run:
        try:
            result = engine.merge(plan)
        except OSError as exc:
            raise ToolError(
                f"merge journal not written ({exc.strerror or exc}); no file was changed"
            ) from None
        written, journal = result.written, result.journal_id
        refused += result.refused
    document = plan.to_json()
    document.update(
        dry_run=dry_run,
        written=written,
        refused=[{"path": p, "reason": r} for p, r in refused],
        journal=journal,
    )
    return document


MERGE_TAGS = ToolSpec(
    name="merge_tags",
    description=(
        "Rewrite every memory carrying any of `tags` to carry `into` instead (journaled: the "
        "app or `reme-tui undo-merge` can undo it); files changed during the merge are "
        "refused and listed. With dry_run, only the plan (diffs) is returned."
    ),
    properties={
        "tags": string_list("The tags to merge away."),
        "into": string("The tag they become."),
        "dry_run": boolean("Return the plan only; write nothing."),
    },
    handler=merge_tags,
    required=("tags", "into"),
    writes=True,
    annotations={"readOnlyHint": False, "destructiveHint": True},
)

WRITE_TOOLS: tuple[ToolSpec, ...] = (ADD_TAG, REMOVE_TAG, SET_TAGS, MERGE_TAGS)
