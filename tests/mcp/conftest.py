from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A private copy of the sample workspace (writes and edits never touch the checkout)."""
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root)
    return root
