"""The app imports Textual at 120 frames a second unless the user chose a rate, and
leaves no TEXTUAL_FPS behind for the programs it starts (an editor)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = (
    "import os; from reme_tui.cli.app import import_textual_at_app_frame_rate as go; go(); "
    "import textual.constants as c; print(c.MAX_FPS, os.environ.get('TEXTUAL_FPS'))"
)


@pytest.mark.parametrize(("given", "expected"), [(None, "120 None"), ("30", "30 30")])
def test_textual_frame_rate(given: str | None, expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    if given is not None:
        env["TEXTUAL_FPS"] = given
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split("\n")[0] == expected
