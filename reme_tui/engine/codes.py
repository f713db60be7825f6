"""Every diagnostic code, with its severity and a one-line explanation.

The engine reports per-file problems as ``Diagnostic(path, line, code, message)``; the
code decides the severity (``Diagnostic.severity``), the ReMe-compatibility report groups
codes into kinds (``compat.py``), and the diagnostics screen and the README's table
(checked by ``tests/engine/test_codes.py``; print it with ``python -m
reme_tui.engine.codes``) show the explanations given here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import cast


class Severity(StrEnum):
    ERROR = "error"  # the file could not be read (or only partly): it is not indexed
    WARNING = "warning"  # indexed, but ReMe drops or misreads something in it
    INFO = "info"  # worth knowing; nothing is lost


class Code(StrEnum):
    """A diagnostic code: its value is the stable string shown in JSON and the CLI."""

    severity: Severity
    explanation: str

    def __new__(cls, value: str, severity: Severity, explanation: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.severity = severity
        member.explanation = explanation
        return member

    @classmethod
    def of(cls, value: str) -> Code:
        """The code whose value is ``value`` (what ``Code(value)`` does at run time, in a
        form the type checker can follow); ValueError when there is none."""
        member = cls._value2member_map_.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not a diagnostic code")
        return cast(Code, member)

    # reading the file
    TOO_LARGE = ("too-large", Severity.ERROR, "over the size limit (20 MB); skipped")
    VANISHED = ("vanished", Severity.ERROR, "deleted or replaced while it was being read")
    UNREADABLE = ("unreadable", Severity.ERROR, "cannot be opened, read or stat-ed; skipped")
    UNREADABLE_DIR = (
        "unreadable-dir",
        Severity.ERROR,
        "a directory that cannot be listed; the memories in it are missing",
    )
    SYMLINK_LOOP = ("symlink-loop", Severity.WARNING, "a symlink that loops; not followed")
    SYMLINK_OUTSIDE = (
        "symlink-outside",
        Severity.WARNING,
        "a symlink that leads outside the workspace; not followed",
    )
    NOT_REGULAR = (
        "not-regular",
        Severity.ERROR,
        "a FIFO, device or socket where a memory should be; never opened",
    )
    STALE_TEMP = (
        "stale-temp",
        Severity.INFO,
        "a temporary file left by an interrupted tag edit; never indexed, removed by a later edit",
    )
    BINARY = ("binary", Severity.WARNING, "NUL bytes: probably not text, indexed as text anyway")
    INVALID_UTF8 = (
        "invalid-utf8",
        Severity.WARNING,
        "not valid UTF-8; indexed with replacement characters, as ReMe does",
    )
    EMPTY = ("empty", Severity.INFO, "the file is empty")
    # frontmatter ReMe ignores as a whole (tags included)
    BOM = ("bom", Severity.WARNING, "starts with a byte-order mark, so ReMe sees no frontmatter")
    YAML_INVALID = ("yaml-invalid", Severity.WARNING, "the frontmatter is not valid YAML")
    FRONTMATTER_TOO_COMPLEX = (
        "frontmatter-too-complex",
        Severity.WARNING,
        "the frontmatter expands past reme-tui's budget (alias bomb, deep nesting); ignored",
    )
    FRONTMATTER_NOT_MAPPING = (
        "frontmatter-not-mapping",
        Severity.WARNING,
        "the frontmatter is a list or a scalar, not a mapping",
    )
    FRONTMATTER_BAD_KEY = (
        "frontmatter-bad-key",
        Severity.WARNING,
        "a frontmatter key is not a string (a date or a number)",
    )
    NAME_NOT_STRING = ("name-not-string", Severity.WARNING, "`name` is not a string; quote it")
    DESCRIPTION_NOT_STRING = (
        "description-not-string",
        Severity.WARNING,
        "`description` is not a string; quote it",
    )
    # tags
    TAGS_NOT_LIST = (
        "tags-not-list",
        Severity.WARNING,
        "the tag entry is a scalar, not a list, so ReMe reads no tag from it",
    )
    TAG_INVALID = (
        "tag-invalid",
        Severity.WARNING,
        "a tag item that is empty, not text, or has no letter or digit; dropped",
    )
    TAG_TOO_LONG = ("tag-too-long", Severity.WARNING, "a tag over 64 characters; dropped")
    TAG_OVER_LIMIT = (
        "tag-over-limit",
        Severity.WARNING,
        "a tag past the first three distinct ones; ReMe ignores it",
    )
    TAG_DUPLICATE = (
        "tag-duplicate",
        Severity.INFO,
        "a tag that repeats an earlier one after normalization",
    )
    TAG_LOOKALIKE = (
        "tag-lookalike",
        Severity.WARNING,
        "a tag with characters that draw nothing or only look Latin (zero-width, BOM, NFD, "
        "Cyrillic а); ReMe reads it as a tag of its own",
    )
    NO_TAGS = ("no-tags", Severity.INFO, "no tags, so tag filters never find this memory")
    # links
    LINK_DANGLING = (
        "link-dangling",
        Severity.WARNING,
        "a wikilink whose target is not a memory in this workspace "
        "(100 listed a memory, the rest counted)",
    )
    LINKS_TOO_MANY = (
        "links-too-many",
        Severity.WARNING,
        "over 10,000 distinct wikilinks in one memory; the rest are counted, not kept",
    )
    SOURCE_MISSING = (
        "source-missing",
        Severity.WARNING,
        "a provenance link (a session transcript, a resource, an image) whose file is missing",
    )
    DAY_INDEX_STALE = (
        "day-index-stale",
        Severity.WARNING,
        "a day-index entry that names a gone file, or a name or tags the note no longer has",
    )
    # agent junk tags (ReMe's own auto-tag prompt forbids them); each has an exact fix
    TAG_COMMA_JOINED = (
        "tag-comma-joined",
        Severity.WARNING,
        "several tags joined by commas in one item; fix: separate items",
    )
    TAG_LIST_STRING = (
        "tag-list-string",
        Severity.WARNING,
        "a list written as text (a whole list, or a piece with brackets); fix: a real list",
    )
    TAG_DEBRIS = ("tag-debris", Severity.WARNING, "a tag wrapped in stray quotes; fix: strip them")
    TAG_DATE = ("tag-date", Severity.WARNING, "a date used as a tag; fix: remove it")
    TAG_WHITESPACE = (
        "tag-whitespace",
        Severity.WARNING,
        "a tag with stray whitespace, or differing from a tag in use only by whitespace",
    )


def markdown_table() -> str:
    """The README's table of codes (one row per code, in declaration order)."""
    rows = ["| Code | Severity | Meaning |", "| --- | --- | --- |"]
    rows += [f"| `{code}` | {code.severity} | {code.explanation} |" for code in Code]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
