"""Tags a reader cannot tell apart (issue 26): ReMe's listing is kept (each is its own tag),
but they are grouped as near-duplicates, shown with their invisible characters escaped,
and an edit that adds one beside its twin warns."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reme_tui.cli import main
from reme_tui.engine.tags import look_key, lookalike_of, looks_alike
from reme_tui.engine.tags.dupes import TagStats, find_tag_clusters
from reme_tui.engine.tags.normalize import normalize_tag
from reme_tui.safe_text import for_terminal_line
from tests.helpers import memory, write_workspace

# Each looks like "alice" (or its NFC twin "café" like "café") and is another string.
TWINS = {
    "zero-width space": "ali\u200bce",
    "zero-width joiner": "ali\u200dce",
    "zero-width non-joiner": "ali\u200cce",
    "soft hyphen": "ali\u00adce",
    "word joiner": "ali\u2060ce",
    "byte order mark": "\ufeffalice",
    "variation selector 16": "alice\ufe0f",
    "variation selector 1": "alic\ufe00e",
    "variation selector 17": "alice\U000e0100",
    "Hangul filler": "alice\u3164",
    "Hangul choseong filler": "alice\u115f",
    "halfwidth Hangul filler": "alice\uffa0",
    "right-to-left mark": "ali\u200fce",
    "bidi override": "ali\u202ece",
    "Cyrillic a": "\u0430lice",
    "Cyrillic e": "alic\u0435",
    "Greek omicron": "b\u03bfb",
    "fullwidth": "ａｌｉｃｅ",
}
PLAIN = {"Greek omicron": "bob"}


@pytest.mark.parametrize("twin", TWINS.values(), ids=TWINS.keys())
def test_each_twin_is_its_own_tag_for_remes_listing_but_looks_alike(twin: str) -> None:
    plain = "bob" if twin == "b\u03bfb" else "alice"
    assert normalize_tag(twin) not in (None, plain)  # ReMe indexes it as another tag
    assert looks_alike(twin, plain) and look_key(twin) == plain
    assert lookalike_of(twin, {plain, "carol"}) == plain


def test_nfc_and_nfd_twins_look_alike_and_other_tags_do_not() -> None:
    nfc, nfd = "caf\u00e9", unicodedata.normalize("NFD", "caf\u00e9")
    assert nfc != nfd and looks_alike(nfc, nfd)
    for a, b in [("alice", "alicia"), ("alice", "alice_b"), ("c++", "c#"), ("v1_2", "v12")]:
        assert not looks_alike(a, b)
    assert not looks_alike("alice", "alice")


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=20))
def test_look_key_is_stable(tag: str) -> None:
    assert look_key(look_key(tag)) == look_key(tag)


def test_twins_are_one_high_cluster_of_near_duplicates() -> None:
    tags = ["alice", *(t for t in TWINS.values() if t != "b\u03bfb"), "bob", "b\u03bfb"]
    normalized = [normalize_tag(tag) for tag in tags]
    stats = [TagStats(tag, 1, (tag,)) for tag in normalized if tag is not None]
    clusters = find_tag_clusters(stats)
    by_first = {cluster.tags[0]: cluster for cluster in clusters}
    alice = next(c for c in clusters if "alice" in c.tags)
    assert set(alice.tags) == {t for t in normalized if t and look_key(t) == "alice"}
    assert alice.confidence == "high" and "lookalike" in alice.methods
    bob = next(c for c in clusters if "bob" in c.tags)
    assert set(bob.tags) == {"bob", "b\u03bfb"} and bob.confidence == "high"
    assert len(by_first) == 2


@pytest.mark.parametrize("twin", TWINS.values(), ids=TWINS.keys())
def test_one_line_fields_show_what_draws_nothing(twin: str) -> None:
    shown = for_terminal_line(twin)
    if twin.startswith(("\u0430", "alic\u0435", "b\u03bf", "ａ")):
        assert shown == twin  # a visible letter: the warning and the grouping tell it apart
    else:
        assert shown != twin and ("\\u" in shown or "\\U" in shown)
        assert shown.replace("\\u", "").isprintable()


def test_emoji_sequences_stay_whole() -> None:
    for emoji in ["👨\u200d👩\u200d👧", "👍\ufe0f", "❤\ufe0f"]:
        assert for_terminal_line(emoji) == emoji


def test_list_tags_keeps_remes_listing_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_workspace(
        tmp_path,
        {
            "digest/a.md": memory("one\n", tags=["alice"]),
            "digest/b.md": memory("two\n", tags=["ali\u200bce"]),
            "digest/c.md": memory("three\n", tags=["\u0430lice"]),
            "digest/d.md": memory("four\n", tags=["bob"]),
        },
    )
    assert main([str(tmp_path), "--list-tags", "--order-by", "tag"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["1  alice", "1  ali\\u200bce", "1  bob", "1  \u0430lice"]
    assert "look identical but are different tags: alice, ali\\u200bce, \u0430lice" in err
    assert main([str(tmp_path), "--tag-dupes"]) == 0
    out, _err = capsys.readouterr()
    assert "[high] alice (1), ali\\u200bce (1), \u0430lice (1)" in out


def test_adding_a_twin_beside_its_tag_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("one\n", tags=["alice"])})
    assert main([str(tmp_path), "--add-tag", "digest/a.md", "ali\u200bce"]) == 0
    out, err = capsys.readouterr()
    assert out == "digest/a.md: tags alice -> alice, ali\\u200bce\n"
    assert "tag ali\\u200bce looks like alice but is another tag" in err
    assert main([str(tmp_path), "--add-tag", "digest/a.md", "carol"]) == 0
    assert "looks like" not in capsys.readouterr().err  # only the edit that brings a twin in


@pytest.mark.parametrize("twin", TWINS.values(), ids=TWINS.keys())
def test_each_twin_is_reported_with_what_deceives(tmp_path: Path, twin: str) -> None:
    from reme_tui.engine.engine import Engine

    root = write_workspace(tmp_path, {"digest/a.md": memory("one\n", tags=["ok", twin])})
    engine = Engine.open(root)
    memory_a = engine.memory("digest/a.md")
    assert memory_a is not None and len(memory_a.tags) == 2  # ReMe's reading is kept
    found = [d for d in engine.diagnostics() if d.code == "tag-lookalike"]
    if twin == "ａｌｉｃｅ":
        assert found == []  # fullwidth: visibly different, only grouped
    else:
        (diagnostic,) = found
        assert diagnostic.severity == "warning" and diagnostic.line == 4  # memory_tags
        assert "drawn as nothing" in diagnostic.message or "drawn like a Latin" in (
            diagnostic.message
        )


def test_plain_tags_emoji_and_other_scripts_are_not_reported(tmp_path: Path) -> None:
    from reme_tui.engine.engine import Engine

    tags = ["alice", "бухгалтерия", "項目", "café", "naïve", "rocket🚀\ufe0f"]
    files = {f"digest/{i}.md": memory("x\n", tags=[tag]) for i, tag in enumerate(tags)}
    engine = Engine.open(write_workspace(tmp_path, files))
    assert [d for d in engine.diagnostics() if d.code == "tag-lookalike"] == []
    nfd = write_workspace(
        tmp_path / "nfd",
        {"digest/a.md": memory("x\n", tags=[unicodedata.normalize("NFD", "café")])},
    )
    (diagnostic,) = [d for d in Engine.open(nfd).diagnostics() if d.code == "tag-lookalike"]
    assert "decomposed (NFD)" in diagnostic.message
