"""What a memory's own diagnostics mean on screen: the warnings its preview header shows,
and whether ReMe reads the tag entry the tag editor lists at all."""

from __future__ import annotations

from typing import Any

from reme_tui.engine import Code, Diagnostic, Severity

# ReMe reads no tag from a file with one of these: the entry is a scalar, or the whole
# frontmatter is ignored (tags included).
TAGS_UNREAD = frozenset(
    {
        Code.TAGS_NOT_LIST,
        Code.BOM,
        Code.YAML_INVALID,
        Code.FRONTMATTER_TOO_COMPLEX,
        Code.FRONTMATTER_NOT_MAPPING,
        Code.NAME_NOT_STRING,
        Code.DESCRIPTION_NOT_STRING,
    }
)


def warnings_of(memory: Any) -> list[Diagnostic]:
    """The memory's own warnings and errors (its infos, such as "no tags", are not news)."""
    found = getattr(memory, "diagnostics", ()) or ()
    return [d for d in found if d.severity is not Severity.INFO]


def tags_unread(memory: Any) -> list[Diagnostic]:
    """The diagnostics that make ReMe read no tag from the file (empty: it reads them)."""
    return [d for d in warnings_of(memory) if d.code in TAGS_UNREAD]


def warning_line(diagnostic: Diagnostic) -> str:
    where = f"line {diagnostic.line}: " if diagnostic.line else ""
    return f"⚠ {where}{diagnostic.message}"
