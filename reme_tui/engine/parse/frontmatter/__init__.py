"""Where a memory's frontmatter is (``split``: the one fence rule, for reading, editing and
merging) and text surgery on it: locate the tag entry, rewrite it, verify.

No I/O here: text in, text out. ``files.fileio`` reads and writes the files,
``tags.checks`` says what the editor shows before a save.
"""

from .bounded import DEFAULT_BUDGET, FrontmatterTooComplex, YamlBudget, load_yaml
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
from .split import BOM, loaded_tag_items, normalize_newlines, split_frontmatter

__all__ = [
    "BOM",
    "BOM_NOTE",
    "DEFAULT_BUDGET",
    "AddTag",
    "FrontmatterTooComplex",
    "RemoveTag",
    "SetTags",
    "TagOp",
    "YamlBudget",
    "apply_op",
    "effective_tags",
    "load_yaml",
    "loaded_tag_items",
    "normalize_newlines",
    "quote_scalar",
    "read_tags",
    "rewrite_tags",
    "split_frontmatter",
    "validate_tag",
]
