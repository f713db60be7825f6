"""Where a memory's frontmatter is: the one rule, for reading, editing and merging.

A file has frontmatter when its first line, stripped, is ``---`` and a later line,
stripped, is ``---`` (the first such line closes it) — ReMe's rule. ``closing_fence``
applies it to lines however the caller cut them: ``split_frontmatter`` (what ReMe
indexes) cuts with ``str.splitlines`` after normalizing newlines, the editor
(``locate.py``) keeps every byte and cuts on ``\n`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .bounded import load_yaml

BOM = "\ufeff"
FENCE = "---"


def closing_fence(lines: Sequence[str]) -> int | None:
    """Index of the line closing the frontmatter; None when ``lines`` have none."""
    if not lines or lines[0].strip() != FENCE:
        return None
    return next((i for i in range(1, len(lines)) if lines[i].strip() == FENCE), None)


def normalize_newlines(text: str) -> str:
    """Turn CRLF and lone CR into LF, as the reference does right after decoding a file."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Split a decoded file into ``(yaml_text, body, body_first_line)`` like the reference.

    ``text`` is the file decoded as UTF-8 (the reference uses ``errors="replace"``);
    CRLF / CR are normalized to LF first, as the reference does on read. Then
    lines are ``str.splitlines`` lines (so ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``,
    ``\\x85``, U+2028 and U+2029 also end a line, both here and in the body's
    line numbering). The file has frontmatter when its first line, stripped,
    is ``---`` and a later line, stripped, is ``---`` (the first such line
    closes it). Surrounding whitespace is allowed (``"  ---  "``), other
    variants are not (``----``, ``--- #``, ``...``, ``+++``).

    * ``yaml_text`` is exactly the string the reference hands to
      ``yaml.safe_load``: the lines in between, joined and ``strip()``-ed (so
      it may be ``""``). ``None`` when there is no frontmatter.
    * ``body`` is everything after the closing line (newline-normalized), or
      the whole normalized text when there is no frontmatter.
    * ``body_first_line`` is the 1-based line of the body's first line in the
      whole file.

    A UTF-8 BOM is *not* stripped by the reference (it decodes with ``utf-8``,
    and ``"\\ufeff---".strip()`` keeps the BOM), so a file starting with a BOM
    has no frontmatter: its ``---`` block is indexed as body text. We match that.
    """
    text = normalize_newlines(text)
    lines = text.splitlines(keepends=True)
    close = closing_fence(lines)
    if close is None:
        return None, text, 1
    yaml_text = "".join(lines[1:close]).strip()
    return yaml_text, "".join(lines[close + 1 :]), close + 2


def loaded_tag_items(text: str, field_name: str) -> list[Any] | None:
    """The tag entry as YAML loads it; None when there is no frontmatter or the entry is
    absent or not a list. Raises yaml.YAMLError for invalid YAML (or over the budget).

    Unlike ReMe (``split_frontmatter``), a leading byte-order mark is skipped and the
    YAML text is not stripped: this reads what the tag editor would rewrite.
    """
    lines = text.removeprefix(BOM).splitlines(keepends=True)
    close = closing_fence(lines)
    if close is None:
        return None
    data = load_yaml("".join(lines[1:close]))
    value = data.get(field_name) if isinstance(data, dict) else None
    return value if isinstance(value, list) else None
