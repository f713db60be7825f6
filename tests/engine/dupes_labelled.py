"""A hand-labelled set for near-duplicate tag detection, and a synthetic workspace for it.

Labels are what a person tidying their tags would say: "these two tags name the same
entity, merge them" (TRUE_VARIANTS) or "these look alike but are different things,
never merge them" (LOOKALIKES). Case and whitespace variants are already merged by
ReMe's normalization, so every tag here is canonical (``normalize_tag(t) == t``).

Some true variants are out of reach of string methods on purpose (``bob``/``robert``,
``项目a``/``project_a``, ``golang``/``go``): they keep the recall figures honest.

The synthetic workspace gives every tag a few memories of its own (about its entity,
with words from its domain), plus a handful of memories that carry several tags, so
the co-occurrence and text evidence has something realistic to work with: variants
share an entity, while many look-alikes share a domain (``q3_budget``/``q4_budget``
are both about budgets) or co-occur (``alice``/``alicia`` attend the same meetings).
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any

# (a, b): two spellings a person would merge
TRUE_VARIANTS: list[tuple[str, str]] = [
    # separators and punctuation
    ("project-a", "project_a"),
    ("project_a", "projecta"),
    ("project-a", "projecta"),
    ("jean-luc", "jeanluc"),
    ("e-mail", "email"),
    ("node.js", "nodejs"),
    ("front-end", "frontend"),
    ("ci/cd", "ci_cd"),
    ("machine-learning", "machine_learning"),
    ("a/b_testing", "ab_testing"),
    ("open-source", "opensource"),
    ("2026-q1", "2026_q1"),
    ("v1.2", "v1_2"),
    ("mcdonald's", "mcdonalds"),
    ("o'brien", "obrien"),
    ("wi-fi", "wifi"),
    ("follow-up", "followup"),
    # accents
    ("josé", "jose"),
    ("zoë", "zoe"),
    ("müller", "muller"),
    ("müller", "mueller"),
    ("café_nero", "cafe_nero"),
    ("françois", "francois"),
    ("são_paulo", "sao_paulo"),
    ("björk", "bjork"),
    ("renée", "renee"),
    ("zürich", "zurich"),
    ("łódź", "lodz"),
    ("søren", "soren"),
    # token order (OpenRefine fingerprint)
    ("smith_alice", "alice_smith"),
    ("budget_q3", "q3_budget"),
    ("review_design", "design_review"),
    ("office_paris", "paris_office"),
    ("team_platform", "platform_team"),
    # legal forms
    ("acme", "acme_corp"),
    ("acme_corp", "acme_inc"),
    ("globex", "globex_inc"),
    ("initech_llc", "initech"),
    # typos
    ("kuberentes", "kubernetes"),
    ("kubernets", "kubernetes"),
    ("postgress", "postgres"),
    ("javascirpt", "javascript"),
    ("elasticserach", "elasticsearch"),
    ("accomodation", "accommodation"),
    ("tensorflwo", "tensorflow"),
    ("mircosoft", "microsoft"),
    ("alice_jonhson", "alice_johnson"),
    ("grafna", "grafana"),
    ("terrafrom", "terraform"),
    ("onbaording", "onboarding"),
    ("infrastucture", "infrastructure"),
    ("stagging", "staging"),
    ("retrospectve", "retrospective"),
    ("antrhopic", "anthropic"),
    # plurals
    ("meeting", "meetings"),
    ("customer", "customers"),
    ("user_story", "user_stories"),
    ("ab_test", "ab_tests"),
    # abbreviations: only the files can tell
    ("k8s", "kubernetes"),
    ("ml", "machine_learning"),
    ("postgres", "postgresql"),
    ("js", "javascript"),
    ("nyc", "new_york_city"),
    ("mgmt", "management"),
    ("i18n", "internationalization"),
    # beyond string methods (an embedding model may find them)
    ("项目a", "project_a"),
    ("bob", "robert"),
    ("golang", "go"),
]

LOOKALIKES: list[tuple[str, str]] = [
    # a distinguishing letter, digit or short code
    ("project_a", "project_b"),
    ("projecta", "projectb"),
    ("project", "project_a"),
    ("q3_budget", "q4_budget"),
    ("v1", "v2"),
    ("v1_2", "v12"),
    ("project_1", "project_2"),
    ("sprint_12", "sprint_13"),
    ("release_2025", "release_2026"),
    ("fy2025", "fy2026"),
    ("2026-03", "2026-04"),
    ("q1", "q2"),
    ("phase_i", "phase_ii"),
    ("team_x", "team_y"),
    ("plan_a", "plan_b"),
    ("design_v1", "design_v2"),
    ("model_v3", "model_v4"),
    ("apollo", "apollo_2"),
    ("mobile_app", "mobile_api"),
    ("cto", "ceo"),
    ("c", "c++"),
    ("c#", "c"),
    # different people
    ("alice", "alicia"),
    ("mark", "marc"),
    ("maria", "marie"),
    ("karen", "karin"),
    ("john", "joan"),
    ("anna", "anne"),
    ("kevin", "kelvin"),
    ("daniel", "danielle"),
    ("caroline", "carolina"),
    ("christina", "christine"),
    ("francesca", "francesco"),
    ("linux", "linus"),
    # different places, companies, things
    ("gold", "golf"),
    ("austria", "australia"),
    ("iran", "iraq"),
    ("slovakia", "slovenia"),
    ("paris", "parish"),
    ("berlin", "merlin"),
    ("philips", "phillips"),
    ("stanford", "standard"),
    ("monday", "sunday"),
    ("alpha", "aloha"),
    ("bank", "band"),
    # related but distinct concepts
    ("java", "javascript"),
    ("product_manager", "project_manager"),
    ("market", "marketing"),
    ("react", "redux"),
    ("python", "pytorch"),
    ("frontend", "backend"),
    ("kubernetes", "kubeflow"),
    ("postgres", "progress"),
    ("design", "designer"),
    ("user_research", "user_researcher"),
]

# tag -> entity for true variants; other tags are their own entity
_ENTITY_GROUPS: list[tuple[str, ...]] = [
    ("project-a", "project_a", "projecta", "项目a"),
    ("jean-luc", "jeanluc"),
    ("e-mail", "email"),
    ("node.js", "nodejs"),
    ("front-end", "frontend"),
    ("ci/cd", "ci_cd"),
    ("machine-learning", "machine_learning", "ml"),
    ("a/b_testing", "ab_testing", "ab_test", "ab_tests"),
    ("open-source", "opensource"),
    ("2026-q1", "2026_q1"),
    ("v1.2", "v1_2"),
    ("mcdonald's", "mcdonalds"),
    ("o'brien", "obrien"),
    ("wi-fi", "wifi"),
    ("follow-up", "followup"),
    ("josé", "jose"),
    ("zoë", "zoe"),
    ("müller", "muller", "mueller"),
    ("café_nero", "cafe_nero"),
    ("françois", "francois"),
    ("são_paulo", "sao_paulo"),
    ("björk", "bjork"),
    ("renée", "renee"),
    ("zürich", "zurich"),
    ("łódź", "lodz"),
    ("søren", "soren"),
    ("smith_alice", "alice_smith"),
    ("budget_q3", "q3_budget"),
    ("review_design", "design_review"),
    ("office_paris", "paris_office"),
    ("team_platform", "platform_team"),
    ("acme", "acme_corp", "acme_inc"),
    ("globex", "globex_inc"),
    ("initech_llc", "initech"),
    ("kuberentes", "kubernetes", "kubernets", "k8s"),
    ("postgress", "postgres", "postgresql"),
    ("javascirpt", "javascript", "js"),
    ("elasticserach", "elasticsearch"),
    ("accomodation", "accommodation"),
    ("tensorflwo", "tensorflow"),
    ("mircosoft", "microsoft"),
    ("alice_jonhson", "alice_johnson"),
    ("grafna", "grafana"),
    ("terrafrom", "terraform"),
    ("onbaording", "onboarding"),
    ("infrastucture", "infrastructure"),
    ("stagging", "staging"),
    ("retrospectve", "retrospective"),
    ("antrhopic", "anthropic"),
    ("meeting", "meetings"),
    ("customer", "customers"),
    ("user_story", "user_stories"),
    ("nyc", "new_york_city"),
    ("mgmt", "management"),
    ("i18n", "internationalization"),
    ("bob", "robert"),
    ("golang", "go"),
]

# Distinct entities that share a domain vocabulary (their memories read alike).
_DOMAINS: list[tuple[str, ...]] = [
    ("q3_budget", "budget_q3", "q4_budget", "fy2025", "fy2026"),
    ("project_a", "project-a", "projecta", "project_b", "projectb", "project", "项目a"),
    ("project_1", "project_2", "apollo", "apollo_2", "plan_a", "plan_b"),
    ("sprint_12", "sprint_13", "release_2025", "release_2026", "phase_i", "phase_ii"),
    ("v1", "v2", "v1_2", "v12", "v1.2", "design_v1", "design_v2", "model_v3", "model_v4"),
    ("alice", "alicia", "mark", "marc", "maria", "marie", "karen", "karin", "john", "joan"),
    ("anna", "anne", "kevin", "kelvin", "daniel", "danielle", "christina", "christine"),
    ("austria", "australia", "slovakia", "slovenia", "iran", "iraq", "paris", "berlin"),
    ("java", "javascript", "javascirpt", "js", "react", "redux", "python", "pytorch"),
    ("kubernetes", "kubeflow", "k8s", "kuberentes", "kubernets", "terraform", "terrafrom"),
    ("market", "marketing", "product_manager", "project_manager", "customer", "customers"),
    ("frontend", "backend", "front-end", "mobile_app", "mobile_api", "design", "designer"),
    ("user_research", "user_researcher", "user_story", "user_stories"),
]

# Memories that carry several tags at once.
SHARED_MEMORIES: list[tuple[str, ...]] = [
    # an agent that tagged both spellings
    ("k8s", "kubernetes"),
    ("k8s", "kubernetes", "terraform"),
    ("ml", "machine_learning"),
    ("ml", "machine_learning", "python"),
    ("acme", "acme_corp"),
    ("acme", "acme_corp"),
    ("nyc", "new_york_city"),
    ("nyc", "new_york_city", "paris_office"),
    ("mgmt", "management"),
    ("mgmt", "management"),
    ("js", "javascript", "react"),
    ("js", "javascript"),
    # related but distinct things that travel together
    ("alice", "alicia"),
    ("alice", "alicia", "project_a"),
    ("alice", "alicia"),
    ("project_a", "project_b"),
    ("project_a", "project_b", "alice"),
    ("project_a", "project_b"),
    ("q3_budget", "q4_budget"),
    ("q3_budget", "q4_budget"),
    ("java", "javascript"),
    ("java", "javascript"),
    ("market", "marketing"),
    ("market", "marketing"),
    ("market", "marketing"),
    ("design", "designer"),
    ("design", "designer"),
    ("user_research", "user_researcher"),
    ("user_research", "user_researcher"),
    ("kubernetes", "kubeflow"),
    ("kubernetes", "kubeflow"),
    ("react", "redux"),
    ("react", "redux"),
    ("python", "pytorch"),
    ("python", "pytorch"),
]

# Tags nobody labelled: background noise a real workspace has.
NOISE_TAGS: tuple[str, ...] = (
    "travel", "health", "reading", "cooking", "hiring", "interview", "quarterly_review",
    "okr", "roadmap", "security", "incident", "postmortem", "oncall", "billing", "invoice",
    "vendor", "legal", "contract", "lisbon", "tokyo", "london", "madrid", "singapore",
    "sam", "priya", "wei", "omar", "lucia", "hiroshi", "fatima", "deepak", "ingrid",
    "observability", "logging", "metrics", "tracing", "database", "cache", "queue",
    "search_ranking", "embedding_model", "vector_store", "prompt_design", "evaluation",
    "budget_planning", "offsite", "all_hands", "one_on_one", "mentoring", "promotion",
    "feedback", "standup", "demo_day", "hackathon", "newsletter", "blog", "podcast",
)  # fmt: skip

_GENERIC_WORDS = (
    "today", "discussed", "agreed", "next", "steps", "follow", "meeting", "notes", "plan",
    "review", "update", "shared", "document", "decided", "week", "later", "question",
    "answer", "team", "idea", "call", "email", "status", "draft",
)  # fmt: skip


def all_tags() -> list[str]:
    tags = {tag for pair in TRUE_VARIANTS + LOOKALIKES for tag in pair}
    tags.update(NOISE_TAGS)
    for memory in SHARED_MEMORIES:
        tags.update(memory)
    return sorted(tags)


def _entity_of() -> dict[str, str]:
    entity = {tag: tag for tag in all_tags()}
    for group in _ENTITY_GROUPS:
        for tag in group:
            entity[tag] = group[0]
    return entity


def _domain_of() -> dict[str, str]:
    domain = {tag: f"domain:{tag}" for tag in all_tags()}
    for group in _DOMAINS:
        for tag in group:
            domain[tag] = f"domain:{group[0]}"
    return domain


def _vocabulary(seed: str, size: int) -> list[str]:
    rng = random.Random(zlib.crc32(seed.encode()))
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(size)]


def _memory_text(rng: random.Random, entity_words: list[str], domain_words: list[str]) -> str:
    words = rng.sample(entity_words, 12) + rng.sample(domain_words, 12)
    words += rng.sample(_GENERIC_WORDS, 8)
    rng.shuffle(words)
    return " ".join(words)


@dataclass(frozen=True)
class Workspace:
    files_by_tag: dict[str, set[str]]
    text_by_file: dict[str, str]

    @property
    def total_files(self) -> int:
        return len(self.text_by_file)

    def text_of_tag(self, tag: str) -> str:
        return "\n".join(self.text_by_file[path] for path in sorted(self.files_by_tag[tag]))


def build_workspace() -> Workspace:
    """Deterministic memories: each tag gets 1-6 of its own, plus SHARED_MEMORIES."""
    entity, domain = _entity_of(), _domain_of()
    files_by_tag: dict[str, set[str]] = {}
    text_by_file: dict[str, str] = {}
    for tag in all_tags():
        rng = random.Random(zlib.crc32(tag.encode()))
        entity_words = _vocabulary(entity[tag], 30)
        domain_words = _vocabulary(domain[tag], 30)
        own = 1 + zlib.crc32(tag.encode()) % 6
        for index in range(own):
            path = f"daily/{tag}/{index}.md"
            text_by_file[path] = _memory_text(rng, entity_words, domain_words)
            files_by_tag.setdefault(tag, set()).add(path)
    for index, tags in enumerate(SHARED_MEMORIES):
        path = f"daily/shared/{index}.md"
        rng = random.Random(index)
        first = tags[0]
        text_by_file[path] = _memory_text(
            rng, _vocabulary(entity[first], 30), _vocabulary(domain[first], 30)
        )
        for tag in tags:
            files_by_tag[tag].add(path)
    return Workspace(files_by_tag, text_by_file)


# --------------------------------------------------------------------------- scale input

_SYLLABLES = (
    "ka", "lo", "mi", "ra", "ten", "vor", "sel", "dan", "or", "qui", "bel", "tra", "mon",
    "zu", "fin", "gar", "hel", "ix", "jo", "pel", "ros", "sta", "ur", "wen", "yar", "dro",
)  # fmt: skip
_KINDS = ("project", "team", "client", "sprint", "topic", "person", "place", "tool")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


def _variant(rng: random.Random, tag: str) -> str:
    """A plausible misspelling or re-spelling of a tag."""
    choice = rng.randrange(5)
    if choice == 0 and "_" in tag:
        return tag.replace("_", rng.choice(["-", ""]))
    if choice == 1 and len(tag) > 5:
        i = rng.randrange(1, len(tag) - 2)
        return tag[:i] + tag[i + 1] + tag[i] + tag[i + 2 :]
    if choice == 2 and len(tag) > 5:
        i = rng.randrange(1, len(tag) - 1)
        return tag[:i] + tag[i + 1 :]
    if choice == 3:
        return tag + "s"
    return tag.replace("e", "é", 1) if "e" in tag else tag + "_inc"


def generate_tags(count: int = 5000, seed: int = 7) -> list[str]:
    """``count`` distinct canonical tags: entities, enumerations and ~10 % variants."""
    rng = random.Random(seed)
    tags: dict[str, None] = {}
    while len(tags) < count:
        roll = rng.random()
        if roll < 0.1 and tags:
            base = rng.choice(list(tags))
            tags.setdefault(_variant(rng, base), None)
        elif roll < 0.25:
            tags.setdefault(f"{rng.choice(_KINDS)}_{rng.randint(1, 400)}", None)
        elif roll < 0.55:
            tags.setdefault(f"{_word(rng)}_{_word(rng)}", None)
        else:
            tags.setdefault(_word(rng), None)
    return list(tags)[:count]


def generate_workspace(tags: list[str], memories: int = 10000, seed: int = 7) -> Workspace:
    """Memories with 1-3 tags each (Zipf-ish popularity) and short texts."""
    rng = random.Random(seed)
    weights = [1.0 / (rank + 1) for rank in range(len(tags))]
    files_by_tag: dict[str, set[str]] = {tag: set() for tag in tags}
    text_by_file: dict[str, str] = {}
    for index in range(memories):
        path = f"daily/gen/{index}.md"
        chosen = set(rng.choices(tags, weights=weights, k=rng.randint(1, 3)))
        for tag in chosen:
            files_by_tag[tag].add(path)
        text_by_file[path] = " ".join(rng.choice(_GENERIC_WORDS) for _ in range(30))
    for index, tag in enumerate(tags):  # every tag is used at least once
        if not files_by_tag[tag]:
            path = f"daily/gen/own-{index}.md"
            files_by_tag[tag].add(path)
            text_by_file[path] = " ".join(rng.choice(_GENERIC_WORDS) for _ in range(30))
    return Workspace(files_by_tag, text_by_file)


def _time_detection() -> None:
    import time

    from reme_tui.engine.tags.dupes import TagEvidence, TagStats, find_tag_clusters

    tags = generate_tags(5000)
    workspace = generate_workspace(tags)
    stats = [TagStats(t, len(workspace.files_by_tag[t]), (t,)) for t in tags]
    evidence = TagEvidence(workspace.files_by_tag, workspace.total_files)
    with_text = TagEvidence(workspace.files_by_tag, workspace.total_files, workspace.text_of_tag)
    import numpy as np

    def random_embed(texts: list[str]) -> np.ndarray:  # the similarity cost, not a model's
        vectors = np.random.default_rng(0).standard_normal((len(texts), 256)).astype("float32")
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    runs: list[tuple[str, dict[str, Any]]] = [
        ("strings only", {}),
        ("+ co-occurrence", {"evidence": evidence}),
        ("+ co-occurrence + text", {"evidence": with_text}),
        ("strings + embedding", {"embed": random_embed}),
    ]
    for label, kwargs in runs:
        wall, cpu = float("inf"), float("inf")
        for _ in range(3):
            start, start_cpu = time.perf_counter(), time.process_time()
            clusters = find_tag_clusters(stats, **kwargs)
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        print(
            f"{len(tags)} tags, {label:<24} wall {wall:6.3f} s  cpu {cpu:6.3f} s  "
            f"{len(clusters)} clusters"
        )


if __name__ == "__main__":
    _time_detection()
