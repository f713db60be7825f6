"""The headless command line: JSON shapes, text output, exit codes, stdout/stderr split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path,
        {
            "daily/2026-03-01/kickoff.md": memory(
                "Budget kickoff with [[digest/wiki/atlas.md#Budget|Atlas]].\n",
                name="Kickoff",
                tags=["Alice", "Project_Atlas"],
            ),
            "digest/wiki/atlas.md": memory(
                "The atlas budget is 30k.\n", name="Atlas", tags=["project atlas"]
            ),
            "digest/wiki/broken.md": "---\nname: 2026-04-05\n---\nbudget notes\n",
        },
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_query_json_shape(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(workspace), "--query", "budget", "--tag", "ALICE", "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"schema", "query", "tag_filter", "results", "links", "counts"}
    assert doc["tag_filter"] == {
        "tags": ["alice"],
        "mode": "any",
        "exclude": [],
        "matched_paths": 1,
    }
    (result,) = doc["results"]
    assert set(result) == {
        "path",
        "start_line",
        "end_line",
        "score",
        "scores",
        "date",
        "tags",
        "name",
        "text",
        "sources",
    }
    assert result["path"] == "daily/2026-03-01/kickoff.md" and result["date"] == "2026-03-01"
    assert result["scores"]["vector"] is None and result["scores"]["keyword"] == result["score"]
    assert doc["links"]["daily/2026-03-01/kickoff.md"]["outlinks"] == [
        {
            "path": "digest/wiki/atlas.md",
            "name": "Atlas",
            "description": "A note",
            "anchors": ["Budget"],
        }
    ]
    assert doc["counts"] == {
        "candidates": 25, "keyword": 1, "vector": 0, "returned": 1, "hybrid": False
    }  # fmt: skip


def test_query_text_output_is_reme_like(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(workspace), "--query", "atlas budget")
    assert code == 0
    assert "========== digest/wiki/atlas.md:" in out and "[score=" in out
    assert "\033[" not in out  # no colour when not a TTY
    assert "← daily/2026-03-01/kickoff.md" in out and "via anchor=#Budget" in out


def test_zero_results_still_exit_zero(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(workspace), "--query", "zebra", "--json")
    assert code == 0 and json.loads(out)["results"] == []


def test_list_tags_json_and_orders(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, str(workspace), "--list-tags", "--json")
    assert json.loads(out) == {
        "schema": 1,
        "total_tags": 2,
        "items": [["project_atlas", 2], ["alice", 1]],
    }
    _, out, _ = run(
        capsys, str(workspace), "--list-tags", "--order-by", "tag", "--order", "desc", "--json"
    )
    assert [tag for tag, _ in json.loads(out)["items"]] == ["project_atlas", "alice"]


def test_diagnostics_json(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(workspace), "--diagnostics", "--json")
    doc = json.loads(out)
    assert code == 0
    broken = [d for d in doc["diagnostics"] if d["path"] == "digest/wiki/broken.md"]
    assert broken[0] == {
        "path": "digest/wiki/broken.md",
        "line": 2,
        "code": "name-not-string",
        "severity": "warning",
        "message": broken[0]["message"],
    }
    assert "quote it" in broken[0]["message"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--query", "x", "--min-score", "nan"], "--min-score must be a number"),
        (["--query", "x", "--min-score", "inf"], "--min-score must be a number"),
        (["--query", "x", "--tag=---", "--tag", "  "], "no valid values"),
        (["--query", "x", "--limit", "0"], "positive"),
        (["--query", "  "], "query cannot be empty"),
        (
            ["--list-tags", "--tag", "alice"],
            "--tag only applies with --query or --explain, not with --list-tags",
        ),
        (["--json"], "--json only applies with a headless mode (--query, --explain, --list-tags"),
        (["--order", "asc"], "--order only applies with --list-tags"),
        (["--order-by", "tag"], "--order-by only applies with --list-tags"),
        (["--query", "x", "--theme", "reme-paper"], "--theme only applies with the app"),
        (["--list-tags", "--config", "c.toml"], "--config c.toml: no such file"),
        (["--add-tag", "a.md", "x", "--rebuild"], "--rebuild only applies with"),
        (["--query", "x", "--list-tags"], "--query and --list-tags cannot be combined"),
        (["--limit", "5"], "--limit only applies with --query"),
    ],
)
def test_usage_errors_exit_2_with_message(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, str(workspace), *argv)
    assert code == 2 and out == "" and message in err


def test_unknown_flag_exits_2(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([str(workspace), "--frobnicate"])
    assert exit_info.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_missing_workspace_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(tmp_path / "missing"), "--query", "x")
    assert code == 1 and out == "" and "does not exist" in err


def test_lenient_dates_are_accepted(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        str(workspace),
        "--query",
        "budget",
        "--since",
        "2026-3-1",
        "--strict-dates",
        "--json",
    )
    assert code == 0 and [r["path"] for r in json.loads(out)["results"]] == [
        "daily/2026-03-01/kickoff.md"
    ]


def test_json_counts_say_they_count_the_candidates_retrieved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 22: counts.keyword was 25 with the default limit and 35 with --limit 100, with
    nothing saying why: it counts, as ReMe does, the chunks retrieved among the candidates."""
    root = write_workspace(
        tmp_path / "many",
        {f"daily/2026-03-01/note-{i:02d}.md": memory(f"budget note {i}") for i in range(35)},
    )
    _, out, _ = run(capsys, str(root), "--query", "budget", "--json")
    default = json.loads(out)["counts"]
    assert default["candidates"] == 25 and default["keyword"] == 25
    _, out, _ = run(capsys, str(root), "--query", "budget", "--limit", "100", "--json")
    wide = json.loads(out)["counts"]
    assert wide["candidates"] == 200 and wide["keyword"] == 35
