"""Inputs ReMe accepts that reme-tui once refused (issue 22), defined as data.

A three-file workspace and searches on it: an invalid date (ReMe drops it with a warning
and answers without that bound), dates as ``date.fromisoformat`` reads them (the basic
``20260306``, a week date, the first ten characters of longer text) or as ``%Y-%m-%d``
(``2026-3-6``), and metadata tests whose value is a mapping (compared whole).
``make_input_goldens.py`` records reme-ai 0.4.2.0's answers into ``input_goldens.json``;
``test_reme_inputs.py`` asks reme-tui's CLI the same questions.

A case: ``id``, ``query``, optional ``since``, ``until``, ``strict``, ``meta`` (a dict:
ReMe's ``search_filter["metadata"]``, reme-tui's ``--meta KEY=JSON``), ``metadata_on``
(ReMe's chunker runs with ``include_frontmatter_in_metadata: true``), and ``warns``: text
reme-tui's warning on stderr must hold (an ignored or partly read date).
"""

from __future__ import annotations

from typing import Any

WORKSPACE: dict[str, str] = {
    "daily/2026-03-01/standup.md": (
        "---\nname: Web standup\ndescription: the web team\n"
        "owner:\n  team: web\n  oncall: false\n---\nStandup about the web launch.\n"
    ),
    "daily/2026-03-06/standup.md": (
        "---\nname: Pay standup\ndescription: the payments team\n"
        "owner:\n  team: pay\n  oncall: true\n---\nStandup about the payment rollout.\n"
    ),
    "digest/procedures/standup.md": (
        "---\nname: Standup procedure\ndescription: how we run it\nowner: pay\n---\n"
        "Standup procedure for every team.\n"
    ),
}

CASES: list[dict[str, Any]] = [
    {
        "id": "invalid-since-strict",
        "query": "standup",
        "since": "2026-02-30",
        "strict": True,
        "warns": "2026-02-30",
    },
    {"id": "invalid-until", "query": "standup", "until": "2026-13-01", "warns": "2026-13-01"},
    {
        "id": "invalid-since-slashes",
        "query": "standup",
        "since": "2026/03/01",
        "strict": True,
        "warns": "2026/03/01",
    },
    {"id": "basic-since", "query": "standup", "since": "20260306"},
    {"id": "basic-until-strict", "query": "standup", "until": "20260301", "strict": True},
    {"id": "week-date-since", "query": "standup", "since": "2026-W10-5", "strict": True},
    {"id": "unpadded-since", "query": "standup", "since": "2026-3-6", "strict": True},
    {"id": "since-with-time", "query": "standup", "since": "2026-03-06T08:00", "strict": True},
    {
        "id": "since-trailing-text",
        "query": "standup",
        "since": "2026-03-011",
        "strict": True,
        "warns": "2026-03-01",
    },
    {
        "id": "meta-mapping",
        "query": "standup",
        "metadata_on": True,
        "meta": {"owner": {"team": "pay", "oncall": True}},
    },
    {
        "id": "meta-mapping-key-order",
        "query": "standup",
        "metadata_on": True,
        "meta": {"owner": {"oncall": True, "team": "pay"}},
    },
    {
        "id": "meta-mapping-part",
        "query": "standup",
        "metadata_on": True,
        "meta": {"owner": {"team": "pay"}},
    },
    {
        "id": "meta-scalar-beside-mappings",
        "query": "standup",
        "metadata_on": True,
        "meta": {"owner": "pay"},
    },
    {
        "id": "meta-mapping-off",
        "query": "standup",
        "meta": {"owner": {"team": "web", "oncall": False}},
        "warns": "see no frontmatter",
    },
]
