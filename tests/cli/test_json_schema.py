"""Every JSON document the command line prints carries the version of its shape, first
(``"schema": 1``), and the list-like commands print JSON lines too (``--jsonl``: one object a
line, each versioned): search (a result), tags (a tag), diagnostics (a finding), dupes (a
cluster), list (a memory), changes (a change)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.shape_version import SCHEMA
from tests.helpers import memory, write_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01.md": memory(
                "The budget rose. See [[digest/wiki/atlas.md]].\n", tags=["alice"], name="Kickoff"
            ),
            "daily/2026-03-03.md": memory(
                "budget review\n", tags=["bob", "project_atlas", "project-atlass"]
            ),
            "digest/wiki/atlas.md": memory("atlas budget plan\n", name="Atlas", tags=["alice"]),
            "daily/broken.md": "---\nmemory_tags: [a, b, c, d]\n---\nfour tags\n",
        },
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv",
    [
        ("search", "budget"),
        ("explain", "daily/2026-03-01.md", "budget"),
        ("list",),
        ("tags",),
        ("diagnostics",),
        ("compat-report",),
        ("dupes",),
        ("fix-tags", "--dry-run"),
        ("merge", "project-atlass", "--into", "project_atlas", "--dry-run"),
        ("changes",),
        ("config", "keys"),
    ],
)
def test_every_json_document_starts_with_its_schema(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    where = () if argv[0] == "config" else (str(workspace),)
    if argv[0] == "explain":
        argv = (argv[0], argv[1], argv[2], *where)
        where = ()
    code, out, _ = run(capsys, *argv, *where, "--json")
    assert code == 0, out
    document = json.loads(out)
    assert next(iter(document)) == "schema" and document["schema"] == SCHEMA


def test_search_jsonl_is_one_result_a_line_best_first(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "search", "budget", str(workspace), "--json")
    document = json.loads(out)
    code, out, _ = run(capsys, "search", "budget", str(workspace), "--jsonl")
    assert code == 0 and out.endswith("\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(document["results"]) == 3
    assert [line["rank"] for line in lines] == [1, 2, 3]
    for line, result in zip(lines, document["results"], strict=True):
        assert line["schema"] == SCHEMA
        assert {k: v for k, v in line.items() if k not in {"schema", "rank", "links"}} == result
        assert line["links"] == document["links"].get(result["path"])
    kickoff = next(line for line in lines if line["path"] == "daily/2026-03-01.md")
    assert [link["path"] for link in kickoff["links"]["outlinks"]] == ["digest/wiki/atlas.md"]


def test_search_jsonl_with_no_results_prints_nothing(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "search", "zebra", str(workspace), "--jsonl")
    assert (code, out) == (0, "")


def test_tags_diagnostics_and_dupes_jsonl(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "tags", str(workspace), "--jsonl", "--order-by", "tag")
    assert code == 0
    tags = [json.loads(line) for line in out.splitlines()]
    assert tags[0] == {"schema": SCHEMA, "tag": "a", "files": 1}
    code, out, _ = run(capsys, "tags", str(workspace), "--json", "--order-by", "tag")
    assert [[t["tag"], t["files"]] for t in tags] == json.loads(out)["items"]

    code, out, _ = run(capsys, "diagnostics", str(workspace), "--json")
    expected = json.loads(out)["diagnostics"]
    code, out, _ = run(capsys, "diagnostics", str(workspace), "--jsonl", "--fail-on", "warning")
    findings = [json.loads(line) for line in out.splitlines()]
    assert findings and [{**f, "schema": None} for f in findings] == [
        {**d, "schema": None} for d in expected
    ]
    assert code == 3  # --fail-on still decides the exit code

    code, out, _ = run(capsys, "dupes", str(workspace), "--json")
    clusters = json.loads(out)["clusters"]
    code, out, _ = run(capsys, "dupes", str(workspace), "--jsonl")
    assert code == 0 and clusters
    assert [json.loads(line) for line in out.splitlines()] == [
        {"schema": SCHEMA, **cluster} for cluster in clusters
    ]


def test_changes_jsonl_is_one_change_a_line(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "changes", str(workspace))  # the first run records the baseline
    (workspace / "daily/2026-03-03.md").unlink()
    (workspace / "daily/2026-03-05.md").write_text(memory("budget again\n"), "utf-8")
    code, out, _ = run(capsys, "changes", str(workspace), "--json")
    entries = json.loads(out)["entries"]
    code, out, _ = run(capsys, "changes", str(workspace), "--jsonl")
    assert code == 0 and len(entries) == 2
    assert [json.loads(line) for line in out.splitlines()] == [
        {"schema": SCHEMA, **entry} for entry in entries
    ]
    assert {entry["kind"] for entry in entries} == {"created", "deleted"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("search", "budget", "--json", "--jsonl"), "--json and --jsonl cannot be combined"),
        (("tags", "--json", "--jsonl"), "--json and --jsonl cannot be combined"),
        (("search", "budget", "--jsonl", "--follow"), "--jsonl prints the results once"),
    ],
)
def test_one_output_at_a_time(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv, str(workspace))
    assert code == 2 and out == "" and message in err
