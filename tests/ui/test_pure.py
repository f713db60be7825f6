"""The UI's pure helpers: query tokens, dates, history, chart buckets, wikilinks, snippets."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine.dates import date_or_none
from reme_tui.engine.index.semantic import SemanticStatus
from reme_tui.engine.parse import tokenize
from reme_tui.engine.search.grammar import SearchState, parse_query
from reme_tui.ui.history import History, Visit
from reme_tui.ui.rows import densest_start, snippet, term_pattern
from reme_tui.ui.semantic_progress import mode_label
from reme_tui.ui.widgets.match_chart import Chart, bucket_counts
from reme_tui.ui.wikilinks import linkify, parse_wiki_href


def test_normalize_date_accepts_short_forms_and_rejects_impossible_dates() -> None:
    assert date_or_none("2026-3-1") == "2026-03-01"
    assert date_or_none(" 2026-03-01 ") == "2026-03-01"
    assert date_or_none("2026-02-30") is None
    assert date_or_none("2026/03/01") is None
    assert date_or_none("") is None


def test_parse_query_pulls_out_tokens() -> None:
    parsed = parse_query(
        "tag:Alice -tag:bob since:2026-1-5 until:2026-3-31 postgres", complete=True
    )
    assert parsed.text == "postgres"
    assert parsed.tags == ["alice"]
    assert parsed.exclude_tags == ["bob"]
    assert (parsed.since, parsed.until) == ("2026-01-05", "2026-03-31")
    assert parsed.errors == []


def test_parse_query_leaves_a_token_being_typed_alone() -> None:
    parsed = parse_query("postgres tag:ali")
    assert parsed.pending and parsed.tags == []
    assert parsed.text.strip() == "postgres"
    assert parsed.box == "postgres tag:ali"
    assert parse_query("postgres tag:ali", complete=True).tags == ["ali"]


def test_parse_query_reports_bad_values() -> None:
    parsed = parse_query("since:2026-13-01 tag:--- x", complete=True)
    assert parsed.since is None
    assert len(parsed.errors) == 2
    assert parsed.text == "x"


def test_the_query_language_reads_dates_by_the_engine_rule() -> None:
    parsed = parse_query("since:2026-03-10T08:00 until:20260401 x", complete=True)
    assert parsed.since == "2026-03-10" and parsed.until == "2026-04-01"
    parsed = parse_query("since:2026-02-30 x", complete=True)
    assert parsed.since is None and any("since" in e for e in parsed.errors)


def test_words_that_merely_contain_a_colon_are_text() -> None:
    parsed = parse_query("ratio:3 mytag:x", complete=True)
    assert parsed.text == "ratio:3 mytag:x"
    assert not parsed.found_tokens


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_parse_query_never_crashes_and_is_idempotent(text: str) -> None:
    once = parse_query(text, complete=True)
    twice = parse_query(once.text, complete=True)
    assert twice.text == once.text


def test_search_state_chips_move_between_included_and_excluded() -> None:
    state = SearchState().with_tag("Alice").with_tag("bob")
    assert state.filters.tags == ("alice", "bob")
    state = state.with_tag("alice", exclude=True)
    assert state.filters.tags == ("bob",) and state.filters.exclude_tags == ("alice",)
    assert state.without_last_tag().filters.exclude_tags == ()
    assert state.without_last_tag().without_last_tag().filters.tags == ()
    assert SearchState().with_tag("---") == SearchState()


def test_history_coalesces_cursor_browsing_and_goes_back_and_forward() -> None:
    history = History()
    history.visit(Visit("a.md", browsing=True))
    history.visit(Visit("b.md", browsing=True))  # replaces a.md
    history.visit(Visit("c.md"))
    history.visit(Visit("d.md"))
    assert len(history) == 3
    assert history.back() == Visit("c.md")
    assert history.back() == Visit("b.md", browsing=True)
    assert history.back() is None
    assert history.forward() == Visit("c.md")
    history.visit(Visit("e.md"))  # drops the forward entry d.md
    assert not history.can_forward
    history.forget("c.md")
    assert [history.back()] == [Visit("b.md", browsing=True)]


def test_bucket_counts_by_day_and_by_week() -> None:
    counts, first, last, bucket = bucket_counts(["2026-01-01", "2026-01-03", "2026-01-03", None])
    assert counts == [1.0, 0.0, 2.0] and (first, last, bucket) == (
        "2026-01-01",
        "2026-01-03",
        "day",
    )
    counts, _, _, bucket = bucket_counts(["2025-01-01", "2025-12-31"])
    assert bucket == "week" and sum(counts) == 2
    assert bucket_counts([None]) == ([], "", "", "")


def _bucket_counts_per_match(dates: list[str | None]) -> tuple[list[float], str, str, str]:
    """The chart's buckets computed one match at a time (the reference)."""
    days = sorted(date.fromisoformat(d) for d in dates if d)
    if not days:
        return [], "", "", ""
    span = (days[-1] - days[0]).days + 1
    if span <= 120:
        size, name = 1, "day"
    elif span <= 120 * 7:
        size, name = 7, "week"
    else:
        size, name = max(30, -(-span // 120)), "month"
    counts = [0.0] * ((span - 1) // size + 1)
    for when in days:
        counts[(when - days[0]).days // size] += 1
    return counts, days[0].isoformat(), days[-1].isoformat(), name


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.just(""),
            st.dates(date(2020, 1, 1), date(2027, 12, 31)).map(date.isoformat),
        ),
        max_size=60,
    )
)
def test_bucket_counts_by_distinct_date_equal_counting_every_match(
    dates: list[str | None],
) -> None:
    assert bucket_counts(dates) == _bucket_counts_per_match(dates)
    assert Chart.of_counts(Counter(dates)) == Chart.of(dates)


def test_linkify_makes_followable_links_and_marks_dangling_ones() -> None:
    body = "See [[a.md#top|the A]] and [[gone.md]].\n```\n[[a.md]]\n```\n![[a.md]]"
    out = linkify(body, lambda path: path == "a.md")
    lines = out.split("\n")
    assert lines[0] == "See [the A](<wiki:a.md#top>) and ~~gone.md~~ ⚠."
    assert lines[2] == "[[a.md]]"  # untouched inside a code fence
    assert lines[4] == "[a.md](<wiki:a.md>)"
    assert len(lines) == len(body.split("\n"))
    assert parse_wiki_href("wiki:a.md#top") == ("a.md", "top")
    assert parse_wiki_href("https://x") is None


def test_term_pattern_matches_whole_tokens_only() -> None:
    pattern = term_pattern(["postgres", "数"])
    assert pattern is not None
    text = "Postgres postgres_x xpostgres 数据"
    assert [m.group(0) for m in pattern.finditer(text)] == ["Postgres", "数"]
    assert term_pattern([]) is None


def _reference_pattern(terms: list[str]) -> re.Pattern[str] | None:
    """The first formulation: one negated class per term, slow to compile (~5 ms)."""
    word = r"[^\W\u4e00-\u9fff]"
    ordered = sorted({t for t in terms if t}, key=lambda t: (-len(t), t))
    parts = [
        re.escape(t)
        if re.fullmatch(r"[\u4e00-\u9fff]", t)
        else rf"(?<!{word}){re.escape(t)}(?!{word})"
        for t in ordered
    ]
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


_ALPHABET = st.sampled_from(list("abAB_1 -.éÉßΣσς数据中\u0130\u0131"))


@given(
    st.lists(st.text(_ALPHABET, min_size=1, max_size=4), max_size=4),
    st.text(_ALPHABET, max_size=60),
)
def test_term_pattern_finds_what_the_reference_pattern_finds(terms: list[str], text: str) -> None:
    fast, reference = term_pattern(terms), _reference_pattern(terms)
    if reference is None:
        assert fast is None
        return
    assert fast is not None
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in reference.finditer(text)]


_GLUED_CHARS = st.sampled_from(list("abAB_1éÉßΣσς\u0130\u0131"))
_TOKEN_TERMS = st.one_of(st.text(_GLUED_CHARS, min_size=1, max_size=4), st.sampled_from("数据中"))


@given(st.lists(_TOKEN_TERMS, min_size=1, max_size=4), st.text(_ALPHABET, max_size=60))
def test_terms_the_tokenizer_makes_are_matched_by_their_neighbours(
    terms: list[str], text: str
) -> None:
    fast, reference = term_pattern(terms), _reference_pattern(terms)
    assert fast is not None and reference is not None
    assert fast.checks_neighbours
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in reference.finditer(text)]
    first = reference.search(text)
    found = fast.search(text)
    assert (found.span() if found else None) == (first.span() if first else None)


@given(
    st.lists(_TOKEN_TERMS, min_size=1, max_size=4),
    st.text(st.sampled_from(list("abAB_1 -.\n")), max_size=60),
)
def test_in_ascii_text_the_terms_are_found_as_the_reference_finds_them(
    terms: list[str], text: str
) -> None:
    fast, reference = term_pattern(terms), _reference_pattern(terms)
    assert fast is not None and reference is not None
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in reference.finditer(text)]


@given(st.text(st.sampled_from(list("ab cAB_1-数据éßΣ")), max_size=40))
def test_a_query_s_tokens_take_the_neighbour_check(query: str) -> None:
    pattern = term_pattern(tokenize(query))
    assert pattern is None or pattern.checks_neighbours


def test_a_lowercase_that_adds_a_mark_keeps_the_boundary_regex() -> None:
    pattern = term_pattern(tokenize("1İ"))  # "1i̇": the dot is no word character
    assert pattern is not None and not pattern.checks_neighbours


def test_hand_made_terms_keep_the_boundary_regex() -> None:
    pattern = term_pattern(["a b", "x-y"])
    assert pattern is not None and not pattern.checks_neighbours
    assert [m.group() for m in pattern.finditer("A b, xa b, x-y")] == ["A b", "x-y"]


def test_snippet_centres_on_the_first_match_and_drops_heading_marks() -> None:
    text = "# Title\n\n" + "word " * 100 + "needle here"
    out = snippet(text, term_pattern(["needle"]), width=60)
    assert out.startswith("…") and "needle" in out
    assert snippet("# Title\n- item", None) == "Title item"


def test_reme_filter_tokens_in_the_query() -> None:
    parsed = parse_query(
        'orbit in:digest/wiki path:daily/x.md type:decision status:["a","b"] ratio:3 ',
        meta_keys={"type", "status"},
    )
    assert parsed.text == "orbit ratio:3 "
    assert parsed.prefixes == ["digest/wiki"] and parsed.paths == ["daily/x.md"]
    assert [(m.key, m.value, m.any_of) for m in parsed.meta] == [
        ("type", "decision", False),
        ("status", ("a", "b"), True),
    ]
    assert parse_query("-type:x ", meta_keys={"type"}).errors == [
        "only tags can be excluded, not type:"
    ]


def test_the_mode_label_says_when_the_vector_search_failed_on_a_query() -> None:
    ready = SemanticStatus("ready", "potion", 5, 5)
    assert mode_label(ready)[0] == "hybrid"
    label, tooltip = mode_label(ready, vector_error="RuntimeError: boom")
    assert label == "BM25 only" and "RuntimeError: boom" in tooltip
    assert mode_label(SemanticStatus("off", None, 0, 0), vector_error=None)[0] == "BM25"


@given(
    st.lists(st.integers(0, 2_000), min_size=1, max_size=64, unique=True).map(sorted),
    st.integers(1, 400),
)
def test_the_densest_window_is_found_in_one_pass(positions: list[int], window: int) -> None:
    def held(at: int) -> int:
        return sum(at <= p < at + window for p in positions)

    most = max(held(p) for p in positions)
    assert densest_start(positions, window) == min(p for p in positions if held(p) == most)


def test_paths_are_cut_from_the_left() -> None:
    from reme_tui.ui.cells import cut_left

    assert cut_left("daily/2026-11-16/1on1-alice.md", 40) == "daily/2026-11-16/1on1-alice.md"
    assert cut_left("daily/2026-11-16/1on1-alice.md", 16) == "…/1on1-alice.md"
    assert cut_left("daily/2026-11-16/1on1-alice.md", 1) == "…"
    assert cut_left("daily/项目/笔记.md", 8) == "…笔记.md"  # wide characters count double
