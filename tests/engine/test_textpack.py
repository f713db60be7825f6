"""Chunk texts are held packed (issue 19): every text comes back exactly, a packed text
read from a saved index is checked, and a damaged one never raises in a reader."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine import textpack
from reme_tui.engine.index import store as store_module
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.records import Chunk
from tests.engine.test_store import _entry, open_with_store
from tests.helpers import memory, write_workspace

TEXTS = [
    "",
    "a",
    "short text",
    "budget review " * 400,  # packs well
    "预算 会议 记录 " * 300,  # CJK: three bytes a character in UTF-8
    "emoji 🧠🗂️ and combining é " * 50,
    "\ud800 lone surrogate \udfff" * 20,  # not from a file, but a str all the same
    "\x00\x1b[31m control \r\n characters " * 30,
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_packed_text_comes_back_exactly(text: str) -> None:
    packed = textpack.pack(text)
    assert textpack.check(packed)
    assert textpack.unpack(packed) == text


def test_only_texts_that_shrink_are_compressed() -> None:
    assert textpack.pack("tiny")[0] == textpack.RAW
    long_text = "budget review " * 400
    packed = textpack.pack(long_text)
    assert packed[0] == textpack.ZSTD and len(packed) < len(long_text) // 4
    noise = bytes(range(256)).decode("latin-1") * 2  # 384 UTF-8 bytes zstd cannot shrink
    assert textpack.unpack(textpack.pack(noise)) == noise


@given(st.text())
def test_any_text_round_trips(text: str) -> None:
    assert textpack.unpack(textpack.pack(text)) == text


def test_a_chunk_is_equal_by_its_text_and_lines() -> None:
    text = "budget review " * 400
    one = Chunk.of("a.md", 1, 2, text)
    other = Chunk("a.md", 1, 2, bytes((textpack.RAW,)) + text.encode())  # packed otherwise
    assert one == other and hash(one) == hash(other)
    assert one != Chunk.of("a.md", 1, 2, text + "!")
    assert one != Chunk.of("a.md", 1, 3, text)


@pytest.mark.parametrize(
    "packed",
    [
        b"",
        b"\x07plain",  # a tag pack never writes
        b"\x01not a zstd frame",
        bytes((textpack.ZSTD,)) + textpack.pack("budget review " * 400)[1:30],  # cut short
    ],
)
def test_a_damaged_packed_text_unpacks_to_empty_without_raising(packed: bytes) -> None:
    assert textpack.unpack(packed) == ""


def test_a_frame_claiming_a_huge_text_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    packed = textpack.pack("budget review " * 400)
    monkeypatch.setattr(textpack, "MAX_TEXT_BYTES", 1_000)
    assert not textpack.check(packed)
    assert textpack.unpack(packed) == ""


def test_a_saved_index_with_a_malformed_chunk_text_is_rebuilt(tmp_path: Path) -> None:
    body = "budget review meeting notes " * 100
    write_workspace(tmp_path, {"daily/2026-03-01/a.md": memory(body, tags=["t"])})
    cold = open_with_store(tmp_path)
    saved = store_module._loads(IndexStore(tmp_path).path.read_bytes()[50:])
    chunk = saved.memories[0].chunks[0]
    object.__setattr__(chunk, "packed", b"\x01" + b"\x00" * 40)  # no zstd frame
    IndexStore(tmp_path).path.write_bytes(_entry(store_module._dumps(saved)))
    notices: list[str] = []
    warm = open_with_store(tmp_path, notices)
    assert "malformed chunk text" in notices[0] and "rebuilding" in notices[0]
    assert warm.fingerprint() == cold.fingerprint()
    assert warm.memory("daily/2026-03-01/a.md").chunks[0].text == body.strip()  # type: ignore[union-attr]
