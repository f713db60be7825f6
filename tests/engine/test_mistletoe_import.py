"""The precomputed punctuation set handed to mistletoe must be exactly what it computes."""

from __future__ import annotations

import subprocess
import sys
import unicodedata

import pytest

from reme_tui.engine.parse.mistletoe_import import (
    compute_punctuation,
    decode_ranges,
    encode_ranges,
    shipped_punctuation,
)


def test_shipped_set_for_this_python_equals_unicodedata() -> None:
    shipped = shipped_punctuation()
    assert shipped is not None, f"no line for Unicode {unicodedata.unidata_version}"
    assert shipped == compute_punctuation()


def test_ranges_round_trip() -> None:
    chars = frozenset("!#$%&ab\u3001\u3002")
    assert decode_ranges(encode_ranges(chars)) == chars


def test_unknown_unicode_version_is_not_guessed() -> None:
    assert shipped_punctuation("0.0.0") is None


@pytest.mark.parametrize("preload", [True, False])
def test_mistletoe_module_equals_a_plain_import(preload: bool) -> None:
    """In a fresh interpreter: the preloaded module holds the same punctuation as the one
    mistletoe builds itself, and is the one the package uses."""
    script = (
        "import string, sys\n"
        "from reme_tui.engine.parse.mistletoe_import import (\n"
        "    preload_core_tokens, compute_punctuation)\n"
        f"done = preload_core_tokens() if {preload} else False\n"
        "import mistletoe, mistletoe.span_token\n"
        "from mistletoe import core_tokens\n"
        "assert done is " + str(preload) + "\n"
        "assert core_tokens is sys.modules['mistletoe.core_tokens']\n"
        "assert core_tokens.punctuation == set(string.punctuation) | compute_punctuation()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
