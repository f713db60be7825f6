"""Malformed files are indexed as far as they can be and reported; nothing stops a run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine, EngineConfig
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import write_workspace


def codes(engine: Engine, path: str) -> set[str]:
    return {d.code for d in engine.diagnostics() if d.path == path}


def found(engine: Engine, text: str) -> set[str]:
    return {h.path for h in engine.search(SearchQuery(text=text, limit=50)).hits}


def test_invalid_yaml_voids_frontmatter_but_body_is_indexed(tmp_path: Path) -> None:
    text = "---\nname: 'unclosed\nmemory_tags: [alice]\n---\nquarterly budget\n"
    engine = Engine.open(write_workspace(tmp_path, {"digest/a.md": text}))
    assert found(engine, "quarterly") == {"digest/a.md"}
    assert engine.memory("digest/a.md").tags == ()  # type: ignore[union-attr]
    diag = next(d for d in engine.diagnostics() if d.code == "yaml-invalid")
    assert diag.line is not None and diag.line >= 2


@pytest.mark.parametrize(
    ("frontmatter", "code"),
    [
        ("name: 2026-04-05\nmemory_tags: [alice]", "name-not-string"),
        ("name: 2026\nmemory_tags: [alice]", "name-not-string"),
        ("description: [a, b]\nmemory_tags: [alice]", "description-not-string"),
        ("- a\n- b", "frontmatter-not-mapping"),
        ("1: one\nmemory_tags: [alice]", "frontmatter-bad-key"),
    ],
)
def test_wrong_types_void_the_whole_block(tmp_path: Path, frontmatter: str, code: str) -> None:
    engine = Engine.open(
        write_workspace(tmp_path, {"digest/a.md": f"---\n{frontmatter}\n---\nbody words\n"})
    )
    assert engine.memory("digest/a.md").tags == ()  # type: ignore[union-attr]
    assert code in codes(engine, "digest/a.md")
    assert engine.list_tags() == []


def test_tag_problems_are_each_reported(tmp_path: Path) -> None:
    text = (
        "---\nmemory_tags:\n  - Alice\n  - alice\n  - '---'\n  - true\n"
        f"  - {'x' * 70}\n  - bob\n  - carol\n  - dave\n---\nbody\n"
    )
    engine = Engine.open(
        write_workspace(
            tmp_path, {"digest/a.md": text, "digest/b.md": "---\nmemory_tags: alice\n---\nb\n"}
        )
    )
    assert engine.memory("digest/a.md").tags == ("alice", "bob", "carol")  # type: ignore[union-attr]
    assert codes(engine, "digest/a.md") >= {
        "tag-duplicate",
        "tag-invalid",
        "tag-too-long",
        "tag-over-limit",
    }
    assert "tags-not-list" in codes(engine, "digest/b.md")


def test_non_utf8_binary_and_empty_files(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            "digest/latin1.md": "caf\xe9 budget\n".encode("latin-1"),
            "digest/blob.md": b"\x00\x01\x02budget\x00",
            "digest/empty.md": b"",
        },
    )
    engine = Engine.open(tmp_path)
    assert "invalid-utf8" in codes(engine, "digest/latin1.md")
    assert "binary" in codes(engine, "digest/blob.md")
    assert "empty" in codes(engine, "digest/empty.md")
    assert "digest/latin1.md" in found(engine, "budget")
    assert engine.memory("digest/empty.md").chunks == ()  # type: ignore[union-attr]


def test_crlf_and_bom(tmp_path: Path) -> None:
    crlf = b"---\r\nname: N\r\nmemory_tags: [alice]\r\n---\r\nbudget line\r\n"
    write_workspace(tmp_path, {"digest/crlf.md": crlf, "digest/bom.md": b"\xef\xbb\xbf" + crlf})
    engine = Engine.open(tmp_path)
    assert engine.memory("digest/crlf.md").tags == ("alice",)  # type: ignore[union-attr]
    assert "bom" in codes(engine, "digest/bom.md")


def test_huge_files_are_skipped_and_listed(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/big.md": "budget " * 100, "digest/ok.md": "budget\n"})
    engine = Engine.open(tmp_path, EngineConfig(max_file_bytes=200))
    assert engine.paths() == ["digest/ok.md"]
    assert "too-large" in codes(engine, "digest/big.md")


def test_symlinks_outside_and_loops_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_workspace(outside, {"secret.md": "budget secret\n"})
    root = tmp_path / "ws"
    write_workspace(root, {"digest/ok.md": "budget\n"})
    (root / "digest" / "leak.md").symlink_to(outside / "secret.md")
    (root / "digest" / "leakdir").symlink_to(outside)
    (root / "digest" / "loop").symlink_to(root / "digest")
    (root / "digest" / "self.md").symlink_to(root / "digest" / "self.md")
    (root / "digest" / "inside.md").symlink_to(root / "digest" / "ok.md")
    engine = Engine.open(root)
    assert engine.paths() == ["digest/inside.md", "digest/ok.md"]
    all_codes = {d.code for d in engine.diagnostics()}
    assert {"symlink-outside", "symlink-loop"} <= all_codes


def test_file_vanishing_mid_scan_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_workspace(tmp_path, {"digest/a.md": "alpha\n", "digest/b.md": "beta\n"})
    real_open = os.open

    def flaky_open(file, *args, **kwargs):
        if str(file).endswith("b.md"):
            os.unlink(file)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", flaky_open)
    engine = Engine.open(tmp_path)
    assert engine.paths() == ["digest/a.md"]
    assert "vanished" in codes(engine, "digest/b.md")


def test_unreadable_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_workspace(tmp_path, {"digest/a.md": "alpha\n", "digest/locked.md": "beta\n"})
    real_open = os.open

    def denying_open(file, *args, **kwargs):
        if str(file).endswith("locked.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", denying_open)
    engine = Engine.open(tmp_path)
    assert engine.paths() == ["digest/a.md"]
    diag = next(d for d in engine.diagnostics() if d.path == "digest/locked.md")
    assert diag.code == "unreadable" and "Permission denied" in diag.message


def test_ten_thousand_tags_make_one_over_limit_diagnostic(tmp_path: Path) -> None:
    """Issue 23's sweep: one diagnostic per file, naming the first and how many more."""
    items = "".join(f"  - tag{n}\n" for n in range(10_000))
    engine = Engine.open(
        write_workspace(tmp_path, {"digest/a.md": f"---\nmemory_tags:\n{items}---\nb\n"})
    )
    over = [d for d in engine.diagnostics() if d.code == "tag-over-limit"]
    assert len(over) == 1
    assert over[0].line == 2
    assert "'tag3'" in over[0].message and "9,996 more" in over[0].message
    assert engine.memory("digest/a.md").tags == ("tag0", "tag1", "tag2")  # type: ignore[union-attr]


def test_a_megabyte_tag_is_previewed_short_and_escaped(tmp_path: Path) -> None:
    huge = "\x1b[31m" + "x" * 1_000_000
    text = f'---\nmemory_tags:\n  - "{huge.replace(chr(27), chr(92) + "e")}"\n  - ok\n---\nb\n'
    engine = Engine.open(write_workspace(tmp_path, {"digest/a.md": text}))
    (long,) = [d for d in engine.diagnostics() if d.code == "tag-too-long"]
    assert len(long.message) < 300
    assert "\x1b" not in long.message and "\\x1b" in long.message
    assert f"({len(huge):,} characters)" in long.message
    assert engine.memory("digest/a.md").tags == ("ok",)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("frontmatter", "code"),
    [
        ('name:\n  - "{huge}"\n', "name-not-string"),
        ('memory_tags: {{k: "{huge}"}}\n', "tags-not-list"),
    ],
)
def test_a_megabyte_value_is_previewed_short_in_every_message(
    tmp_path: Path, frontmatter: str, code: str
) -> None:
    """Not only tags: a wrong-typed `name` or tag field holding 1 MB is not copied whole."""
    huge = "y" * 1_000_000
    text = "---\n" + frontmatter.format(huge=huge) + "---\nbody\n"
    engine = Engine.open(write_workspace(tmp_path, {"digest/a.md": text}))
    messages = [d.message for d in engine.diagnostics() if d.code == code]
    assert messages, [d.code for d in engine.diagnostics()]
    assert all(len(message) < 400 for message in messages)
