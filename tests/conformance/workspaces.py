"""Conformance workspaces and queries, defined as data.

Each workspace maps a workspace-relative POSIX path to the file's content (``str`` is
written as UTF-8, ``bytes`` verbatim). They are built from the examples of
``../shared/SPEC.md``. ``make_goldens.py`` runs the reference (reme-ai 0.4.2.0) over
them and records its answers in ``goldens.json``; ``test_reference.py`` runs reme-tui
over the same files and compares. Change anything here and regenerate the goldens.

A case is a dict:

* ``id``: unique name, ``workspace``: key of :data:`WORKSPACES`;
* ``kind``: ``"search"``, ``"list_tags"``, or ``"invalid_date"`` (a search whose date
  the reference ignores with a warning, as reme-tui does: the warning is checked too);
* search fields (all optional but ``query``): ``query``, ``tags``, ``since``, ``until``,
  ``strict``, ``limit``, ``min_score``;
* list_tags fields: ``order_by`` (``"tag"`` / ``"file_count"``), ``order``
  (``"asc"`` / ``"desc"`` / ``None`` for the default of that ordering).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

Content = str | bytes
Workspace = dict[str, Content]


def fm(body: str, **fields: str) -> str:
    """A file with raw YAML frontmatter lines (values are written verbatim)."""
    head = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return f"---\n{head}---\n{body}"


LONG_TAG = "x" * 70
TAG_64 = "t" * 64

# -- tags: normalization, limits, voided frontmatter, what counts as a memory ----------

TAGS: Workspace = {
    "daily/2026-03-01/spellings.md": fm(
        "Alpha rollout notes for the spellings file.\n",
        name="Spellings",
        description="Four spellings of one tag",
        memory_tags='[Project_A, "project a", PROJECT A, "  Project   A "]',
    ),
    "daily/2026-03-02/strasse.md": fm(
        "Alpha rollout in the Straße office.\n",
        name="Strasse",
        memory_tags="[Straße, STRASSE, project-a]",
    ),
    "daily/2026-03-03/numbers.md": fm(
        "Alpha rollout budget numbers for 2026.\n",
        memory_tags="[2026, true, '---', null, 1.5, [nested], " + LONG_TAG + "]",
    ),
    "daily/2026-03-04.md": fm(
        "Day index: alpha rollout continued with the beta team.\n",
        memory_tags=f"[beta, {TAG_64}, Beta]",
    ),
    "digest/wiki/fourth.md": fm(
        "Rollout wiki page with four tags, the fourth is dropped.\n",
        name="Fourth",
        description="Has a fourth tag",
        memory_tags="[alpha, beta, gamma, delta]",
    ),
    "digest/wiki/dupes-then-fourth.md": fm(
        "Rollout page whose duplicates do not count towards the limit.\n",
        memory_tags="[gamma, Gamma, GAMMA, epsilon, zeta, eta]",
    ),
    "digest/personal/scalar.md": fm(
        "Rollout scalar tags are ignored.\n",
        name="Scalar",
        memory_tags="project_a",
    ),
    "digest/personal/date-name.md": fm(
        "Rollout with an unquoted date as name voids the frontmatter.\n",
        name="2026-04-05",
        description="voided",
        memory_tags="[voided_by_date]",
    ),
    "digest/personal/int-name.md": fm(
        "Rollout with an integer name voids the frontmatter.\n",
        name="2026",
        memory_tags="[voided_by_int]",
    ),
    "digest/personal/list-description.md": fm(
        "Rollout with a list description voids the frontmatter.\n",
        name="List description",
        description="[a, b]",
        memory_tags="[voided_by_description]",
    ),
    "digest/personal/invalid-yaml.md": (
        "---\nname: Broken\nmemory_tags: [unclosed, alpha\n---\n"
        "Rollout with invalid YAML frontmatter still has a searchable body.\n"
    ),
    "digest/personal/not-mapping.md": "---\n- just\n- a list\n---\nRollout not a mapping.\n",
    "digest/personal/cjk-tags.md": fm(
        "Rollout with CJK and kana tags.\n",
        memory_tags="[项目甲, プロジェクト, 项目 甲]",
    ),
    "digest/personal/empty-body.md": fm("", name="Empty", memory_tags="[empty_body, alpha]"),
    "daily/misc/undated.md": fm("Rollout notes without a date.\n", memory_tags="[misc, Project_A]"),
    "digest/procedure/UPPER.MD": fm("Rollout upper-case suffix.\n", memory_tags="[upper_suffix]"),
    "digest/.hidden.md": fm("Rollout hidden file.\n", memory_tags="[hidden]"),
    "daily/2026-03-05/notes.txt": "memory_tags: [txt]\nRollout text file, not a memory.\n",
    "root.md": fm("Rollout at the root is not a memory.\n", memory_tags="[project_a, root]"),
    "resource/res.md": fm("Rollout resource is not a memory.\n", memory_tags="[resource]"),
    "notes/note.md": fm("Rollout note is not a memory.\n", memory_tags="[notes]"),
    "metadata/meta.md": fm("Rollout metadata is not a memory.\n", memory_tags="[metadata]"),
}

# -- text: tokenizer, stopwords, CJK, ties ----------------------------------------------

TEXT: Workspace = {
    "daily/2026-03-10/cjk.md": "项目会议讨论了预算和时间表。\n\n会议记录由李明整理。\n",
    "daily/2026-03-10/kana.md": (
        "プロジェクト会議はカタカナで書かれた議事録です。\n\nひらがな の メモ\n"
    ),
    "daily/2026-03-10/hangul.md": "프로젝트 회의 예산 검토\n",
    "daily/2026-03-11/mixed.md": "Project 预算 review: the budget for Q3 is 120k.\n",
    "daily/2026-03-11/underscore.md": "The project_a launch uses snake_case names.\n",
    "daily/2026-03-11/hyphen.md": "The project-a launch uses kebab-case names.\n",
    "daily/2026-03-11/letters.md": "a b c x y z single letters only i o u\n",
    "daily/2026-03-12/tie-one.md": "Quarterly budget review with the finance team.\n",
    "daily/2026-03-12/tie-two.md": "Quarterly budget review with the finance team.\n",
    "daily/2026-03-12/tie-three.md": "Quarterly budget review with the finance team.\n",
    "daily/2026-03-12/budget-heavy.md": (
        "Budget budget budget: the budget dominates this note about the budget.\n"
    ),
    "daily/2026-03-12/latin1.md": b"Caf\xe9 budget receipts, encoded as latin-1.\n",
    "daily/2026-03-12/crlf.md": "---\r\nname: CRLF\r\n---\r\nWindows line endings budget.\r\n",
    "digest/wiki/stopwords.md": "The and of to in is it that was for on are with as.\n",
    "digest/wiki/numbers.md": "Revenue 2026 grew 15 percent; 3 units shipped in 2025.\n",
    "digest/wiki/long-frontmatter.md": fm(
        "\n\n\nBudget appears after blank lines.\n\n\n",
        name="Blank lines",
        description="Line numbers count the frontmatter",
    ),
    "digest/wiki/multi-para.md": (
        "# Finance\n\nThe finance team met.\n\n## Budget\n\nBudget approved for launch.\n"
    ),
}

# -- dates --------------------------------------------------------------------------------

DATES: Workspace = {
    "daily/2026-02-28/standup.md": "Standup on the last day of February.\n",
    "daily/2026-03-01.md": "Standup day index for the first of March.\n",
    "daily/2026-03-01/standup.md": "Standup notes on the first of March.\n",
    "daily/2026-03-10/standup.md": "Standup notes on the tenth of March.\n",
    "daily/2026-03-10.md": "Standup day index for the tenth of March.\n",
    "daily/2026-03-15/deep/nested/standup.md": "Standup nested deeper under a dated folder.\n",
    "daily/2026-3-5/standup.md": "Standup under a non padded folder name.\n",
    "daily/2026-02-30/standup.md": "Standup under an impossible date.\n",
    "daily/misc/standup.md": "Standup notes without any date.\n",
    "digest/procedure/standup.md": "Standup procedure, undated digest.\n",
    "daily/2026-04-01/standup.md": "Standup notes in April.\n",
}

# -- links ----------------------------------------------------------------------------------

LINKS: Workspace = {
    "digest/wiki/hub.md": fm(
        "# Hub\n\n"
        "Hub page about the orbit project.\n\n"
        "See [[digest/wiki/a.md]] and [[digest/wiki/a.md#Intro]] and again "
        "[[digest/wiki/a.md#Intro|the intro]] and [[digest/wiki/a.md#Details|details]].\n"
        "Embedded: ![[digest/wiki/b.md]] and spaced [[ digest/wiki/b.md # Spaced Anchor ]].\n"
        "Daily: [[daily/2026-03-10/c.md#Sec|C]].\n"
        "Dangling: [[missing.md]], [[digest/wiki/a]] (no implicit suffix), "
        "[[resource/res.md]] (not a memory), [[#only-anchor]] (empty target).\n"
        "Markdown link [b](digest/wiki/b.md) is not an edge.\n"
        "Voided neighbour: [[digest/wiki/voided.md]].\n",
        name="Hub",
        description="Central orbit page",
    ),
    "digest/wiki/a.md": fm(
        "# Intro\n\nOrbit intro page A.\n\n# Details\n\nMore orbit details.\n",
        name="Page A",
        description="First page",
    ),
    "digest/wiki/b.md": fm("Orbit page B links back to [[digest/wiki/hub.md]].\n", name="Page B"),
    "digest/wiki/voided.md": fm(
        "Orbit voided page links to [[digest/wiki/a.md#Details]].\n",
        name="2026-01-01",
        description="ignored",
    ),
    "daily/2026-03-10/c.md": "# Sec\n\nOrbit daily note C links [[digest/wiki/hub.md#Hub]].\n",
    "resource/res.md": "Orbit resource, not a memory.\n",
    "digest/wiki/fan-out.md": fm(
        "Fanout page lists many targets:\n"
        + "".join(f"- [[daily/2026-03-{day:02d}/n.md]]\n" for day in range(1, 13)),
        name="Fan out",
        description="Links to twelve daily notes",
    ),
    **{
        f"daily/2026-03-{day:02d}/n.md": (
            f"Fanin note {day} points to [[digest/wiki/fan-in.md#Part{day}]].\n"
        )
        for day in range(1, 13)
    },
    "digest/wiki/fan-in.md": fm(
        "Fanin target page with twelve inlinks.\n",
        name="Fan in",
        description="Linked from twelve daily notes",
    ),
}

# -- large bodies: heading-tree chunking ----------------------------------------------------

_SENTENCES = [
    "The launch checklist covers vendor contracts, staffing, and the regional budget.",
    "Each owner confirms their deliverables in the weekly operations review.",
    "Risks are logged with a severity, a mitigation plan, and a named contact.",
    "Finance reconciles the purchase orders before the quarterly close.",
    "Support prepares the escalation runbook and the customer announcement.",
]


def _paragraph(seed: int, sentences: int = 5) -> str:
    return " ".join(_SENTENCES[(seed + i) % len(_SENTENCES)] for i in range(sentences))


def _large_body() -> str:
    parts: list[str] = ["# Launch handbook", "", _paragraph(0), ""]
    markers = ["zephyr", "quokka", "marmot", "pangolin", "okapi", "narwhal"]
    for s, marker in enumerate(markers):
        parts += [f"## Section {s + 1}: {marker} workstream", ""]
        for sub in range(3):
            parts += [f"### Step {s + 1}.{sub + 1}", ""]
            parts += [f"The {marker} step {sub + 1} is tracked here. {_paragraph(s + sub, 7)}", ""]
    parts += ["## Appendix", "", "```", "# not a heading inside a fence", "```", ""]
    parts += ["Closing note about the axolotl review.", ""]
    return "\n".join(parts)


def _long_paragraph() -> str:
    return " ".join(f"Sentence {i} mentions the capybara ledger entry." for i in range(400)) + "\n"


def _long_list() -> str:
    return "".join(f"- item {i}: the walrus inventory line {i}\n" for i in range(500))


def _many_headings() -> str:
    return "".join(
        f"## Item {i}\n\nEntry {i} about the ibex register. {_paragraph(i, 1)}\n\n"
        for i in range(110)
    )


LARGE: Workspace = {
    "digest/procedure/handbook.md": fm(
        _large_body(), name="Handbook", description="A body larger than 10,000 bytes"
    ),
    "digest/procedure/long-paragraph.md": _long_paragraph(),
    "digest/procedure/many-headings.md": _many_headings(),
    "digest/procedure/long-list.md": fm(_long_list(), name="Long list"),
    "daily/2026-03-20/small.md": "A small note that mentions the zephyr workstream once.\n",
}


# -- edge cases: YAML 1.1 scalars, Unicode tags, frontmatter shapes, link syntax ------------

EDGE: Workspace = {
    "digest/yaml/scalars.md": fm(
        "Kestrel scalars note.\n",
        memory_tags="[0x1F, 12:30, yes]",
    ),
    "digest/yaml/more-scalars.md": fm(
        "Kestrel more scalars.\n",
        memory_tags="[1_000, ~, 2026-04-05, off, 0o17]",
    ),
    "digest/yaml/unicode.md": fm(
        "Kestrel unicode tags.\n",
        memory_tags='[İstanbul, ＰＲＯＪＥＣＴ, "🚀"]',
    ),
    "digest/yaml/nfd.md": fm(
        "Kestrel composed and decomposed.\n",
        memory_tags='[café, "cafe\\u0301", "tab\\tseparated"]',
    ),
    "digest/yaml/empty-values.md": fm(
        "Kestrel empty values.\n", name='""', description='""', memory_tags="[]"
    ),
    "digest/yaml/null-tags.md": fm("Kestrel null tags.\n", name="Null tags", memory_tags=""),
    "digest/yaml/trailing-spaces.md": (
        "---   \nname: Trailing\nmemory_tags: [trailing]\n---  \nKestrel trailing fence.\n"
    ),
    "digest/yaml/unclosed.md": "---\nname: Unclosed\nmemory_tags: [unclosed]\nKestrel unclosed.\n",
    "digest/yaml/bom.md": "\ufeff---\nname: Bom\nmemory_tags: [bom]\n---\nKestrel with a BOM.\n",
    "digest/yaml/late-fence.md": "\n---\nmemory_tags: [late]\n---\nKestrel late fence.\n",
    "digest/yaml/whitespace-body.md": fm("\n   \n\t\n", memory_tags="[whitespace_body]"),
    "digest/.obsidian/inside.md": fm("Kestrel inside a dot folder.\n", memory_tags="[dot_folder]"),
    "digest/links/syntax.md": fm(
        "Kestrel link syntax.\n"
        "[[digest/links/target.md#a#b]] [[digest/links/target.md|x|y]] "
        "[[digest/links/target.md#  ]] [[ #x]] [[digest/links/target.md#]]\n"
        "[[DIGEST/LINKS/TARGET.MD]] [[./digest/links/target.md]] [[digest/links/self.md]]\n"
        "```\n[[digest/links/fenced.md#in-code]]\n```\n"
        "[[digest/yaml/bom.md#Top]] [[digest/yaml/empty-values.md]]\n",
        name="Syntax",
        description="[[digest/links/frontmatter.md]]",
    ),
    "digest/links/target.md": "Kestrel link target.\n",
    "digest/links/self.md": "Kestrel self link [[digest/links/self.md#me]].\n",
    "digest/links/fenced.md": "Kestrel fenced target.\n",
    "digest/links/frontmatter.md": "Kestrel frontmatter target.\n",
    "digest/text/tokens.md": (
        "Straße v2 don't 㐀㐁 ｆｕｌｌ ４２ emoji🚀rocket CamelCase 3.14 e-mail foo_bar_baz\n"
    ),
}

WORKSPACES: dict[str, Workspace] = {
    "tags": TAGS,
    "text": TEXT,
    "dates": DATES,
    "links": LINKS,
    "large": LARGE,
    "edge": EDGE,
}


def _search(case_id: str, workspace: str, query: str, **options: Any) -> dict[str, Any]:
    return {"id": case_id, "workspace": workspace, "kind": "search", "query": query, **options}


def _tags(case_id: str, workspace: str, order_by: str, order: str | None) -> dict[str, Any]:
    return {
        "id": case_id,
        "workspace": workspace,
        "kind": "list_tags",
        "order_by": order_by,
        "order": order,
    }


CASES: list[dict[str, Any]] = [
    # tag listings, both orders
    _tags("tags-by-tag", "tags", "tag", None),
    _tags("tags-by-tag-desc", "tags", "tag", "desc"),
    _tags("tags-by-count", "tags", "file_count", None),
    _tags("tags-by-count-asc", "tags", "file_count", "asc"),
    _tags("links-no-tags", "links", "tag", None),
    # tag filters
    _search("rollout-plain", "tags", "rollout", limit=50),
    _search("rollout-project-a", "tags", "rollout", tags=["project a"], limit=50),
    _search("rollout-spaced-tag", "tags", "rollout", tags=["  Project   A "], limit=50),
    _search("rollout-strasse", "tags", "rollout", tags=["STRASSE"], limit=50),
    _search("rollout-any", "tags", "rollout", tags=["Project_A", "beta", "项目_甲"], limit=50),
    _search("rollout-hyphen-tag", "tags", "rollout", tags=["project-a"], limit=50),
    _search("rollout-int-tag", "tags", "rollout", tags=["2026"], limit=50),
    _search("rollout-kana-tag", "tags", "rollout", tags=["プロジェクト"], limit=50),
    _search("rollout-unknown-tag", "tags", "rollout", tags=["nonexistent"], limit=50),
    _search("rollout-voided-tag", "tags", "rollout", tags=["voided_by_date"], limit=50),
    _search("rollout-mixed-valid-invalid", "tags", "rollout", tags=["---", "delta"], limit=50),
    _search("rollout-invalid-tags", "tags", "rollout", tags=["---", "   "]),
    _search("rollout-long-tag", "tags", "rollout", tags=[LONG_TAG]),
    _search(
        "rollout-tags-and-dates",
        "tags",
        "rollout",
        tags=["alpha", "project_a"],
        since="2026-03-02",
        limit=50,
    ),
    _search("empty-query", "tags", "   "),
    # tokenizer and BM25
    _search("cjk-query", "text", "会议预算", limit=50),
    _search("cjk-single", "text", "预算"),
    _search("kana-query", "text", "プロジェクト会議はカタカナで書かれた議事録です", limit=50),
    _search("hangul-query", "text", "예산", limit=50),
    _search("underscore-query", "text", "project_a", limit=50),
    _search("hyphen-query", "text", "project-a launch", limit=50),
    _search("stopwords-only", "text", "the and of is", limit=50),
    _search("single-letters", "text", "a b c", limit=50),
    _search("budget-limit-1", "text", "budget", limit=1),
    _search("budget-limit-5", "text", "budget"),
    _search("budget-limit-50", "text", "budget review finance", limit=50),
    _search("budget-min-score", "text", "budget", limit=50, min_score=0.8),
    _search("budget-min-score-high", "text", "budget", limit=50, min_score=100.0),
    _search("numbers", "text", "2026 15 revenue", limit=50),
    _search("latin1", "text", "caf receipts", limit=50),
    _search("no-match", "text", "xylophone", limit=50),
    # dates
    _search("dates-none", "dates", "standup", limit=50),
    _search("dates-since", "dates", "standup", since="2026-03-01", limit=50),
    _search("dates-until", "dates", "standup", until="2026-03-01", limit=50),
    _search("dates-unpadded", "dates", "standup", since="2026-3-1", until="2026-3-10", limit=50),
    _search(
        "dates-strict",
        "dates",
        "standup",
        since="2026-03-01",
        until="2026-03-31",
        strict=True,
        limit=50,
    ),
    _search("dates-strict-no-range", "dates", "standup", strict=True, limit=50),
    _search("dates-strict-since", "dates", "standup", since="2026-03-10", strict=True, limit=50),
    _search(
        "dates-single-day", "dates", "standup", since="2026-03-10", until="2026-03-10", limit=50
    ),
    _search("dates-limit-1", "dates", "standup tenth", since="2026-03-01", limit=1),
    {
        **_search("dates-invalid", "dates", "standup", since="2026-02-30", limit=50),
        "kind": "invalid_date",
    },
    # links
    _search("links-hub", "links", "hub", limit=50),
    _search("links-orbit", "links", "orbit", limit=50),
    _search("links-fan-out", "links", "fanout", limit=50),
    _search("links-fan-in", "links", "fanin target", limit=50),
    _search(
        "links-fan-in-date",
        "links",
        "fanin",
        since="2026-03-05",
        until="2026-03-06",
        strict=True,
        limit=50,
    ),
    # large bodies
    _search("large-quokka", "large", "quokka", limit=50),
    _search("large-zephyr", "large", "zephyr workstream", limit=50),
    _search("large-axolotl", "large", "axolotl heading fence", limit=50),
    _search("large-capybara", "large", "capybara ledger", limit=50),
    _search("large-ibex", "large", "ibex register", limit=50),
    _search("large-walrus", "large", "walrus inventory", limit=50),
    _search("large-common", "large", "launch checklist budget", limit=5),
    # edge cases
    _tags("edge-tags", "edge", "tag", None),
    _tags("edge-tags-count", "edge", "file_count", "desc"),
    _search("edge-kestrel", "edge", "kestrel", limit=50),
    _search("edge-kestrel-limit-1", "edge", "kestrel", limit=1),
    _search("edge-syntax", "edge", "syntax", limit=50),
    _search("edge-self", "edge", "self", limit=50),
    _search("edge-target", "edge", "target", limit=50),
    _search("edge-tags-dupes", "edge", "kestrel", tags=["bom", "BOM", "trailing", "31"], limit=50),
    _search("edge-tags-unicode", "edge", "kestrel", tags=["i̇stanbul", "ｐｒｏｊｅｃｔ"], limit=50),
    _search("edge-tags-nfd", "edge", "kestrel", tags=["cafe\u0301"], limit=50),
    _search("edge-strasse-upper", "edge", "STRASSE", limit=50),
    _search("edge-strasse", "edge", "straße", limit=50),
    _search("edge-ext-a", "edge", "㐀㐁", limit=50),
    _search("edge-fullwidth", "edge", "ｆｕｌｌ ４２", limit=50),
    _search("edge-tokens", "edge", "v2 don camelcase 14 mail foo_bar_baz emoji rocket", limit=50),
]


def materialize(files: Workspace, root: Path) -> Path:
    """Write a workspace's files under ``root`` and return ``root``."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_bytes(content.encode("utf-8"))
    return root
