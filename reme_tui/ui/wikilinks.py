"""Turn ReMe ``[[path.md#anchor|alias]]`` wikilinks into Markdown links the preview can follow."""

from __future__ import annotations

import re
from collections.abc import Callable

WIKI_SCHEME = "wiki:"
_WIKILINK = re.compile(r"!?\[\[([^\[\]|#\n]*)(?:#([^\[\]|\n]*))?(?:\|([^\[\]\n]*))?\]\]")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _escape_label(text: str) -> str:
    return re.sub(r"([\\\[\]*_`])", r"\\\1", text)


def linkify(body: str, exists: Callable[[str], bool]) -> str:
    """Rewrite wikilinks outside code fences; dangling ones become struck-through text.

    Line count is preserved so Markdown block line ranges still map to file lines.
    """

    def replace(match: re.Match[str]) -> str:
        target = match.group(1).strip()
        if not target:
            return match.group(0)
        anchor = (match.group(2) or "").strip()
        alias = (match.group(3) or "").strip()
        label = alias or (f"{target}#{anchor}" if anchor else target)
        if not exists(target):
            return f"~~{_escape_label(label)}~~ ⚠"
        href = f"{WIKI_SCHEME}{target}" + (f"#{anchor}" if anchor else "")
        return f"[{_escape_label(label)}](<{href}>)"

    lines = body.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence and "[[" in line:
            lines[i] = _WIKILINK.sub(replace, line)
    return "\n".join(lines)


def parse_wiki_href(href: str) -> tuple[str, str | None] | None:
    """``wiki:daily/x.md#a`` -> (``daily/x.md``, ``a``); None for other links."""
    if not href.startswith(WIKI_SCHEME):
        return None
    target, _, anchor = href[len(WIKI_SCHEME) :].partition("#")
    return target, anchor or None
