"""Text surgery on a memory's frontmatter: locate the tag entry, rewrite it, verify.

No I/O here: text in, text out. ``fileio`` reads and writes the files, ``tag_warnings``
says what the editor shows before a save.
"""

from ...errors import EditError, InvalidTag, UnsafeEditError
from .ops import (
    BOM_NOTE,
    AddTag,
    RemoveTag,
    SetTags,
    TagOp,
    apply_op,
    effective_tags,
    read_tags,
    rewrite_tags,
    validate_tag,
)
from .quoting import quote_scalar

__all__ = [
    "BOM_NOTE",
    "AddTag",
    "EditError",
    "InvalidTag",
    "RemoveTag",
    "SetTags",
    "TagOp",
    "UnsafeEditError",
    "apply_op",
    "effective_tags",
    "quote_scalar",
    "read_tags",
    "rewrite_tags",
    "validate_tag",
]
