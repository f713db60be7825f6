"""The engine and the headless CLI must never pull in the UI toolkit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MODULES = [
    "reme_tui.engine.engine",
    "reme_tui.engine.parse.document",
    "reme_tui.engine.search.types",
    "reme_tui.engine.index.keyword",
    "reme_tui.engine.parse.wikilinks",
    "reme_tui.engine.tags.index",
    "reme_tui.engine.files.workspace",
    "reme_tui.cli",
    "reme_tui.mcp",
]


def run_python(code: str) -> str:
    """Run ``code`` in a fresh interpreter (nothing imported yet); its stdout."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout


def one_memory_workspace(root: Path) -> Path:
    (root / "daily").mkdir()
    (root / "daily" / "2026-01-01.md").write_text("budget review\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("module", MODULES)
def test_module_does_not_import_textual(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    assert run_python(code).strip() == ""


def test_headless_query_run_does_not_import_textual(tmp_path: Path) -> None:
    """Headless modes never load the app's framework; JSON and the tag list load no
    styling either. Text reports are built as rich Text (rich decides colour: a
    terminal, NO_COLOR, FORCE_COLOR), so rich may load there and only there."""
    one_memory_workspace(tmp_path)
    code = (
        "import sys\n"
        "from reme_tui.cli import main\n"
        f"rc = main([{str(tmp_path)!r}, '--query', 'budget', '--json'])\n"
        "assert rc == 0\n"
        f"assert main([{str(tmp_path)!r}, '--list-tags']) == 0\n"
        "assert 'textual' not in sys.modules and 'rich' not in sys.modules, sorted(sys.modules)\n"
        f"assert main([{str(tmp_path)!r}, '--diagnostics']) == 0\n"
        "assert 'textual' not in sys.modules, sorted(sys.modules)\n"
    )
    run_python(code)


def test_package_exports_the_engine_lazily() -> None:
    code = (
        "import sys\n"
        "import reme_tui.engine.tags.index\n"
        "loaded_early = 'reme_tui.engine.engine' in sys.modules\n"
        "from reme_tui.engine import Delta, Engine, EngineConfig, WorkspaceError\n"
        "from reme_tui.engine.engine import Engine as CoreEngine\n"
        "print(loaded_early, Engine is CoreEngine)\n"
    )
    assert run_python(code).strip() == "False True"


def test_a_headless_query_loads_neither_the_watcher_nor_dupe_detection(tmp_path: Path) -> None:
    """A --query never watches files, looks for near-duplicate tags or serves MCP: the
    faces load watchfiles/anyio, rapidfuzz and the MCP SDK only when asked for."""
    one_memory_workspace(tmp_path)
    code = (
        "import sys\n"
        "from reme_tui.cli import main\n"
        f"assert main([{str(tmp_path)!r}, '--query', 'budget', '--no-cache']) == 0\n"
        "heavy = ('watchfiles', 'anyio', 'rapidfuzz', 'mcp')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
        "from reme_tui.engine.files import awatch_batches\n"
        "from reme_tui.engine.tags import detect_duplicates\n"
        "print(awatch_batches.__module__, detect_duplicates.__module__)\n"
    )
    lines = run_python(code).strip().splitlines()
    assert lines[-2] == ""
    assert lines[-1] == "reme_tui.engine.files.watch reme_tui.engine.tags.hygiene"
