"""Field tests: the built wheel, installed into a fresh venv outside the checkout, run as a
user runs it (console script, real pseudo-terminal). Pilot tests do not see stderr capture,
terminals, packaging or process pools; these do.

`REME_TUI_FIELD_BIN` names an installed `reme-tui` to test (CI builds and installs it);
without it, the wheel is built from this checkout and installed into a venv under the
system temp directory, reused while the wheel's contents stay the same.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .terminal import stop_all

CHECKOUT = Path(__file__).resolve().parents[2]
BIN_ENV = "REME_TUI_FIELD_BIN"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.field)


def _wheel_digest(wheel: Path) -> str:
    """Of the wheel's contents, not its bytes: zip timestamps change with every build."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive:
        for name in sorted(archive.namelist()):
            digest.update(name.encode() + b"\0" + archive.read(name))
    return digest.hexdigest()[:16]


def _install_from_checkout() -> Path:
    base = Path(tempfile.gettempdir()) / "reme-tui-field"
    base.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base) as scratch:
        dist = Path(scratch)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist),
             str(CHECKOUT)],
            check=True, cwd=dist,
        )  # fmt: skip
        (wheel,) = dist.glob("reme_tui-*.whl")
        venv = base / f"venv-{_wheel_digest(wheel)}"
        script = venv / "bin" / "reme-tui"
        if not script.exists():
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                check=True, cwd=dist,
            )  # fmt: skip
    return script


@pytest.fixture(scope="session")
def reme_tui() -> Path:
    """The installed console script under test (never the checkout's editable install)."""
    configured = os.environ.get(BIN_ENV)
    script = Path(configured) if configured else _install_from_checkout()
    assert script.is_file(), f"{BIN_ENV}={script} is not an installed reme-tui"
    assert not script.resolve().is_relative_to(CHECKOUT), "must be installed outside"
    return script


@pytest.fixture
def home(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An environment with empty user directories and no colour overrides, run from a
    directory outside the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "REME_TUI_CONFIG"}}
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / "home" / name.lower())
    env.pop("REME_TUI_WORKERS", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    yield env


@pytest.fixture(autouse=True)
def no_app_left_running() -> Iterator[None]:
    yield
    stop_all()


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A private copy of sample_workspace/."""
    return Path(shutil.copytree(CHECKOUT / "sample_workspace", tmp_path / "sample"))


def run(reme_tui: Path, env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The installed tool with ``args``, no stdin, output captured."""
    return subprocess.run(
        [str(reme_tui), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
