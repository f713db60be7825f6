"""Turn ReMe ``[[path.md#anchor|alias]]`` wikilinks into Markdown links the preview can follow."""

from __future__ import annotations

import re
from collections.abc import Callable

from reme_tui.engine.links import Wikilink, find_wikilinks

WIKI_SCHEME = "wiki:"
_FENCE = re.compile(r"^\s*(```|~~~)")


def _escape_label(text: str) -> str:
    return re.sub(r"([\\\[\]*_`])", r"\\\1", text)


def linkify(body: str, exists: Callable[[str], bool]) -> str:
    """Rewrite wikilinks outside code fences; dangling ones become struck-through text.

    Line count is preserved so Markdown block line ranges still map to file lines.
    """

    def replace(link: Wikilink) -> str:
        label = link.alias or (f"{link.target}#{link.anchor}" if link.anchor else link.target)
        if not exists(link.target):
            return f"~~{_escape_label(label)}~~ ⚠"
        href = f"{WIKI_SCHEME}{link.target}" + (f"#{link.anchor}" if link.anchor else "")
        return f"[{_escape_label(label)}](<{href}>)"

    def rewrite(line: str) -> str:
        parts: list[str] = []
        done = 0
        for link in find_wikilinks(line):
            parts += [line[done : link.start], replace(link)]
            done = link.end
        return "".join(parts) + line[done:]

    lines = body.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence and "[[" in line:
            lines[i] = rewrite(line)
    return "\n".join(lines)


def parse_wiki_href(href: str) -> tuple[str, str | None] | None:
    """``wiki:daily/x.md#a`` -> (``daily/x.md``, ``a``); None for other links."""
    if not href.startswith(WIKI_SCHEME):
        return None
    target, _, anchor = href[len(WIKI_SCHEME) :].partition("#")
    return target, anchor or None
