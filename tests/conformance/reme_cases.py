"""Search-filter cases on the ReMe-written sample project (issue 13).

Each case is one ReMe `search` (or `list_tags`) call on `sample_reme_project/.reme`;
`make_reme_goldens.py` records reme-ai's answers into `reme_goldens.json` and
`test_reme_filters.py` asks reme-tui's CLI the same question:

* `paths` -> ReMe `search_filter["paths"]`, reme-tui `--path` (repeatable);
* `prefixes` -> `search_filter["path_prefixes"]`, `--path-prefix` (repeatable);
* `meta` -> `search_filter["metadata"]`, `--meta KEY=VALUE` (a JSON list value = any of);
* `top_level_meta` -> the same keys placed directly in `search_filter` (ReMe treats every
  non-reserved key as a metadata test);
* `metadata_on` -> ReMe runs with `include_frontmatter_in_metadata: true` (reme-tui reads
  that from `--reme-config`); off, metadata tests match nothing.
"""

from __future__ import annotations

from typing import Any

SAMPLE = "sample_reme_project/.reme"

CASES: list[dict[str, Any]] = [
    {"id": "list-by-count", "kind": "list_tags", "order_by": "file_count", "order": None},
    {"id": "list-by-tag", "kind": "list_tags", "order_by": "tag", "order": None},
    {"id": "list-by-tag-desc", "kind": "list_tags", "order_by": "tag", "order": "desc"},
    {"id": "plain", "kind": "search", "query": "Orbit dashboard Svelte", "limit": 10},
    {
        "id": "path-exact",
        "kind": "search",
        "query": "Orbit",
        "paths": ["daily/2026-03-09/Kickoff with Mia.md"],
    },
    {
        "id": "paths-two",
        "kind": "search",
        "query": "Orbit SQLite",
        "paths": ["digest/wiki/project-orbit.md", "daily/2026-03-09/Stack choice.md", "nope.md"],
        "limit": 10,
    },
    {"id": "prefix-digest", "kind": "search", "query": "Orbit", "prefixes": ["digest/"]},
    {
        "id": "prefix-any",
        "kind": "search",
        "query": "Mia Orbit demo",
        "prefixes": ["daily/2026-03-10/", "digest/personal/"],
        "limit": 10,
    },
    {
        "id": "prefix-partial-name",
        "kind": "search",
        "query": "login bug cookie retro",
        "prefixes": ["daily/2026-03-1"],
        "limit": 10,
    },
    {
        "id": "prefix-and-path",
        "kind": "search",
        "query": "Orbit",
        "prefixes": ["digest/"],
        "paths": ["digest/wiki/project-orbit.md", "daily/2026-03-09/Kickoff with Mia.md"],
    },
    {
        "id": "meta-type",
        "kind": "search",
        "query": "Svelte OpenAI summaries",
        "meta": {"type": "decision"},
        "metadata_on": True,
        "limit": 10,
    },
    {
        "id": "meta-any-of",
        "kind": "search",
        "query": "Orbit",
        "meta": {"type": ["decision", "project", "person"]},
        "metadata_on": True,
        "limit": 10,
    },
    {
        "id": "meta-and",
        "kind": "search",
        "query": "Orbit dashboard",
        "meta": {"type": "project", "status": "active"},
        "metadata_on": True,
    },
    {
        "id": "meta-and-miss",
        "kind": "search",
        "query": "Orbit dashboard",
        "meta": {"type": "project", "status": "archived"},
        "metadata_on": True,
    },
    {
        "id": "meta-session",
        "kind": "search",
        "query": "cookie login refresh",
        "meta": {"session_id": "s-20260312-bug"},
        "metadata_on": True,
    },
    {
        "id": "meta-name",
        "kind": "search",
        "query": "kickoff pilot retro",
        "meta": {"name": "Retro"},
        "metadata_on": True,
    },
    {
        "id": "meta-top-level",
        "kind": "search",
        "query": "Svelte OpenAI summaries",
        "top_level_meta": {"type": "decision"},
        "metadata_on": True,
        "limit": 10,
    },
    {
        "id": "meta-off-matches-nothing",
        "kind": "search",
        "query": "Svelte OpenAI summaries",
        "meta": {"type": "decision"},
        "metadata_on": False,
    },
    {
        "id": "tags-and-prefix",
        "kind": "search",
        "query": "Orbit",
        "tags": ["project orbit"],
        "prefixes": ["daily/"],
        "limit": 10,
    },
    {
        "id": "tags-and-path",
        "kind": "search",
        "query": "Orbit",
        "tags": ["project_orbit", "mia chen"],
        "paths": ["digest/personal/mia-chen.md", "daily/2026-03-12/Summaries cost.md"],
        "limit": 10,
    },
    {
        "id": "tags-and-meta",
        "kind": "search",
        "query": "Orbit Mia",
        "tags": ["Mia Chen"],
        "meta": {"type": "person"},
        "metadata_on": True,
    },
    {
        "id": "dates-and-prefix",
        "kind": "search",
        "query": "Orbit Mia pilot",
        "since": "2026-03-10",
        "until": "2026-03-12",
        "prefixes": ["daily/"],
        "limit": 10,
    },
    {
        "id": "strict-dates-and-digest-prefix",
        "kind": "search",
        "query": "Orbit",
        "since": "2026-03-01",
        "strict": True,
        "prefixes": ["digest/"],
    },
    {
        "id": "dates-undated-pass-prefix",
        "kind": "search",
        "query": "Orbit release",
        "since": "2026-03-01",
        "prefixes": ["digest/"],
        "limit": 10,
    },
    {
        "id": "everything",
        "kind": "search",
        "query": "Orbit Mia demo",
        "tags": ["project orbit", "mia_chen", "kickoff"],
        "since": "2026-03-09",
        "until": "2026-03-31",
        "prefixes": ["daily/2026-03-09/", "digest/"],
        "meta": {"people": None},
        "metadata_on": True,
        "limit": 10,
    },
    {
        "id": "unicode-prefix",
        "kind": "search",
        "query": "演示 告警",
        "prefixes": ["daily/2026-03-10/每"],
    },
]
