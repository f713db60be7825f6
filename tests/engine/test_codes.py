"""Diagnostic codes: one enum decides severity and explanation, and the README shows it."""

from __future__ import annotations

import re
from pathlib import Path

from reme_tui.engine.codes import Code, Severity, markdown_table
from reme_tui.engine.engine import Engine
from reme_tui.engine.records import Diagnostic
from reme_tui.engine.reme.compat import _KIND_OF_CODE, KINDS
from tests.helpers import write_workspace

README = Path(__file__).parents[2] / "README.md"


def test_readme_table_is_the_enum() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- codes:start -->\n(.*?)<!-- codes:end -->", text, re.S)
    assert match is not None, "README lost its table of diagnostic codes"
    assert match.group(1) == markdown_table()


def test_every_code_has_a_severity_and_a_one_line_explanation() -> None:
    assert len({code.value for code in Code}) == len(Code)
    for code in Code:
        assert isinstance(code.severity, Severity)
        assert code.explanation and "\n" not in code.explanation and "|" not in code.explanation


def test_severity_follows_the_code() -> None:
    assert Diagnostic("a.md", None, Code.UNREADABLE, "x").severity == "error"
    assert Diagnostic("a.md", 3, Code.TAG_OVER_LIMIT, "x").severity == "warning"
    assert Diagnostic("a.md", None, Code.NO_TAGS, "x").to_json()["severity"] == "info"


def test_compat_kinds_are_built_from_codes() -> None:
    assert all(isinstance(code, Code) for code in _KIND_OF_CODE)
    assert set(_KIND_OF_CODE.values()) == set(KINDS)


def test_the_engine_reports_only_enum_codes(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            "daily/2026-01-01/a.md": "---\nname: [x]\n---\nbody [[nowhere.md]]\n",
            "daily/2026-01-01/b.md": "---\nmemory_tags: solo\n---\nbody\n",
            "daily/2026-01-01/c.md": b"\xff\xfe not utf8",
            "daily/2026-01-01/d.md": "",
        },
    )
    found = Engine.open(tmp_path).diagnostics()
    codes = {d.code for d in found}
    assert {Code.NAME_NOT_STRING, Code.LINK_DANGLING, Code.TAGS_NOT_LIST, Code.EMPTY} <= codes
    assert all(isinstance(d.code, Code) for d in found)
