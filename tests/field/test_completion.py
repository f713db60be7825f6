"""The installed wheel's completion script in a real interactive bash: registered with
`complete`, asked through its function as readline asks it, and by a real TAB key."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from .conftest import CHECKOUT

PROMPT = "READY> "
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # what the terminal mode switches leave


@pytest.fixture
def sample(reme_tui: Path, home: dict[str, str], tmp_path: Path) -> Path:
    """The sample workspace with a saved index (what completion reads)."""
    workspace = Path(shutil.copytree(CHECKOUT / "sample_workspace", tmp_path / "sample"))
    subprocess.run([str(reme_tui), "tags", str(workspace)], env=home, cwd=tmp_path,
                   capture_output=True, check=True, timeout=300)  # fmt: skip
    return workspace


@pytest.fixture
def bash(reme_tui: Path, home: dict[str, str], tmp_path: Path) -> Iterator[pexpect.spawn]:
    env = dict(home, PATH=f"{reme_tui.parent}{os.pathsep}{home.get('PATH', '')}", PS1=PROMPT)
    env["INPUTRC"] = str(tmp_path / "inputrc")
    inputrc = "set bell-style none\nset show-all-if-ambiguous on\nset enable-bracketed-paste off\n"
    (tmp_path / "inputrc").write_text(inputrc)
    shell = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], env=env, cwd=str(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=(40, 200))  # fmt: skip
    shell.expect_exact(PROMPT)
    shell.sendline('eval "$(reme-tui completion bash)"; echo loaded')
    shell.expect_exact("loaded")
    shell.expect_exact(PROMPT)
    yield shell
    shell.terminate(force=True)


def ask(shell: pexpect.spawn, *words: str) -> list[str]:
    """Call the completion function as readline does (COMP_WORDS, COMP_CWORD)."""
    quoted = " ".join(f"'{word}'" for word in ("reme-tui", *words))
    shell.sendline(
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; _reme_tui; "
        'printf "<%s>\\n" "${COMPREPLY[@]}"; echo AN""SWERED'  # the echo of this line
    )  # holds AN""SWERED, only the output holds ANSWERED
    shell.expect_exact("ANSWERED\r\n")
    answer = CONTROL.sub("", shell.before).replace("\r", "").splitlines()
    shell.expect_exact(PROMPT)
    return [line[1:-1] for line in answer if line.startswith("<") and line.endswith(">")]


def test_bash_completes_commands_flags_choices_tags_and_paths(
    bash: pexpect.spawn, sample: Path
) -> None:
    bash.sendline("complete -p reme-tui")
    bash.expect_exact("complete -o filenames -F _reme_tui reme-tui")
    bash.expect_exact(PROMPT)
    assert ask(bash, "se") == ["search"]
    assert ask(bash, str(sample)[:-2]) == [str(sample)]  # not a command: the app's folder
    assert "--fail-on" in ask(bash, "diagnostics", "--")
    assert ask(bash, "diagnostics", "--fail-on", "") == ["warning", "error"]
    assert ask(bash, "list", str(sample), "--tag", "alic") == ["alice", "alicia"]
    # After PATH comes WORKSPACE: the shell completes a folder.
    assert ask(bash, "edit-tags", "digest/wiki/globex.md", str(sample)[:-1]) == [str(sample)]
    assert ask(bash, "edit-tags", "-w", str(sample), "digest/wiki/glob") == [
        "digest/wiki/globex.md"
    ]
    assert ask(bash, "list", "-w", str(sample), "--path-prefix", "digest/wiki/glo") == [
        "digest/wiki/globex.md"
    ]
    assert ask(bash, "merge", "-w", str(sample), "--into", "project_atlas_") == ["project_atlas_v2"]


def test_a_real_tab_key_completes_the_line(bash: pexpect.spawn, sample: Path) -> None:
    bash.send(f"reme-tui list {sample} --fail")  # list has no --fail-on: nothing to add
    bash.send("\t")
    bash.send("\x15")  # Ctrl-U: clear the line
    bash.send("reme-tui diagnostics --fail-on war\t")
    bash.expect_exact("--fail-on warning ")
    bash.send("\x15reme-tui list " + str(sample) + " --tag project_atlas_\t")
    bash.expect_exact("--tag project_atlas_v2 ")
    bash.send("\x15")
    bash.sendline("echo done")
    bash.expect_exact("done")
