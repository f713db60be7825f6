"""One hostile memory through the installed wheel (issue 23): every mode answers for the rest
of the workspace as if the file were not there, tells what it ignored, shows no traceback
and stays far from the memory a naive walk of the expanded structure takes (~3 GB).

Memory, not time, is asserted: each run's own peak RSS, under an address
space limit so a regression fails here instead of swapping the machine.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.generate import generate
from tests import yaml_bombs

from .terminal import Terminal

MEMORIES = 300
HOSTILE = "daily/2026-01-01/hostile.md"
PEAK_MB = 500  # the target for one hostile file
ADDRESS_SPACE = 3 << 30  # a runaway walk stops here instead of taking the machine

BOMBS = {
    "memory_tags 9x9": yaml_bombs.alias_bomb("memory_tags"),
    "a tag item 9x9": yaml_bombs.tag_item_bomb(),
    "side key 40x2": yaml_bombs.alias_bomb("people", 40, 2),
    "merge key": yaml_bombs.merge_bomb(),
    "flow list 100,000 deep": yaml_bombs.deep_flow_list(100_000),
}


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    peak_mb: float


def _limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


# Runs the program and writes its peak RSS (KiB, Linux) to argv[1]: the wrapper has one
# child, so its RUSAGE_CHILDREN is that child's own high-water mark.
_PEAK_OF = (
    "import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
    "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); "
    "sys.exit(code)"
)


def run(reme_tui: Path, env: dict[str, str], cwd: Path, *args: str) -> Run:
    peak = cwd / ".peak-kib"
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_OF, str(peak), str(reme_tui), *args], env=env, cwd=cwd,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
        preexec_fn=_limit_address_space,
    )  # fmt: skip
    return Run(done.returncode, done.stdout, done.stderr, int(peak.read_text()) / 1024)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("hostile") / "clean", MEMORIES)


def answers(reme_tui: Path, env: dict[str, str], workspace: Path) -> dict[str, object]:
    """What every read mode says about the memories other than HOSTILE."""
    here = workspace.parent
    listing = run(reme_tui, env, here, "tags", str(workspace), "--json")
    query = run(reme_tui, env, here, "search", "budget", str(workspace), "--limit", "50", "--json")
    diagnostics = run(reme_tui, env, here, "diagnostics", str(workspace), "--json")
    for done in (listing, query, diagnostics):
        assert done.code == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert done.peak_mb < PEAK_MB
    return {
        "tags": json.loads(listing.stdout)["items"],
        "hits": [r["path"] for r in json.loads(query.stdout)["results"] if r["path"] != HOSTILE],
        "diagnostics": [
            d for d in json.loads(diagnostics.stdout)["diagnostics"] if d["path"] != HOSTILE
        ],
    }


@pytest.mark.parametrize("bomb", BOMBS.values(), ids=BOMBS.keys())
def test_one_bomb_leaves_the_other_memories_answers_unchanged(
    reme_tui: Path, home: dict[str, str], clean: Path, tmp_path: Path, bomb: str
) -> None:
    workspace = Path(shutil.copytree(clean, tmp_path / "ws"))
    before = answers(reme_tui, home, workspace)
    path = workspace / HOSTILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml_bombs.memory_with(bomb, "budget hostile body\n"), encoding="utf-8")

    cold_env = {**home, "XDG_CACHE_HOME": str(tmp_path / "cache2")}
    assert answers(reme_tui, cold_env, workspace) == before  # cold: parsed and saved
    assert answers(reme_tui, cold_env, workspace) == before  # warm: from the saved index

    diagnostics = run(reme_tui, cold_env, tmp_path, "diagnostics", str(workspace), "--json")
    mine = [d for d in json.loads(diagnostics.stdout)["diagnostics"] if d["path"] == HOSTILE]
    assert [d["code"] for d in mine] == ["frontmatter-too-complex"]
    query = run(reme_tui, cold_env, tmp_path, "search", "hostile", str(workspace), "--json")
    assert [r["path"] for r in json.loads(query.stdout)["results"]] == [HOSTILE]  # body kept

    edit = run(reme_tui, cold_env, tmp_path, "edit-tags", HOSTILE, str(workspace), "--add", "fixed")
    assert edit.code == 1 and "Traceback" not in edit.stderr
    assert "refusing to edit" in edit.stderr and edit.stderr.count("\n") == 1
    assert path.read_text(encoding="utf-8").startswith("---\n")  # untouched
    assert edit.peak_mb < PEAK_MB


def test_the_app_opens_a_workspace_holding_a_bomb(
    reme_tui: Path, home: dict[str, str], clean: Path, tmp_path: Path
) -> None:
    workspace = Path(shutil.copytree(clean, tmp_path / "ws"))
    path = workspace / HOSTILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml_bombs.memory_with(BOMBS["side key 40x2"]), encoding="utf-8")
    app = Terminal(reme_tui, [str(workspace)], home, tmp_path)
    app.wait_for(lambda: "index ready" in app.status(), "index ready")
    assert f"{MEMORIES + 1} memories" in app.status()
    assert "Traceback" not in app.text()
    assert app.quit() == 0
    assert os.path.getsize(path) < 1024
