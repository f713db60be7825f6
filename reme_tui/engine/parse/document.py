"""One file -> one Memory: frontmatter (with ReMe's voiding rules), tags, chunks, links.

Everything the reference silently drops is recorded as a Diagnostic on the Memory.

python-frontmatter (named in the product brief) is not used: ReMe's split differs in ways
that change results. On invalid YAML it raises where ReMe still removes the block from the
body and indexes the rest; it drops the body's final newline, which shifts chunk text; and
it reports no line offset, which every chunk range and diagnostic needs. The reference's
rule lives in `chunking.split_frontmatter`, checked against reme-ai goldens.
"""

from __future__ import annotations

import hashlib
import re
import reprlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..codes import Code
from ..files import FileTooLarge, date_from_path, read_regular
from ..records import Diagnostic, Memory
from ..tags import (
    DEFAULT_TAG_FIELD,
    MAX_TAG_LENGTH,
    MAX_TAGS_PER_FILE,
    how_it_deceives,
    walk_tag_items,
)
from .chunking import chunk_body
from .frontmatter.bounded import FrontmatterTooComplex, load_yaml
from .frontmatter.split import split_frontmatter
from .wikilinks import MAX_LINKS_PER_MEMORY, LinkScan, parse_field_links, scan_links

DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024
_BINARY_SNIFF_BYTES = 8192

# The codes that void a whole frontmatter block (tags included): ReMe reads it as empty.
VOIDING_CODES = frozenset(
    {
        Code.YAML_INVALID,
        Code.FRONTMATTER_TOO_COMPLEX,
        Code.FRONTMATTER_NOT_MAPPING,
        Code.FRONTMATTER_BAD_KEY,
        Code.NAME_NOT_STRING,
        Code.DESCRIPTION_NOT_STRING,
    }
)
_NOT_STRING = {"name": Code.NAME_NOT_STRING, "description": Code.DESCRIPTION_NOT_STRING}

_TAG_REASONS = {
    "type": "is not a string or integer",
    "empty": "is empty",
    "too-long": f"is longer than {MAX_TAG_LENGTH} characters",
    "no-alnum": "has no letter or digit",
}

_PREVIEW_CHARS = 48  # a hostile 1 MB value must not be copied whole into every message
_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = _PREVIEW_CHARS


def preview_value(item: Any) -> str:
    """A short, escaped (repr) view of a frontmatter value; a long string says how long
    it was."""
    if isinstance(item, str) and len(item) > _PREVIEW_CHARS:
        return f"{item[:_PREVIEW_CHARS]!r}... ({len(item):,} characters)"
    return _SHORT_REPR.repr(item)


@dataclass(frozen=True, slots=True)
class RawFile:
    """Bytes read from disk with the stat taken when they were read."""

    data: bytes
    size: int
    mtime_ns: int
    ino: int = 0
    ctime_ns: int = 0


class ReadFailure(Exception):
    """A file could not be read; carries the diagnostic to show."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def read_file(
    abs_path: str | Path,
    rel: str,
    max_bytes: int = DEFAULT_MAX_FILE_BYTES,
    *,
    inside: str | None = None,
) -> RawFile:
    """Read a memory's bytes; raises ReadFailure (vanished, unreadable, not a regular
    file, too large, or outside ``inside`` when given). Never blocks on a FIFO."""
    try:
        data, st = read_regular(abs_path, max_bytes, inside=inside)
    except FileTooLarge as exc:
        raise ReadFailure(
            Diagnostic(
                rel,
                None,
                Code.TOO_LARGE,
                f"file is {exc.size / 1_048_576:.1f} MB, over the "
                f"{max_bytes / 1_048_576:.0f} MB limit; not indexed",
            )
        ) from None
    except FileNotFoundError:
        raise ReadFailure(
            Diagnostic(rel, None, Code.VANISHED, "file disappeared while it was being read")
        ) from None
    except IsADirectoryError:
        raise ReadFailure(Diagnostic(rel, None, Code.UNREADABLE, "is a directory")) from None
    except OSError as exc:
        raise ReadFailure(
            Diagnostic(rel, None, Code.UNREADABLE, f"cannot read: {exc.strerror or exc}")
        ) from None
    return RawFile(
        data=data, size=len(data), mtime_ns=st.st_mtime_ns, ino=st.st_ino, ctime_ns=st.st_ctime_ns
    )


def content_hash(data: bytes) -> str:
    """A short, fast digest of a file's bytes (change detection, not security)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def decode_text(data: bytes) -> tuple[str, int | None]:
    """UTF-8 with replacement, as ReMe indexes; returns the text and the first bad offset."""
    try:
        text = data.decode("utf-8")
        bad_offset = None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        bad_offset = exc.start
    return text.replace("\r\n", "\n").replace("\r", "\n"), bad_offset


def parse_memory(
    rel: str,
    raw: RawFile,
    *,
    tag_field: str = DEFAULT_TAG_FIELD,
) -> Memory:
    """Parse one memory file's bytes into a Memory record."""
    diagnostics: list[Diagnostic] = []
    text, bad_offset = decode_text(raw.data)
    if b"\x00" in raw.data[:_BINARY_SNIFF_BYTES]:
        diagnostics.append(
            Diagnostic(
                rel, None, Code.BINARY, "looks like a binary file (NUL bytes); indexed as text"
            )
        )
    elif bad_offset is not None:
        line = raw.data.count(b"\n", 0, bad_offset) + 1
        diagnostics.append(
            Diagnostic(
                rel,
                line,
                Code.INVALID_UTF8,
                f"invalid UTF-8 at byte {bad_offset}; indexed with replacement characters",
            )
        )
    if not text.strip():
        diagnostics.append(Diagnostic(rel, None, Code.EMPTY, "file is empty"))

    yaml_text, body, body_first_line = split_frontmatter(text)
    frontmatter, fm_diagnostics = _load_frontmatter(rel, yaml_text)
    diagnostics.extend(fm_diagnostics)
    if text.startswith("\ufeff---"):
        diagnostics.append(
            Diagnostic(
                rel,
                1,
                Code.BOM,
                "file starts with a byte-order mark, so ReMe does not see its frontmatter",
            )
        )

    tags, spellings, tag_diagnostics = _extract_tags(rel, frontmatter, tag_field, yaml_text)
    diagnostics.extend(tag_diagnostics)

    voided = any(d.code in VOIDING_CODES for d in diagnostics)
    if not tags and not tag_diagnostics and not voided:
        diagnostics.append(
            Diagnostic(rel, None, Code.NO_TAGS, "memory has no tags, so tag filters never find it")
        )
    chunks = tuple(chunk_body(rel, body, body_first_line))
    scan = scan_links(body, body_first_line)
    if scan.dropped:
        diagnostics.append(_too_many_links(rel, scan))
    name = frontmatter.get("name") or None
    description = frontmatter.get("description") or None
    return Memory(
        path=rel,
        date=date_from_path(rel),
        name=name if isinstance(name, str) else None,
        description=description if isinstance(description, str) else None,
        tags=tuple(tags),
        tag_spellings=tuple(spellings),
        chunks=chunks,
        links=tuple(scan.links),
        diagnostics=tuple(diagnostics),
        size=raw.size,
        mtime_ns=raw.mtime_ns,
        ino=raw.ino,
        ctime_ns=raw.ctime_ns,
        content_hash=content_hash(raw.data),
        frontmatter_end_line=body_first_line - 1 if yaml_text is not None else 0,
        body_start_line=body_first_line,
        frontmatter=frontmatter,
        field_links=tuple(
            parse_field_links(frontmatter, lambda key: _key_line(yaml_text or "", key))
        ),
        tag_line=_key_line(yaml_text or "", tag_field) if tag_field in frontmatter else None,
    )


def _load_frontmatter(rel: str, yaml_text: str | None) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The frontmatter mapping ReMe would use (empty when voided), plus why it was voided."""
    if yaml_text is None:
        return {}, []
    try:
        data = load_yaml(yaml_text.strip()) or {}
    except FrontmatterTooComplex as exc:
        return {}, [_too_complex(rel, exc)]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 2
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return {}, [
            Diagnostic(
                rel,
                line,
                Code.YAML_INVALID,
                f"frontmatter is not valid YAML ({problem}); ReMe ignores all of it, tags included",
            )
        ]
    if not isinstance(data, dict):
        return {}, [
            Diagnostic(
                rel,
                2,
                Code.FRONTMATTER_NOT_MAPPING,
                f"frontmatter is a {type(data).__name__}, not a mapping; ReMe ignores it",
            )
        ]
    if any(not isinstance(key, str) for key in data):
        bad = next(key for key in data if not isinstance(key, str))
        return {}, [
            Diagnostic(
                rel,
                _key_line(yaml_text, str(bad)),
                Code.FRONTMATTER_BAD_KEY,
                f"frontmatter key {preview_value(bad)} is not a string; "
                "ReMe ignores the whole frontmatter",
            )
        ]
    for field in _NOT_STRING:
        if field in data and not isinstance(data[field], str):
            return {}, [
                Diagnostic(
                    rel,
                    _key_line(yaml_text, field),
                    _NOT_STRING[field],
                    f"`{field}` is {_describe_value(data[field])}, not a string, so ReMe ignores "
                    "the whole frontmatter, tags included; quote it to fix",
                )
            ]
    return data, []


def _too_complex(rel: str, exc: FrontmatterTooComplex) -> Diagnostic:
    """ReMe 0.4.2.0 has no budget: on such a block it runs out of memory, recurses too
    deep, or loads it whole (see ``frontmatter.bounded``); reme-tui ignores the block
    like invalid YAML and indexes the body."""
    mark = exc.problem_mark
    return Diagnostic(
        rel,
        mark.line + 2 if mark is not None else 2,
        Code.FRONTMATTER_TOO_COMPLEX,
        f"frontmatter {exc.problem}, over reme-tui's budget; ignored as a whole (tags "
        "included) so one file cannot exhaust memory; the body is indexed",
    )


def _too_many_links(rel: str, scan: LinkScan) -> Diagnostic:
    """Links past the per-memory budget (``wikilinks.MAX_LINKS_PER_MEMORY``): ReMe 0.4.2.0
    gives no answer on such a file within 600 s; reme-tui keeps the first ones and says so."""
    return Diagnostic(
        rel,
        scan.first_dropped_line,
        Code.LINKS_TOO_MANY,
        f"{scan.dropped:,} more distinct wikilinks from here on, past the first "
        f"{MAX_LINKS_PER_MEMORY:,}, are not kept: no neighbours or link checks for them "
        "(their text is still searched)",
    )


def _describe_value(value: Any) -> str:
    """`a date (2026-04-05)`, `an int (2026)`, `empty` - for messages a person reads."""
    if value is None:
        return "empty"
    kind = type(value).__name__
    article = "an" if kind[0] in "aeiou" else "a"
    shown = value.isoformat() if hasattr(value, "isoformat") else preview_value(value)
    return f"{article} {kind} ({shown})"


def _extract_tags(
    rel: str, frontmatter: dict[str, Any], field: str, yaml_text: str | None
) -> tuple[list[str], list[tuple[str, str]], list[Diagnostic]]:
    """Canonical tags as ReMe keeps them, original spellings, and what was dropped."""
    if field not in frontmatter:
        return [], [], []
    value = frontmatter[field]
    line = _key_line(yaml_text or "", field)
    if not isinstance(value, list):
        if value is None:
            return [], [], []
        return (
            [],
            [],
            [
                Diagnostic(
                    rel,
                    line,
                    Code.TAGS_NOT_LIST,
                    f"`{field}` is a {type(value).__name__} ({preview_value(value)}), "
                    "not a list, so ReMe reads "
                    "no tags; write it as a list",
                )
            ],
        )
    tags: list[str] = []
    spellings: list[tuple[str, str]] = []
    diagnostics: list[Diagnostic] = []
    over_limit: list[Any] = []
    for walked in walk_tag_items(value):
        item = walked.item
        if walked.canonical is None:
            reason = _TAG_REASONS.get(walked.outcome, "is invalid")
            code = Code.TAG_TOO_LONG if walked.outcome == "too-long" else Code.TAG_INVALID
            diagnostics.append(
                Diagnostic(rel, line, code, f"tag {preview_value(item)} {reason}; dropped")
            )
        elif walked.outcome == "duplicate":
            diagnostics.append(
                Diagnostic(
                    rel,
                    line,
                    Code.TAG_DUPLICATE,
                    f"tag {preview_value(item)} repeats {walked.canonical!r} after "
                    "normalization; dropped",
                )
            )
        elif walked.outcome == "over-limit":
            over_limit.append(item)
        else:
            tags.append(walked.canonical)
            spellings.append((walked.canonical, str(item)))
            deceives = how_it_deceives(walked.canonical)
            if deceives is not None:
                diagnostics.append(
                    Diagnostic(
                        rel,
                        line,
                        Code.TAG_LOOKALIKE,
                        f"tag {preview_value(item)} {deceives}: it looks like another tag "
                        "but ReMe reads it as a tag of its own",
                    )
                )
    if over_limit:
        # One per file: 10,000 tags must not become 9,997 diagnostics.
        more = f" and {len(over_limit) - 1:,} more" if len(over_limit) > 1 else ""
        diagnostics.append(
            Diagnostic(
                rel,
                line,
                Code.TAG_OVER_LIMIT,
                f"tag {preview_value(over_limit[0])}{more} past the first {MAX_TAGS_PER_FILE}; "
                "ReMe ignores them",
            )
        )
    return tags, spellings, diagnostics


def _key_line(yaml_text: str, key: str) -> int | None:
    """1-based file line of a top-level key in the frontmatter (frontmatter starts at line 2)."""
    pattern = re.compile(rf"^['\"]?{re.escape(key)}['\"]?\s*:")
    for index, line in enumerate(yaml_text.split("\n")):
        if pattern.match(line):
            return index + 2
    return None
