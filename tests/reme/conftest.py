"""The ReMe-written sample project, copied per test so tests may change it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_reme_project"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A private copy of sample_reme_project/ (its `.reme/` and `renamed/`)."""
    target = tmp_path / "project"
    shutil.copytree(SAMPLE, target, symlinks=True)
    return target
