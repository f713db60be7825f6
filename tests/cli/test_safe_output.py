"""Terminal injection (issue 11): workspace text never reaches the terminal as escapes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.safe_text import for_json, for_terminal
from tests.helpers import write_workspace

EVIL = [
    "\x1b]0;pwned title\x07",  # OSC: retitle the terminal
    "\x1b[2J",  # clear the screen
    "\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x9b31m",  # C1 CSI
    "\u202egnp.exe",  # bidi override
    "\r\x08\x7f",
]
RAW = ["\x1b", "\x07", "\x9b", "\u202e", "\x08", "\x7f", "\r"]


def _frontmatter(tags: list[str], name: str, description: str) -> str:
    quoted = ", ".join(json.dumps(t) for t in tags)
    return (
        f"---\nname: {json.dumps(name)}\ndescription: {json.dumps(description)}\n"
        f"memory_tags: [{quoted}]\n---\n"
    )


@pytest.fixture
def evil_workspace(tmp_path: Path) -> Path:
    files = {}
    for i, payload in enumerate(EVIL):
        tag = f"t{i}{payload}"
        body = f"budget {payload} [[digest/n{(i + 1) % len(EVIL)}.md]] [[nowhere{payload}]]\n"
        files[f"digest/n{i}.md"] = _frontmatter([tag, "budget"], f"n{payload}", payload) + body
    files["digest/evil\x1b[2Jname.md"] = _frontmatter(["budget"], "x", "y") + "budget file\n"
    files["digest/bad.md"] = "---\nname: [unclosed\x1b]0;t\x07\n---\nbudget\n"
    return write_workspace(tmp_path / "ws", files)


def _assert_clean(text: str) -> None:
    for char in RAW:
        assert char not in text, repr(char)


MODES = [
    ["--list-tags"],
    ["--query", "budget", "--limit", "20"],
    ["--diagnostics"],
    ["--compat-report"],
    ["--tag-dupes"],
    ["--merge-tags", "budget", "--into", "money", "--dry-run"],
]


@pytest.mark.parametrize("argv", MODES, ids=lambda a: a[0])
def test_text_output_is_escaped(
    evil_workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    main([str(evil_workspace), *argv])
    out, err = capsys.readouterr()
    _assert_clean(out)
    _assert_clean(err)


@pytest.mark.parametrize("argv", [m for m in MODES if m[0] != "--merge-tags"], ids=lambda a: a[0])
def test_json_output_escapes_c1_and_bidi_and_round_trips(
    evil_workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    main([str(evil_workspace), *argv, "--json"])
    out, _ = capsys.readouterr()
    _assert_clean(out)
    document = json.loads(out)  # still valid JSON, holding the same strings
    if argv[0] in ("--query", "--diagnostics"):
        assert any(payload in json.dumps(document, ensure_ascii=False) for payload in EVIL)


def test_tag_edit_and_merge_output_is_escaped(
    evil_workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main([str(evil_workspace), "--add-tag", "digest/n0.md", "ok"])
    main([str(evil_workspace), "--merge-tags", "budget", "--into", "money"])
    main([str(evil_workspace), "--undo-merge"])
    out, err = capsys.readouterr()
    _assert_clean(out + err)


def test_sanitizers() -> None:
    assert for_terminal("a\tb\nc\x1b[2J\x9b\u202e") == "a\tb\nc\\x1b[2J\\x9b\\u202e"
    text = for_json({"k": "\x1b\x9b\u202e\u2028ok"}, indent=None)
    assert "\x9b" not in text and "\u202e" not in text
    assert json.loads(text) == {"k": "\x1b\x9b\u202e\u2028ok"}
    assert os.linesep not in for_terminal("x")


BAD_NAME = os.fsdecode(b"digest/bad\xff.md")  # not UTF-8: decodes to a lone U+DCFF


def _valid_utf8(text: str) -> None:
    text.encode("utf-8")  # strict: a raw surrogate (the byte 0xFF on the way out) fails


@pytest.mark.skipif(os.fsencode(BAD_NAME) != b"digest/bad\xff.md", reason="needs byte paths")
def test_a_file_name_that_is_not_utf8_is_escaped_and_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 26: --changes crashed on every run (record_baseline), --json carried raw 0xFF."""
    ws = write_workspace(tmp_path / "ws", {"digest/ok.md": "budget ok\n"})
    bad = ws / BAD_NAME
    bad.write_text("---\nmemory_tags: [b]\n---\nbudget bad\n")
    assert main([str(ws), "--changes"]) == 0  # the baseline, with the bad name in it
    bad.write_text("---\nmemory_tags: [b]\n---\nbudget bad, changed\n")
    capsys.readouterr()
    assert main([str(ws), "--changes", "--json"]) == 0
    out, err = capsys.readouterr()
    _valid_utf8(out + err)
    (entry,) = json.loads(out)["entries"]
    assert entry["path"] == BAD_NAME  # the documented escape \udcff gives the name back
    assert main([str(ws), "--changes"]) == 0
    out, _ = capsys.readouterr()
    assert "digest/bad\\xff.md" in out
    for argv in (["--query", "budget", "--json"], ["--query", "budget"], ["--list-tags"]):
        assert main([str(ws), *argv]) == 0
        out, err = capsys.readouterr()
        _valid_utf8(out + err)
    assert main([str(ws), "--revert", BAD_NAME, "--to", str(entry["id"]), "--dry-run"]) == 0
    out, err = capsys.readouterr()
    _valid_utf8(out + err)


def test_sanitizers_escape_lone_surrogates() -> None:
    assert for_terminal("bad\udcff.md \ud800") == "bad\\xff.md \\ud800"
    text = for_json({"p": "bad\udcff.md"}, indent=None)
    _valid_utf8(text)
    assert json.loads(text) == {"p": "bad\udcff.md"}


# The "one bad byte" frontmatters (issue 26): a surrogate escape that YAML loads to a
# lone surrogate, and flow lists 330 and 1,000 deep (yaml's RecursionError is no YAMLError).
ONE_BAD_BYTE = {
    "surrogate": 'name: "\\ud800"\ndescription: "d\\udfff"\n'
    'memory_tags: ["\\ud800", "a\\ud800", ok]',
    "330 deep": "name: d\nx: " + "[" * 330 + "]" * 330 + "\nmemory_tags: [ok]",
    "1,000 deep": "name: d\nx: " + "[" * 1000 + "]" * 1000 + "\nmemory_tags: [ok]",
}
EVERY_MODE = [
    ["--list-tags"],
    ["--list-tags"],  # warm: loads what the first run saved
    ["--list-tags", "--no-cache"],
    ["--query", "budget", "--json"],
    ["--diagnostics", "--no-cache"],
    ["--compat-report"],
    ["--tag-dupes"],
    ["--changes"],
]


@pytest.mark.parametrize("frontmatter", ONE_BAD_BYTE.values(), ids=ONE_BAD_BYTE.keys())
def test_one_bad_frontmatter_crashes_no_mode(
    tmp_path: Path, frontmatter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {"digest/bad.md": f"---\n{frontmatter}\n---\nbudget bad\n", "digest/ok.md": "budget ok\n"},
    )
    for mode in EVERY_MODE:
        assert main([str(root), *mode]) == 0, mode
        out, err = capsys.readouterr()
        _valid_utf8(out + err)
        assert "Traceback" not in err
    # Edited (the surrogate's U+FFFD never written back), or refused with a reason.
    edited = main([str(root), "--add-tag", "digest/bad.md", "more"])
    _out, err = capsys.readouterr()
    assert "Traceback" not in err
    if "[[[" in frontmatter:
        assert edited == 1 and "nests deeper than 100 levels" in err
    else:
        assert edited == 0 and '"a\\ud800"' in (root / "digest/bad.md").read_text()
