"""The installed wheel's commands, as a user types them in a shell: `reme-tui COMMAND`,
their help, short mistakes, and the old mode flags kept as aliases."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .conftest import run


def test_commands_answer_as_the_old_flags_did(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    new = run(reme_tui, home, tmp_path, "search", "launch budget", str(sample), "--json")
    assert new.returncode == 0, new.stderr
    assert json.loads(new.stdout)["results"]
    old = run(reme_tui, home, tmp_path, str(sample), "--query", "launch budget", "--json")
    assert old.returncode == 0 and old.stdout == new.stdout
    assert "reme-tui: note: --query is deprecated" in old.stderr
    assert "deprecated" not in new.stderr
    tags = run(reme_tui, home, tmp_path, "tags", "--json", "-w", str(sample))
    assert tags.returncode == 0 and json.loads(tags.stdout)["total_tags"] > 0


def test_help_is_per_command_and_mistakes_are_short(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    top = run(reme_tui, home, tmp_path, "--help")
    assert top.returncode == 0 and "  search " in top.stdout and "  mcp " in top.stdout
    helped = run(reme_tui, home, tmp_path, "search", "--help")
    assert helped.returncode == 0 and "examples:" in helped.stdout
    wrong = run(reme_tui, home, tmp_path, "search", "budget", "--limt", "2")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert "did you mean --limit?" in wrong.stderr and len(wrong.stderr.splitlines()) == 4
    typo = run(reme_tui, home, tmp_path, "serch", "budget")
    assert typo.returncode == 2 and "did you mean: reme-tui search?" in typo.stderr


def test_list_feeds_xargs_through_a_real_pipe(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    script = '"$0" list "$1" --tag alicia -0 | xargs -0 -n1 printf "<%s>\\n"'
    piped = subprocess.run(
        ["sh", "-c", script, str(reme_tui), str(sample)],
        env=home, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    lines = piped.stdout.splitlines()
    assert lines and all(line.startswith("<") and line.endswith(".md>") for line in lines)
    listed = run(reme_tui, home, tmp_path, "list", str(sample), "--tag", "alicia", "--json")
    document = json.loads(listed.stdout)
    assert document["schema"] == 1
    assert [f"<{m['path']}>" for m in document["memories"]] == lines


def test_diagnostics_gate_and_tag_warnings(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    gate = run(reme_tui, home, tmp_path, "diagnostics", str(sample), "--fail-on", "warning")
    assert gate.returncode == 3 and "failing (--fail-on warning)" in gate.stderr
    report = run(reme_tui, home, tmp_path, "diagnostics", str(sample))
    assert report.returncode == 0 and report.stdout == gate.stdout
    path = "daily/2026-10-27/budget-reforecast.md"  # three tags already
    edit = run(reme_tui, home, tmp_path, "edit-tags", path, str(sample), "--add", "extra")
    assert edit.returncode == 0
    assert "warning: " + path + ": ReMe indexes only the first 3 tags" in edit.stderr


def test_config_commands_and_a_missing_config_file(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    where = run(reme_tui, home, tmp_path, "config", "path")
    assert where.returncode == 0
    assert where.stdout.strip() == str(Path(home["XDG_CONFIG_HOME"]) / "reme-tui" / "config.toml")
    keys = run(reme_tui, home, tmp_path, "config", "keys")
    assert keys.returncode == 0 and "index.tag_field" in keys.stdout
    missing = run(reme_tui, home, tmp_path, "tags", str(sample), "--config", "nope.toml")
    assert missing.returncode == 2 and "--config nope.toml: no such file" in missing.stderr


def test_semantic_search_is_an_extra_that_says_how_to_install_it(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    python = reme_tui.parent / "python"
    probe = subprocess.run([str(python), "-c", "import model2vec"], capture_output=True)
    assert probe.returncode != 0  # not a dependency of the plain install
    model = tmp_path / "model"
    model.mkdir()
    done = run(reme_tui, home, tmp_path, "search", "budget", str(sample), "--model", str(model))
    assert done.returncode == 0 and done.stdout
    assert "pip install 'reme-tui[semantic]'" in done.stderr
    assert "searching with BM25 only" in done.stderr


def test_demo_copies_the_sample_the_wheel_carries(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    carried = list((reme_tui.parent.parent / "lib").glob("python3*/site-packages/reme_tui"))
    assert (carried[0] / "demo_workspace" / "README.md").is_file()  # in the wheel itself
    done = run(reme_tui, home, tmp_path, "demo")  # stdin /dev/null: no terminal
    copy = Path(done.stdout.strip())
    assert done.returncode == 0 and copy.is_relative_to(Path(home["XDG_DATA_HOME"]))
    found = run(reme_tui, home, tmp_path, "search", "launch budget", str(copy), "--json")
    assert found.returncode == 0 and json.loads(found.stdout)["results"]


def test_search_jsonl_and_a_cold_build_that_reports_progress_in_a_pipe(
    reme_tui: Path, home: dict[str, str], sample: Path, tmp_path: Path
) -> None:
    """`search --jsonl` (one versioned result a line, the same results as --json) and, with
    stderr a pipe, progress as plain lines (the delay set to 0: no timing involved)."""
    env = {**home, "REME_TUI_PROGRESS_DELAY": "0"}
    cold = run(reme_tui, env, tmp_path, "search", "launch budget", str(sample), "--jsonl")
    assert cold.returncode == 0, cold.stderr
    progress = [line for line in cold.stderr.splitlines() if "indexing" in line]
    assert progress[0].startswith("reme-tui: indexing ") and " memories (" in progress[0]
    assert progress[-1].startswith("reme-tui: indexing done: ")
    assert "\r" not in cold.stderr and "\x1b" not in cold.stderr
    lines = [json.loads(line) for line in cold.stdout.splitlines()]
    document = json.loads(
        run(reme_tui, home, tmp_path, "search", "launch budget", str(sample), "--json").stdout
    )
    assert [line["rank"] for line in lines] == list(range(1, len(lines) + 1))
    assert {line["schema"] for line in lines} == {document["schema"]} == {1}
    assert [line["path"] for line in lines] == [r["path"] for r in document["results"]]
    warm = run(reme_tui, env, tmp_path, "search", "launch budget", str(sample), "--jsonl")
    assert warm.stdout == cold.stdout
