"""`reme-tui list`: memories by tag, date or path, newest first, with no query, in every
output format (text, --json with a schema, --jsonl, --paths, -0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace

ODD = "daily/2026-03-02/odd\nname.md"  # a newline in a file name: legal, and hostile


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01.md": memory("kickoff\n", tags=["alice"], name="Kickoff"),
            "daily/2026-03-03/review.md": memory("review\n", tags=["bob", "alice"]),
            ODD: memory("odd\n", tags=["carol"]),
            "digest/wiki/atlas.md": memory("atlas\n", name="Atlas", tags=["alice"]),
        },
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def paths(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    code, out, _ = run(capsys, "list", *argv, "-0")
    assert code == 0
    return out.split("\0")[:-1]


def test_newest_first_undated_last_without_a_query(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert paths(capsys, str(workspace)) == [
        "daily/2026-03-03/review.md",
        ODD,
        "daily/2026-03-01.md",
        "digest/wiki/atlas.md",
    ]


def test_filters_by_tag_date_and_path(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = str(workspace)
    assert paths(capsys, ws, "--tag", "bob") == ["daily/2026-03-03/review.md"]
    assert paths(capsys, ws, "--tag", "alice", "--exclude-tag", "bob") == [
        "daily/2026-03-01.md",
        "digest/wiki/atlas.md",
    ]
    dated = paths(capsys, ws, "--since", "2026-03-02", "--strict-dates")
    assert dated == ["daily/2026-03-03/review.md", ODD]
    assert paths(capsys, ws, "--path-prefix", "digest/") == ["digest/wiki/atlas.md"]
    assert paths(capsys, ws, "--limit", "1") == ["daily/2026-03-03/review.md"]
    assert paths(capsys, ws, "--tag", "nobody") == []


def test_json_carries_a_schema_version_and_jsonl_one_memory_a_line(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", str(workspace), "--tag", "alice", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["schema"] == 1 and document["total"] == 3
    assert document["memories"][0] == {
        "path": "daily/2026-03-03/review.md",
        "date": "2026-03-03",
        "name": "Note",
        "description": "A note",
        "tags": ["bob", "alice"],
    }
    code, out, _ = run(capsys, "list", str(workspace), "--tag", "alice", "--jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [{"schema": 1, **m} for m in document["memories"]] == lines


def test_paths_are_one_a_line_and_nul_output_is_raw(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "list", str(workspace), "--paths")
    assert code == 0 and err == ""
    assert out.splitlines()[1] == "daily/2026-03-02/odd\\nname.md"  # escaped: still one line
    assert ODD in paths(capsys, str(workspace))  # raw: xargs -0 gets the real name


def test_text_is_date_path_tags_name_and_a_count_on_stderr(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "list", str(workspace), "--tag", "alice")
    assert code == 0
    assert out.splitlines() == [
        "2026-03-03  daily/2026-03-03/review.md  [bob, alice]  Note",
        "2026-03-01  daily/2026-03-01.md  [alice]  Kickoff",
        "-           digest/wiki/atlas.md  [alice]  Atlas",
    ]
    assert err == "reme-tui: 3 of 4 memories\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--json", "--paths"], "--json and --paths cannot be combined"),
        (["--jsonl", "-0"], "--jsonl and -0 cannot be combined"),
        (["--limit", "0"], "--limit must be a positive number"),
    ],
)
def test_usage_errors(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "list", str(workspace), *argv)
    assert code == 2 and out == "" and message in err


def test_a_date_reme_cannot_read_is_dropped_with_a_warning_as_search_does(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "list", str(workspace), "--since", "soon", "--paths")
    assert code == 0 and len(out.splitlines()) == 4
    assert err.startswith("reme-tui: warning: ignoring since 'soon'")


def test_list_flags_are_refused_elsewhere(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["undo-merge", "--jsonl"])
    assert exit_info.value.code == 2
    options = "--jsonl is an option of: search, list, tags, diagnostics, dupes, changes"
    assert options in capsys.readouterr().err
