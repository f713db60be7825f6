"""Turn ReMe ``[[path.md#anchor|alias]]`` wikilinks into Markdown links the preview can follow."""

from __future__ import annotations

import re
from collections.abc import Callable

from reme_tui.engine.parse import Wikilink, find_wikilinks

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


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EMBED_MAX_LINES = 40


def _slug(text: str) -> str:
    """GitHub-like heading slug: lowercase, punctuation dropped, spaces to dashes."""
    kept = re.sub(r"[^\w\- ]", "", text.strip().casefold())
    return re.sub(r"\s+", "-", kept)


def find_heading(lines: list[str], anchor: str) -> tuple[int, int] | None:
    """(index of the heading named ``anchor``, index after its section) in ``lines``; the
    anchor matches the heading's text ignoring case, or its slug."""
    wanted = {anchor.strip().casefold(), _slug(anchor)}
    in_fence = False
    found: tuple[int, int] | None = None
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else _HEADING.match(line)
        if match is None:
            continue
        level = len(match.group(1))
        if found is not None:
            if level <= found[1]:
                return found[0], index
            continue
        title = match.group(2)
        if title.casefold() in wanted or _slug(title) in wanted:
            found = (index, level)
    return (found[0], len(lines)) if found is not None else None


def section_lines(body: str, anchor: str | None) -> list[str] | None:
    """The lines of the section ``anchor`` names (the whole body without one); None when
    the memory has no such heading."""
    lines = body.split("\n")
    if not anchor:
        return lines
    span = find_heading(lines, anchor)
    return None if span is None else lines[span[0] : span[1]]


def expand_embeds(
    body: str, section: Callable[[str, str | None], list[str] | None]
) -> tuple[str, list[tuple[int, int]]]:
    """Render each ``![[target#Section]]`` line's embedded section as a quote below it.

    Returns the new body and, for the line-range mapping, (line index, lines inserted
    after it) for every embed.
    """
    lines = body.split("\n")
    out: list[str] = []
    inserted: list[tuple[int, int]] = []
    in_fence = False
    for index, line in enumerate(lines):
        out.append(line)
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or "![[" not in line:
            continue
        added: list[str] = []
        for link in find_wikilinks(line):
            if not link.embed:
                continue
            name = f"{link.target}#{link.anchor}" if link.anchor else link.target
            found = section(link.target, link.anchor)
            if found is None:
                added += ["", f"> *embedded {_escape_label(name)}: not found*"]
                continue
            shown = found[:EMBED_MAX_LINES]
            added += ["", *(f"> {text}" if text.strip() else ">" for text in shown)]
            if len(found) > len(shown):
                added.append(f"> *… {len(found) - len(shown)} more lines in {name}*")
        if added:
            added.append("")
            out += added
            inserted.append((index, len(added)))
    return "\n".join(out), inserted


def rendered_index(index: int, inserted: list[tuple[int, int]]) -> int:
    """Where body line ``index`` ended up after ``expand_embeds`` inserted lines."""
    return index + sum(count for at, count in inserted if at < index)
