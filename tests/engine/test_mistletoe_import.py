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
    # Loaded by path: importing it as reme_tui.engine.parse.mistletoe_import would run the
    # parse room's face, whose chunker preloads (and imports) mistletoe first.
    script = (
        "import importlib.util, pathlib, string, sys\n"
        "engine = pathlib.Path(importlib.util.find_spec('reme_tui.engine').origin).parent\n"
        "spec = importlib.util.spec_from_file_location(\n"
        "    'alone', engine / 'parse' / 'mistletoe_import.py')\n"
        "alone = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(alone)\n"
        "assert 'mistletoe' not in sys.modules\n"
        f"done = alone.preload_core_tokens() if {preload} else False\n"
        "import mistletoe, mistletoe.span_token\n"
        "from mistletoe import core_tokens\n"
        "assert done is " + str(preload) + "\n"
        "assert core_tokens is sys.modules['mistletoe.core_tokens']\n"
        "assert core_tokens.punctuation == set(string.punctuation) | alone.compute_punctuation()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_parse_room_preloads_before_mistletoe_is_imported() -> None:
    """Importing the parse room (its face loads the chunker) takes the fast path: the
    import system is never asked for mistletoe.core_tokens, the preload put it there."""
    script = (
        "import sys\n"
        "asked = []\n"
        "class Spy:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        asked.append(name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Spy())\n"
        "import reme_tui.engine.parse\n"
        "assert 'mistletoe' in asked, asked\n"
        "assert 'mistletoe.core_tokens' not in asked\n"
        "assert 'mistletoe.core_tokens' in sys.modules\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
