"""Deterministic synthetic ReMe workspaces for benchmarks (not sample data).

Each memory has ~300 words drawn from a Zipf-distributed vocabulary (so term statistics
look like prose), 1-3 tags from a pool where a few entities dominate, ~3 wikilinks to
other memories, and a date for most daily notes.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
from pathlib import Path

GENERATOR_VERSION = 3
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
    """COMMON words first (most frequent under Zipf), then invented words in random order."""
    invented: set[str] = set()
    while len(invented) < size - len(COMMON):
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in COMMON:
            invented.add(word)
    rest = sorted(invented)
    rng.shuffle(rest)
    return list(COMMON) + rest


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


def body_markdown(i: int, words: list[str], links: list[str], rng: random.Random) -> str:
    """Markdown shaped like agents' notes: headings, paragraphs with some emphasis,
    a bullet list, sometimes a small table, and wikilinks (so chunking does real work)."""
    parts = [f"# Memory {i}"]
    cursor = 0

    def take(n: int) -> list[str]:
        nonlocal cursor
        chunk = words[cursor : cursor + n]
        cursor += n
        return chunk

    paragraph = take(60)
    if paragraph:
        paragraph[3] = f"**{paragraph[3]}**"
    parts.append(" ".join(paragraph) + ".")
    parts.append("## Notes")
    parts.append("\n".join(f"- {' '.join(take(12))}" for _ in range(5)))
    if i % 10 == 0:
        rows = [f"| {' | '.join(take(3))} |" for _ in range(3)]
        parts.append("| a | b | c |\n|---|---|---|\n" + "\n".join(rows))
    parts.append("## Details")
    while cursor < len(words):
        parts.append(" ".join(take(60)) + ".")
    parts.append("Related: " + ", ".join(links) + ".")
    return "\n\n".join(parts) + "\n"


def already_generated(root: Path, stamp: str) -> bool:
    """True when ``root`` holds a complete workspace made with ``stamp`` (version:count);
    otherwise whatever is there is removed, to be written afresh (then ``mark_complete``)."""
    marker = root / ".complete"
    if marker.exists() and marker.read_text() == stamp:
        return True
    if root.exists():
        shutil.rmtree(root)
    return False


def mark_complete(root: Path, stamp: str) -> None:
    (root / ".complete").write_text(stamp)


def generate(root: Path, count: int, *, words_per_memory: int = 300, seed: int = 7) -> Path:
    """Write `count` memories under root (skipped when a complete workspace is there)."""
    stamp = f"{GENERATOR_VERSION}:{count}"
    if already_generated(root, stamp):
        return root
    rng = random.Random(seed)
    vocab = vocabulary(8000, rng)
    weights = zipf_weights(len(vocab))
    tags = [f"person_{i}" for i in range(60)] + [f"project_{i}" for i in range(40)]
    tags += [f"company_{i}" for i in range(max(20, count // 50))]
    tag_weights = zipf_weights(len(tags), 0.9)
    paths = memory_paths(count)
    for i, rel in enumerate(paths):
        words = rng.choices(vocab, weights, k=words_per_memory)
        links = [f"[[{paths[rng.randrange(count)]}]]" for _ in range(3)]
        picked = list(dict.fromkeys(rng.choices(tags, tag_weights, k=rng.randint(1, 3))))
        text = (
            "---\n"
            f"name: Memory {i}\n"
            f"description: Synthetic memory number {i}\n"
            f"memory_tags: [{', '.join(picked)}]\n"
            "---\n" + body_markdown(i, words, links, rng)
        )
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    mark_complete(root, stamp)
    return root
