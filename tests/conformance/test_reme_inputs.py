"""reme-tui answers the inputs of issue 22 as reme-ai 0.4.2.0 does.

Cases and workspace: ``reme_inputs.py``; ReMe's answers: ``input_goldens.json`` (recorded by
``make_input_goldens.py``). Each case runs ``reme_tui.cli.main`` (``--reme-config`` with
``include_frontmatter_in_metadata: true`` when the reference ran with it) and must return
the same chunks with the same scores and counts, exit 0, and, where ReMe ignores or partly
reads a date, say so on stderr.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reme_tui.cli import main

HERE = Path(__file__).resolve().parent
GOLDENS: dict[str, Any] = json.loads((HERE / "input_goldens.json").read_text(encoding="utf-8"))[
    "cases"
]
CONFIG = (
    "extends: default\nworkspace_dir: .reme\ncomponents:\n  file_chunker:\n    markdown:\n"
    "      include_frontmatter_in_metadata: true\n"
)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"reme_tui_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


INPUTS = _load("reme_inputs")
CASES: list[dict[str, Any]] = INPUTS.CASES


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reme-inputs") / "project"
    for rel, content in INPUTS.WORKSPACE.items():
        target = root / ".reme" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    (root / "metadata-on.yaml").write_text(CONFIG, encoding="utf-8")
    return root


def _argv(project: Path, case: dict[str, Any]) -> list[str]:
    where = ["--reme-config", str(project / "metadata-on.yaml")]
    argv = where if case.get("metadata_on") else [str(project / ".reme")]
    argv += ["--query", case["query"], "--limit", "10", "--no-cache", "--json"]
    argv += [f"--meta={key}={json.dumps(value)}" for key, value in case.get("meta", {}).items()]
    for flag in ("since", "until"):
        if case.get(flag):
            argv += [f"--{flag}", case[flag]]
    return [*argv, "--strict-dates"] if case.get("strict") else argv


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_answers_as_reme(project: Path, case: dict[str, Any]) -> None:
    golden = GOLDENS[case["id"]]
    assert golden["success"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(_argv(project, case))
    assert code == 0, err.getvalue()
    ours = json.loads(out.getvalue())
    key = lambda r: (r["path"], r["start_line"], r["end_line"], round(r["score"], 6))  # noqa: E731
    assert sorted(map(key, ours["results"])) == sorted(map(key, golden["results"]))
    assert {k: ours["counts"].get(k) for k in golden["counts"]} == golden["counts"]
    if case.get("warns"):
        assert case["warns"] in err.getvalue() and "ReMe" in err.getvalue()
    else:
        assert "warning" not in err.getvalue().lower(), err.getvalue()


def test_every_case_has_a_golden() -> None:
    assert set(GOLDENS) == {c["id"] for c in CASES}
