"""Vector index timings: `python -m benchmarks.bench_vectors [--chunks N] [--dim D]`.

Reports query latency (p50/p95) at N chunks, unfiltered and with an allowed-paths mask,
similar_to_path latency, incremental update cost, and encode throughput of a synthetic
model2vec model of potion-base-8M's shape (29,528-token WordLevel vocabulary, 256-d).
Not a test: it prints numbers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from reme_tui.engine.index import EmbeddingCache, VectorIndex, load_model


def _timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def build_index(chunks: int, dim: int, per_file: int = 5) -> VectorIndex:
    rng = np.random.default_rng(0)
    index = VectorIndex(dim)
    for f in range(chunks // per_file):
        path = f"daily/2026-01-{f % 28 + 1:02d}/m{f}.md"
        keys = [(path, 1 + 20 * i) for i in range(per_file)]
        index.set_path(path, keys, rng.normal(size=(per_file, dim)).astype(np.float32))
    return index


def bench_queries(index: VectorIndex, dim: int, repeat: int) -> None:
    rng = np.random.default_rng(1)
    queries = rng.normal(size=(repeat, dim)).astype(np.float32)
    paths = index.paths()
    it = iter(range(10**9))
    for label, allowed in [
        ("all", None),
        ("allowed 50%", set(random.Random(0).sample(paths, len(paths) // 2))),
        ("allowed 5%", set(random.Random(1).sample(paths, len(paths) // 20))),
    ]:
        p50, p95 = _timed(lambda a=allowed: index.top_k(queries[next(it) % repeat], 200, a), repeat)
        print(f"top_k(200) {label:12s} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")
    p50, p95 = _timed(lambda: index.similar_to_path(paths[next(it) % len(paths)], 10), repeat)
    print(f"similar_to_path(10)     p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")


def bench_updates(index: VectorIndex, dim: int, repeat: int) -> None:
    rng = np.random.default_rng(2)
    paths = index.paths()

    def replace() -> None:
        path = paths[int(rng.integers(len(paths)))]
        keys = [(path, 1 + 20 * i) for i in range(5)]
        index.set_path(path, keys, rng.normal(size=(5, dim)).astype(np.float32))

    p50, p95 = _timed(replace, repeat)
    print(f"set_path (5 chunks)     p50 {p50:6.3f} ms  p95 {p95:6.3f} ms")
    start = time.perf_counter()
    state = index.export_state()
    restored = VectorIndex.from_state(state)
    print(
        f"export+from_state       {(time.perf_counter() - start) * 1000:8.1f} ms ({len(restored)})"
    )


def synthetic_model(
    directory: Path, vocab_size: int, dim: int, words: list[str] | None = None
) -> Path:
    """A random WordLevel model2vec model; `words` (then w0, w1, ...) fill its vocabulary."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    names = list(dict.fromkeys(words or []))[: vocab_size - 1]
    names += [f"w{i}" for i in range(vocab_size - 1 - len(names))]
    vocab = {"[UNK]": 0, **{word: i + 1 for i, word in enumerate(names)}}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    vectors = np.random.default_rng(0).normal(size=(vocab_size, dim)).astype(np.float32)
    StaticModel(vectors, tokenizer).save_pretrained(directory)
    return directory


def bench_encode(memories: int, dim: int) -> None:
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        embedder = load_model(str(synthetic_model(Path(tmp), 29_528, dim)))
        # ~1.5 chunks of ~1.2 KB per memory, a realistic daily-note size.
        texts = [
            " ".join(f"w{rng.randrange(29_527)}" for _ in range(rng.randint(80, 300)))
            for _ in range(int(memories * 1.5))
        ]
        cache = EmbeddingCache(embedder.info.identity, embedder.dim)
        start = time.perf_counter()
        cache.encode_cached(embedder, texts)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        cache.encode_cached(embedder, texts)
        warm = time.perf_counter() - start
    size = sum(map(len, texts)) / 1e6
    print(f"encode {len(texts)} chunks ({size:.1f} MB) cold {cold:.2f} s, all cached {warm:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=50_000)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    start = time.perf_counter()
    index = build_index(args.chunks, args.dim)
    print(f"build {len(index)} chunks x {args.dim}-d: {time.perf_counter() - start:.2f} s")
    bench_queries(index, args.dim, args.repeat)
    bench_updates(index, args.dim, args.repeat)
    bench_encode(args.memories, args.dim)


if __name__ == "__main__":
    main()
