"""Near-duplicate tags at scale: a generated workspace with injected tag variants.

``python -m benchmarks.tag_dupes [--memories 10000]`` builds (once) a workspace from
``benchmarks.generate`` and rewrites the tag line of every 25th memory to spell one of its
tags differently (``Person-3``, ``person3``, ``PERSON 3``, ``project_12_corp`` ...), then
times ``reme-tui WORKSPACE --tag-dupes --json`` end to end and detection alone, and
checks every injected variant is clustered with its original.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.generate import generate

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
_TAG_LINE = re.compile(r"^memory_tags: \[(.*)\]$", re.MULTILINE)


def variant_of(tag: str, rng: random.Random) -> str:
    """A spelling of ``tag`` ReMe keeps apart but a person would not (separator variants)."""
    head, _, number = tag.rpartition("_")
    style = rng.randrange(3)
    if style == 0:
        return f"{head.capitalize()}-{number}"
    if style == 1:
        return f"{head}{number}"
    return f"{head}.{number}"


def inject_variants(root: Path, every: int = 25, seed: int = 11) -> dict[str, str]:
    """Rewrite the first tag of every ``every``-th memory as a variant; returns
    {variant canonical: original tag}. Idempotent through a marker file."""
    marker = root / ".variants.json"
    if marker.exists():
        return json.loads(marker.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    injected: dict[str, str] = {}
    paths = sorted(p for p in root.rglob("*.md"))
    for path in paths[::every]:
        text = path.read_text(encoding="utf-8")
        match = _TAG_LINE.search(text)
        if match is None:
            continue
        tags = [t.strip() for t in match.group(1).split(",")]
        variant = variant_of(tags[0], rng)
        injected[variant.casefold()] = tags[0]
        tags[0] = variant
        line = f"memory_tags: [{', '.join(tags)}]"
        path.write_text(text[: match.start()] + line + text[match.end() :], encoding="utf-8")
    marker.write_text(json.dumps(injected, sort_keys=True), encoding="utf-8")
    return injected


def build(root: Path, memories: int, words: int = 300) -> dict[str, str]:
    generate(root, memories, words_per_memory=words)
    return inject_variants(root)


def missed_variants(clusters: list[dict[str, object]], injected: dict[str, str]) -> list[str]:
    """Injected variants not clustered with the tag they were made from."""
    together: dict[str, set[str]] = {}
    for cluster in clusters:
        tags = {member["tag"] for member in cluster["tags"]}  # type: ignore[index, union-attr]
        for tag in tags:
            together[tag] = tags  # type: ignore[index]
    return [v for v, original in injected.items() if original not in together.get(v, set())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args(argv)
    root = WORKSPACES / f"dupes-{args.memories}"
    injected = build(root, args.memories)
    command = [sys.executable, "-m", "reme_tui", str(root), "--tag-dupes", "--json"]
    timings = []
    # cold index (nothing saved), a run that saves the index, then warm from the saved index
    for flags in (["--no-cache"], ["--rebuild"], []):
        start = time.perf_counter()
        out = subprocess.run([*command, *flags], check=True, capture_output=True, text=True)
        timings.append(time.perf_counter() - start)
    clusters = json.loads(out.stdout)["clusters"]

    from reme_tui.engine import Engine
    from reme_tui.engine.tags import detect_duplicates

    engine = Engine.open(root)
    start = time.perf_counter()
    detect_duplicates(engine)
    detect = time.perf_counter() - start
    missed = missed_variants(clusters, injected)
    print(f"memories: {engine.memory_count}, distinct tags: {len(engine.list_tags())}")
    print(f"injected variants: {len(injected)}, missed: {len(missed)} {missed[:5]}")
    print(f"clusters: {len(clusters)}")
    print(f"--tag-dupes --json, cold index (s): {timings[0]:.2f}")
    print(f"--tag-dupes --json, saved index (s): {timings[2]:.2f}")
    print(f"detection alone, with file evidence (s): {detect:.3f}")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
