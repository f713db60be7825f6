"""Messages, hints and tool descriptions name the subcommands (`reme-tui changes`), not the
mode flags of earlier releases (`--changes`): a user told to run an old flag is sent to a
deprecation note. The old flags themselves still work (tests/cli/test_commands.py); only
the table, the old-flag parser and the refusals that answer an old flag may name them."""

from __future__ import annotations

import ast
from pathlib import Path

from reme_tui.cli.table import MODES

PACKAGE = Path(__file__).resolve().parents[2] / "reme_tui"
# Where the old flags are defined, parsed, or answered in their own terms.
ALLOWED = {"cli/table.py", "cli/legacy.py", "cli/parser.py", "cli/manpage.py"}
# Refusals reached only through an old flag (the subcommands take positional arguments).
LEGACY_ONLY = {
    ("cli/search.py", "--explain needs --query TEXT: the search to explain"),
    ("cli/tags.py", "--set-tags needs a PATH and then the tags (none clears the list)"),
}
OLD_FLAGS = sorted({name for mode in MODES for f in mode.old_flags for name in f.names
                    if name.startswith("--")}, key=len, reverse=True)  # fmt: skip


def _strings(tree: ast.AST) -> list[str]:
    """Every string literal that is not a docstring (f-strings' literal parts included)."""
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.add(id(value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


def test_no_message_names_an_old_mode_flag() -> None:
    assert "--changes" in OLD_FLAGS and "--list-tags" in OLD_FLAGS
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED:
            continue
        for text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if (rel, text) in LEGACY_ONLY:
                continue
            for old in OLD_FLAGS:
                at = text.find(old)
                if (
                    at >= 0
                    and not text[at + len(old) : at + len(old) + 1].isalnum()
                    and (text[at + len(old) : at + len(old) + 1] != "-")
                ):
                    found.append(f"{rel}: {old} in {text!r}")
    assert found == []
