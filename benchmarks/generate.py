"""Deterministic synthetic ReMe workspaces for benchmarks (not sample data).

Each memory has ~300 words drawn from a Zipf-distributed vocabulary (so term statistics
look like prose), 1-3 tags from a pool where a few entities dominate, ~3 wikilinks to
other memories, and a date for most daily notes.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ren",
    "to",
    "sa",
    "vel",
    "dor",
    "in",
    "ex",
    "pra",
    "qui",
    "ston",
    "ber",
    "lum",
    "nor",
]
COMMON = [
    "budget",
    "launch",
    "review",
    "meeting",
    "vendor",
    "risk",
    "plan",
    "design",
    "deadline",
    "hiring",
]


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words = set(COMMON)
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def zipf_weights(n: int, s: float = 1.1) -> list[float]:
    return [1.0 / (rank**s) for rank in range(1, n + 1)]


def memory_paths(count: int) -> list[str]:
    start = dt.date(2024, 1, 1)
    paths = []
    for i in range(count):
        if i % 5 == 4:
            kind = ("personal", "procedure", "wiki")[i % 3]
            paths.append(f"digest/{kind}/node-{i:06d}.md")
        else:
            day = start + dt.timedelta(days=(i * 7) // 10 % 900)
            paths.append(f"daily/{day.isoformat()}/note-{i:06d}.md")
    return paths


def generate(root: Path, count: int, *, words_per_memory: int = 300, seed: int = 7) -> Path:
    """Write `count` memories under root (skipped when a complete workspace is there)."""
    marker = root / ".complete"
    if marker.exists():
        return root
    rng = random.Random(seed)
    vocab = vocabulary(8000, rng)
    weights = zipf_weights(len(vocab))
    tags = [f"person_{i}" for i in range(60)] + [f"project_{i}" for i in range(40)]
    tags += [f"company_{i}" for i in range(max(20, count // 50))]
    tag_weights = zipf_weights(len(tags), 0.9)
    paths = memory_paths(count)
    for i, rel in enumerate(paths):
        body_words = rng.choices(vocab, weights, k=words_per_memory)
        links = [f"[[{paths[rng.randrange(count)]}]]" for _ in range(3)]
        paragraphs = [" ".join(body_words[j : j + 60]) + "." for j in range(0, len(body_words), 60)]
        picked = list(dict.fromkeys(rng.choices(tags, tag_weights, k=rng.randint(1, 3))))
        text = (
            "---\n"
            f"name: Memory {i}\n"
            f"description: Synthetic memory number {i}\n"
            f"memory_tags: [{', '.join(picked)}]\n"
            "---\n"
            f"# Memory {i}\n\n" + "\n\n".join(paragraphs) + "\n\nSee " + ", ".join(links) + ".\n"
        )
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    marker.write_text(str(count))
    return root
