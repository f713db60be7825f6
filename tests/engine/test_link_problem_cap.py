"""A memory of countless wikilinks to nothing (issue 23): its link problems are listed up
to a cap, the rest counted in one row without a check each; other memories keep theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.engine.codes import Code
from reme_tui.engine.engine import Engine
from reme_tui.engine.reme.checks import MAX_LINK_PROBLEMS
from reme_tui.engine.reme.provenance import SourceChecker
from tests.helpers import memory, write_workspace

HOSTILE = "daily/2026-01-01/links.md"
OTHER = {
    "digest/ok.md": memory("hello [[digest/gone.md]] [[resource/2026-01-01/gone.png]]\n"),
    "digest/fine.md": memory("hello [[digest/ok.md]]\n", tags=["fine"]),
}


def _links(count: int) -> str:
    # One per line (line 5 + i: four frontmatter lines), none a memory or an existing file.
    return memory("".join(f"[[nowhere-{i}]]\n" for i in range(count)))


def _by_path(engine: Engine) -> dict[str, list[tuple[int | None, Code, str]]]:
    found: dict[str, list[tuple[int | None, Code, str]]] = {}
    for d in engine.diagnostics():
        found.setdefault(d.path, []).append((d.line, d.code, d.message))
    return found


def test_past_the_cap_links_are_counted_in_one_row_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = 250
    checked: list[str] = []
    real_check = SourceChecker._check

    def counting(self: SourceChecker, target: str) -> bool:
        checked.append(target)
        return real_check(self, target)

    monkeypatch.setattr(SourceChecker, "_check", counting)
    write_workspace(tmp_path / "with", {**OTHER, HOSTILE: _links(MAX_LINK_PROBLEMS + extra)})
    rows = _by_path(Engine.open(tmp_path / "with"))[HOSTILE]
    links = [r for r in rows if r[1] == Code.LINK_DANGLING]
    assert [line for line, _, _ in links[:MAX_LINK_PROBLEMS]] == [
        5 + i for i in range(MAX_LINK_PROBLEMS)
    ]
    assert links[MAX_LINK_PROBLEMS - 1][2].startswith(f"[[nowhere-{MAX_LINK_PROBLEMS - 1}]]")
    (more,) = links[MAX_LINK_PROBLEMS:]
    assert more[0] == 5 + MAX_LINK_PROBLEMS  # the first link not listed
    assert more[2].startswith(f"{extra:,} more wikilinks")
    assert sum(t.startswith("nowhere-") for t in checked) == MAX_LINK_PROBLEMS

    write_workspace(tmp_path / "without", OTHER)
    alone = _by_path(Engine.open(tmp_path / "without"))
    assert {p: r for p, r in _by_path(Engine.open(tmp_path / "with")).items() if p != HOSTILE} == (
        alone
    )


def test_at_the_cap_every_problem_is_listed(tmp_path: Path) -> None:
    write_workspace(tmp_path, {**OTHER, HOSTILE: _links(MAX_LINK_PROBLEMS)})
    rows = _by_path(Engine.open(tmp_path))[HOSTILE]
    links = [r for r in rows if r[1] == Code.LINK_DANGLING]
    assert len(links) == MAX_LINK_PROBLEMS
    assert all(message.startswith("[[nowhere-") for _, _, message in links)
