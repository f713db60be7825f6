"""Tag suggestion quality and cost (part of `make bench`; alone: `--only suggest`).

Hides the tags of each fifth of the tagged memories in turn (``tags.suggest.evaluate``)
and reports precision@1 and recall@3 of the suggestions, on the two hand-written sample
workspaces and on generated ones where entities are named the way agents' notes name
them: the name of a memory names its main entity about half the time, the text names
its entities (and, as noise, an entity it is *not* tagged with) in prose spellings
(``Project Renvel``, ``Dorsa``), each entity has a digest page, and most links go to
memories about the same entities. The generated text is otherwise the benchmark's usual
Zipf prose, so these figures measure the names-and-links signals, not the keyword vote.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.generate import (
    SYLLABLES,
    already_generated,
    mark_complete,
    vocabulary,
    zipf_weights,
)

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
REPO = HERE.parent
GENERATOR_VERSION = 1
GENERATED_SIZES = (2_000, 10_000)


def _entity_names(rng: random.Random, count: int) -> list[str]:
    names: set[str] = set()
    while len(names) < count:
        names.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize())
    ordered = sorted(names)
    rng.shuffle(ordered)
    return ordered


def generate_entities(root: Path, count: int, seed: int = 5) -> Path:
    """A workspace of ``count`` memories about people, projects and companies."""
    stamp = f"entities-{GENERATOR_VERSION}:{count}"
    if already_generated(root, stamp):
        return root
    rng = random.Random(seed)
    vocab = vocabulary(4000, rng)
    weights = zipf_weights(len(vocab))
    names = _entity_names(rng, 120)
    entities = (
        [(n.lower(), n, "personal") for n in names[:60]]
        + [(f"project_{n.lower()}", f"Project {n}", "wiki") for n in names[60:100]]
        + [(f"{n.lower()}_corp", f"{n} Corp", "wiki") for n in names[100:]]
    )
    entity_weights = zipf_weights(len(entities), 0.9)
    pages = {tag: f"digest/{kind}/{tag.replace('_', '-')}.md" for tag, _, kind in entities}
    prose = {tag: label for tag, label, _ in entities}
    short = {tag: label.split()[-1] if label.startswith("Project") else label.split()[0]
             for tag, label, _ in entities}  # fmt: skip
    for tag, label, _ in entities:
        _write(root / pages[tag], f"{label}", f"Who or what {label} is", [tag],
               f"# {label}\n\n" + " ".join(rng.choices(vocab, weights, k=80)) + ".\n")  # fmt: skip
    about: dict[str, list[str]] = {tag: [] for tag, _, _ in entities}
    for i in range(count - len(entities)):
        rel = f"daily/2025-{1 + i % 12:02d}-{1 + i % 28:02d}/note-{i:06d}.md"
        tags = list(dict.fromkeys(rng.choices([e[0] for e in entities], entity_weights,
                                              k=rng.randint(1, 3))))  # fmt: skip
        words = rng.choices(vocab, weights, k=200)
        for tag in tags:  # each entity named once to three times, in prose
            for _ in range(rng.randint(0, 3)):
                words.insert(rng.randrange(len(words)), rng.choice((prose[tag], short[tag])))
        if rng.random() < 0.3:  # an entity the note mentions but is not about
            words.insert(rng.randrange(len(words)), short[rng.choice(entities)[0]])
        links = []
        for _ in range(3):
            tag = rng.choice(tags)
            if rng.random() < 0.4:
                links.append(pages[tag])
            elif about[tag] and rng.random() < 0.7:
                links.append(rng.choice(about[tag]))
            else:
                links.append(rng.choice(list(pages.values())))
        title = f"{short[tags[0]]} {rng.choice(vocab)}" if rng.random() < 0.5 else rng.choice(vocab)
        body = (" ".join(words) + ".\n\nRelated: "
                + ", ".join(f"[[{link}]]" for link in dict.fromkeys(links)) + ".\n")  # fmt: skip
        _write(root / rel, title.capitalize(), f"Notes on {rng.choice(vocab)}", tags, body)
        for tag in tags:
            about[tag].append(rel)
    mark_complete(root, stamp)
    return root


def _write(path: Path, name: str, description: str, tags: list[str], body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    front = (
        f"---\nname: {name}\ndescription: {description}\nmemory_tags: [{', '.join(tags)}]\n---\n"
    )
    path.write_text(front + body, encoding="utf-8")


def quality_row(root: Path, folds: int) -> dict[str, Any]:
    from reme_tui.engine import Engine
    from reme_tui.engine.tags.suggest import TagSuggester, evaluate

    engine = Engine.open(root)
    engine.build()
    start = time.perf_counter()
    suggester = TagSuggester(engine)
    setup_ms = (time.perf_counter() - start) * 1000
    sample = sorted(p for p in engine.paths())[:: max(1, engine.memory_count // 200)]
    times = []
    for path in sample:
        start = time.perf_counter()
        suggester.suggest(path)
        times.append((time.perf_counter() - start) * 1000)
    quality = evaluate(engine, folds=folds).to_json()
    return {
        "memories": engine.memory_count,
        **quality,
        "setup_ms": setup_ms,
        "suggest_ms_p50": statistics.median(times) if times else 0.0,
    }


def suggestion_rows(sizes: tuple[int, ...] = GENERATED_SIZES) -> list[tuple[str, dict[str, Any]]]:
    rows = [
        ("sample_workspace (5 folds)", quality_row(REPO / "sample_workspace", 5)),
        ("sample_reme_project (5 folds)", quality_row(REPO / "sample_reme_project" / ".reme", 5)),
    ]
    for size in sizes:
        root = generate_entities(WORKSPACES / f"entities-{size}", size)
        rows.append((f"generated {size:,} (1 fold)", quality_row(root, 1)))
    return rows


def print_suggestion_table(rows: list[tuple[str, dict[str, Any]]]) -> None:
    print("tag suggestions: tags of a fifth of the tagged memories hidden, then suggested")
    header = ("workspace", "hidden", "p@1", "r@3", "r@3 reachable", "set-up ms", "suggest ms")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, row in rows:
        cells = (
            label,
            str(row["memories"]),
            f"{row['precision_at_1']:.2f}",
            f"{row['recall_at_3']:.2f}",
            f"{row['recall_at_3_recoverable']:.2f}",
            f"{row['setup_ms']:.0f}",
            f"{row['suggest_ms_p50']:.1f}",
        )
        print("| " + " | ".join(cells) + " |")
