"""Hostile workspaces: a fixture generator for the cases a real disk throws at the engine.

Each `HostileCase` builds its files under a workspace root and says what a healthy engine
must show afterwards: which memories are indexed, which are not, and which diagnostics
(path, code) the user should see. Cases that need a race or a denial (files vanishing
between listing and reading, permission errors while running as root) carry a `patch`
that installs the fault with pytest's monkeypatch for the duration of the check.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import memory, write_workspace

HUGE_BYTES = 21 * 1024 * 1024  # over the 20 MB default limit
DEEP_LEVELS = 200
WIDE_FILES = 10_000

Patch = Callable[[Path, pytest.MonkeyPatch], None]


@dataclass(frozen=True)
class HostileCase:
    """One hostile situation: how to build it and what a healthy engine shows after."""

    name: str
    build: Callable[[Path], None]
    indexed: frozenset[str] = frozenset()  # memories that must be searchable
    not_indexed: frozenset[str] = frozenset()  # paths that must not be memories
    diagnostics: frozenset[tuple[str, str]] = frozenset()  # (path, code) the user must see
    word: str = "budget"  # a word every indexed memory of the case contains
    patch: Patch | None = None  # a fault installed while the engine reads the files
    settled_by_apply: tuple[str, ...] = ()  # paths a watcher would report after the fault
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _ok(root: Path) -> None:
    write_workspace(root, {"digest/ok.md": memory("budget baseline\n", tags=["base"])})


# -- builders -------------------------------------------------------------------------


def build_huge(root: Path) -> None:
    """A sparse file over 20 MB named .md (instant to create, no disk used)."""
    _ok(root)
    path = root / "digest" / "huge.md"
    with open(path, "wb") as handle:
        handle.write(b"---\nmemory_tags: [huge]\n---\nbudget\n")
        handle.truncate(HUGE_BYTES)


def build_binary(root: Path) -> None:
    _ok(root)
    blob = bytes(range(256)) * 64 + b"\x00budget\x00" + bytes(range(255, -1, -1)) * 8
    write_workspace(
        root, {"digest/blob.md": blob, "daily/2026-01-02/image.md": b"\x89PNG\r\n\x1a\n\x00"}
    )


def build_invalid_utf8(root: Path) -> None:
    _ok(root)
    write_workspace(
        root,
        {
            "digest/latin1.md": "---\nmemory_tags: [café]\n---\ncafé budget\n".encode("latin-1"),
            "digest/truncated.md": "budget 日本".encode()[:-1] + b"\n",
            "digest/overlong.md": b"budget \xc0\xaf \xed\xa0\x80\n",
        },
    )


def build_crlf_bom(root: Path) -> None:
    crlf = b"---\r\nname: N\r\nmemory_tags: [alice]\r\n---\r\nbudget line\r\n\r\nmore\r\n"
    write_workspace(
        root,
        {
            "digest/crlf.md": crlf,
            "digest/bom.md": b"\xef\xbb\xbf" + crlf,
            "digest/cr-only.md": crlf.replace(b"\r\n", b"\r"),
            "digest/mixed.md": b"---\nmemory_tags: [bob]\r\n---\rbudget\n",
        },
    )


def deep_rel(levels: int = DEEP_LEVELS) -> str:
    return "digest/" + "/".join(f"d{i}" for i in range(levels)) + "/deep.md"


def build_deep(root: Path) -> None:
    _ok(root)
    write_workspace(root, {deep_rel(): memory("budget at the bottom\n", tags=["deep"])})


def wide_rel(i: int) -> str:
    return f"daily/2026-02-01/note-{i:05d}.md"


def build_wide(root: Path) -> None:
    """10,000 small memories in one directory (written with raw os calls: fast)."""
    folder = root / "daily" / "2026-02-01"
    folder.mkdir(parents=True)
    for i in range(WIDE_FILES):
        fd = os.open(folder / f"note-{i:05d}.md", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, f"---\nmemory_tags: [t{i % 7}]\n---\nbudget w{i}\n".encode())
        finally:
            os.close(fd)


ODD_NAMES = (
    "digest/with space.md",
    "digest/  two  spaces .md",
    "digest/ünïcødé 日本語.md",
    "digest/emoji 🧠.md",
    "digest/-leading-dash.md",
    "digest/--double.md",
    "digest/-/dash-dir.md",
    "daily/2026-03-01/#hash [[x]].md",
    "digest/UPPER.MD",
    "digest/tab\there.md",
)
# A file name that is not valid UTF-8 (as os.listdir hands it to Python).
UNDECODABLE = "digest/caf" + os.fsdecode(b"\xe9") + ".md"


def build_odd_names(root: Path) -> None:
    write_workspace(
        root, {name: memory(f"budget {i}\n", tags=["odd"]) for i, name in enumerate(ODD_NAMES)}
    )
    with open(os.fsencode(root) + b"/digest/caf\xe9.md", "wb") as handle:
        handle.write(memory("budget latin name\n").encode())


def build_symlink_loops(root: Path) -> None:
    _ok(root)
    digest = root / "digest"
    (digest / "loop").symlink_to(digest)  # directory links back to its parent
    (digest / "sub").mkdir()
    (digest / "sub" / "up").symlink_to("..")  # relative loop
    (digest / "self.md").symlink_to(digest / "self.md")
    (digest / "ping.md").symlink_to(digest / "pong.md")
    (digest / "pong.md").symlink_to(digest / "ping.md")


def build_symlinks_outside(root: Path) -> None:
    _ok(root)
    outside = root.parent / f"{root.name}-outside"
    write_workspace(outside, {"secret.md": "budget secret\n", "dir/leak.md": "budget leak\n"})
    (root / "digest" / "leak.md").symlink_to(outside / "secret.md")
    (root / "digest" / "leakdir").symlink_to(outside / "dir")
    (root / "digest" / "etc").symlink_to("/etc")
    (root / "digest" / "inside.md").symlink_to(root / "digest" / "ok.md")


def build_unreadable(root: Path) -> None:
    _ok(root)
    write_workspace(
        root,
        {
            "digest/locked.md": memory("budget locked\n", tags=["locked"]),
            "digest/closed/inner.md": memory("budget inner\n", tags=["inner"]),
        },
    )


def deny_permissions(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As if `digest/locked.md` and `digest/closed/` were chmod 000 (tests run as root)."""
    real_open = os.open
    real_scandir = os.scandir
    locked = str(root / "digest" / "locked.md")
    closed = str(root / "digest" / "closed")

    def open_denied(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(file) == locked or os.fspath(file).startswith(closed + os.sep):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    def scandir_denied(path=".", *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path) == closed:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_denied)
    monkeypatch.setattr(os, "scandir", scandir_denied)


def build_racy(root: Path) -> None:
    _ok(root)
    write_workspace(
        root,
        {
            "digest/vanishing.md": memory("budget vanishing\n", tags=["gone"]),
            "digest/replaced.md": memory("budget original\n", tags=["before"]),
            "digest/to-dir.md": memory("budget becomes a folder\n"),
        },
    )


def race_listing_and_reading(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the scan listing a file and the engine opening it: one file is deleted,
    one replaced by a new file (editor save-by-rename), one replaced by a directory."""
    real_open = os.open
    digest = root / "digest"
    fired: set[str] = set()

    def racing_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        name = os.path.basename(os.fspath(file))
        if os.path.dirname(os.fspath(file)) == str(digest) and name not in fired:
            if name == "vanishing.md":
                fired.add(name)
                os.unlink(file)
            elif name == "replaced.md":
                fired.add(name)
                tmp = digest / ".replaced.md.tmp"
                with builtins.open(tmp, "w", encoding="utf-8") as handle:
                    handle.write(memory("budget replacement\n", tags=["after"]))
                os.replace(tmp, file)
            elif name == "to-dir.md":
                fired.add(name)
                os.unlink(file)
                os.mkdir(file)
                inner = os.path.join(file, "inner.md")
                with builtins.open(inner, "w", encoding="utf-8") as handle:
                    handle.write(memory("budget inside new folder\n"))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", racing_open)


# -- the catalogue ------------------------------------------------------------------------

CASES: tuple[HostileCase, ...] = (
    HostileCase(
        "huge",
        build_huge,
        indexed=frozenset({"digest/ok.md"}),
        not_indexed=frozenset({"digest/huge.md"}),
        diagnostics=frozenset({("digest/huge.md", "too-large")}),
    ),
    HostileCase(
        "binary",
        build_binary,
        indexed=frozenset({"digest/ok.md", "digest/blob.md"}),
        diagnostics=frozenset(
            {("digest/blob.md", "binary"), ("daily/2026-01-02/image.md", "binary")}
        ),
    ),
    HostileCase(
        "invalid-utf8",
        build_invalid_utf8,
        indexed=frozenset(
            {"digest/ok.md", "digest/latin1.md", "digest/truncated.md", "digest/overlong.md"}
        ),
        diagnostics=frozenset(
            {
                ("digest/latin1.md", "invalid-utf8"),
                ("digest/truncated.md", "invalid-utf8"),
                ("digest/overlong.md", "invalid-utf8"),
            }
        ),
    ),
    HostileCase(
        "crlf-bom",
        build_crlf_bom,
        indexed=frozenset(
            {"digest/crlf.md", "digest/bom.md", "digest/cr-only.md", "digest/mixed.md"}
        ),
        diagnostics=frozenset({("digest/bom.md", "bom")}),
        tags={
            "digest/crlf.md": ("alice",),
            "digest/cr-only.md": ("alice",),
            "digest/mixed.md": ("bob",),
        },
    ),
    HostileCase(
        "deep",
        build_deep,
        indexed=frozenset({"digest/ok.md", deep_rel()}),
        tags={deep_rel(): ("deep",)},
    ),
    HostileCase(
        "odd-names",
        build_odd_names,
        indexed=frozenset(ODD_NAMES) | {UNDECODABLE},
    ),
    HostileCase(
        "symlink-loops",
        build_symlink_loops,
        indexed=frozenset({"digest/ok.md"}),
        not_indexed=frozenset({"digest/self.md", "digest/ping.md", "digest/pong.md"}),
        diagnostics=frozenset(
            {
                ("digest/loop", "symlink-loop"),
                ("digest/sub/up", "symlink-loop"),
                ("digest/self.md", "symlink-loop"),
                ("digest/ping.md", "symlink-loop"),
            }
        ),
    ),
    HostileCase(
        "symlinks-outside",
        build_symlinks_outside,
        indexed=frozenset({"digest/ok.md", "digest/inside.md"}),
        not_indexed=frozenset({"digest/leak.md", "digest/leakdir/leak.md"}),
        diagnostics=frozenset(
            {
                ("digest/leak.md", "symlink-outside"),
                ("digest/leakdir", "symlink-outside"),
                ("digest/etc", "symlink-outside"),
            }
        ),
    ),
    HostileCase(
        "permission-denied",
        build_unreadable,
        indexed=frozenset({"digest/ok.md"}),
        not_indexed=frozenset({"digest/locked.md", "digest/closed/inner.md"}),
        diagnostics=frozenset(
            {("digest/locked.md", "unreadable"), ("digest/closed", "unreadable-dir")}
        ),
        patch=deny_permissions,
    ),
    HostileCase(
        "vanish-or-replace-mid-read",
        build_racy,
        indexed=frozenset({"digest/ok.md", "digest/replaced.md"}),
        not_indexed=frozenset({"digest/vanishing.md"}),
        diagnostics=frozenset({("digest/vanishing.md", "vanished")}),
        patch=race_listing_and_reading,
        # What the watcher reports for those writes; applying them settles the index.
        settled_by_apply=("digest/vanishing.md", "digest/replaced.md", "digest/to-dir.md"),
        tags={"digest/replaced.md": ("after",)},
    ),
)

CASES_BY_NAME = {case.name: case for case in CASES}
