"""Text cut to fit a cell, keeping the part that tells things apart."""

from __future__ import annotations

from rich.cells import cell_len

ELLIPSIS = "…"


def cut_left(path: str, width: int) -> str:
    """``path`` in at most ``width`` cells, cut from the left: the file name is what tells
    two memories apart (``…/1on1-alice.md``, not ``daily/2026-…``)."""
    if cell_len(path) <= width:
        return path
    if width <= 1:
        return ELLIPSIS[:width]
    kept = ""
    for char in reversed(path):
        if cell_len(kept) + cell_len(char) > width - 1:
            break
        kept = char + kept
    if "/" in kept:  # whole folder names read better than a folder's last letters
        kept = kept[kept.index("/") :]
    return ELLIPSIS + kept


def cut_right(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its end replaced by ``…`` when it is longer."""
    if cell_len(text) <= width:
        return text
    kept = ""
    for char in text:
        if cell_len(kept) + cell_len(char) > width - 1:
            break
        kept += char
    return kept + ELLIPSIS
