"""Tokenizer: golden outputs from reme-ai 0.4.2.0 plus invariants."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.parse.tokens import STOPWORDS, load_stopwords, tokenize

FIXTURE = Path(__file__).parent / "fixtures" / "tokenize_cases.json"
CASES = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]


def _straightforward(text: str) -> list[str]:
    """The reference's steps written plainly (no fast path)."""
    ideographs = re.findall("[\u4e00-\u9fff]", text)
    words = re.findall(r"(?u)\b\w\w+\b", re.sub("[\u4e00-\u9fff]", " ", text))
    return [t.lower() for t in ideographs + words if t.lower() not in STOPWORDS]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:24] or "<empty>" for c in CASES])
def test_matches_reference(case: dict) -> None:
    assert tokenize(case["text"]) == case["tokens"]


def test_stopword_list() -> None:
    assert len(STOPWORDS) == 1393  # 1,395 lines; "ZT"/"ZZ" fold into "zt"/"zz"
    assert {"the", "zt", "的", "一", "ain't"} <= STOPWORDS
    assert load_stopwords() == STOPWORDS


def test_order_is_ideographs_first_then_words() -> None:
    assert tokenize("alpha 记 beta 忆") == ["记", "忆", "alpha", "beta"]


def test_examples_from_spec() -> None:
    assert tokenize("snake_case kebab-case x Y") == ["snake_case", "kebab", "case"]
    assert tokenize("カタカナ 한국어") == ["カタカナ", "한국어"]
    assert tokenize("The IS are") == []


def test_cut_before_lowercasing() -> None:
    # "İ" lowercases to two characters; the reference cuts first, then lowers.
    assert tokenize("İs") == ["i̇s"]


_ALPHABET = st.sampled_from(
    [*"aZq_-' .\n\t1İΣß", "的", "一", "中", "文", "カ", "한", "😀", "\u3000", "é", "\u0307"]
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join) | st.text(max_size=40))
def test_invariants(text: str) -> None:
    tokens = tokenize(text)
    assert tokens == _straightforward(text)
    for token in tokens:
        assert token not in STOPWORDS
        assert token == token.lower()
        assert len(token) >= 2 or "\u4e00" <= token <= "\u9fff"
