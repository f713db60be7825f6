"""Control characters in a frontmatter: every tag edit refuses cleanly (EditError), never a
YAML traceback (issue 11: 620 of 26,000 fuzzed edits crashed with yaml.reader.ReaderError)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.errors import EditError
from reme_tui.engine.parse.frontmatter import AddTag, RemoveTag, SetTags, apply_op

CONTROLS = (
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
)
TEMPLATES = [
    "---\nname: a{c}b\nmemory_tags: [x]\n---\nbody\n",
    "---\nname: ok\nmemory_tags: [x{c}y]\n---\nbody\n",
    "---\n{c}\nmemory_tags: [x]\n---\nbody\n",
    "---\nmemory_tags:\n  - x\n  - '{c}'\n---\n",
    '---\ndescription: "{c}"\n---\nbody {c}\n',
]
OPS = [AddTag("new"), RemoveTag("x"), SetTags(["a", "b"])]


@pytest.mark.parametrize("char", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_every_control_character_is_refused_or_edited_never_a_traceback(char: str) -> None:
    for template in TEMPLATES:
        for op in OPS:
            text = template.format(c=char)
            try:
                new_text, _, _ = apply_op(text, op)
            except EditError as error:
                assert "Traceback" not in str(error) and "\n" not in str(error)
            else:
                body = text.split("---\n", 2)[-1]
                assert new_text.endswith(body)  # the body is never touched


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40),
    st.sampled_from(OPS),
)
def test_fuzzed_frontmatter_only_raises_edit_errors(value: str, op: object) -> None:
    text = f"---\nname: {value}\nmemory_tags: [x]\n---\nbody\n"
    with contextlib.suppress(EditError):  # anything else fails the test
        apply_op(text, op)  # type: ignore[arg-type]


def test_cli_reports_control_characters_without_a_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "digest" / "ff.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\nname: a\x0cb\nmemory_tags: [x]\n---\nbody\n")
    before = path.read_bytes()
    for flags in (["--add-tag", "digest/ff.md", "y"], ["--set-tags", "digest/ff.md", "a"]):
        done = subprocess.run(
            [sys.executable, "-m", "reme_tui", str(tmp_path), *flags],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        assert "refusing to edit" in done.stderr and "\x0c" not in done.stderr
    assert path.read_bytes() == before
