"""A tiny model2vec model built offline for tests: ~50 words, hand-made 8-d vectors.

Each topic owns one axis; every word of a topic points along that axis plus a small,
deterministic per-word offset, so texts about the same topic are nearest neighbours.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from model2vec import StaticModel
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

DIM = 8
UNK = "[UNK]"
TOPICS: dict[str, tuple[str, ...]] = {
    "animals": ("cat", "kitten", "dog", "puppy", "pet", "fur", "paws"),
    "code": ("python", "code", "bug", "compile", "function", "test", "debug"),
    "food": ("pizza", "pasta", "bread", "cheese", "soup", "bake", "recipe"),
    "travel": ("train", "flight", "hotel", "paris", "luggage", "ticket", "trip"),
    "music": ("guitar", "piano", "song", "melody", "drums", "concert", "chord"),
    "weather": ("rain", "snow", "storm", "sunny", "cloud", "wind", "forecast"),
}
FILLER = ("the", "a", "and", "of", "to", "is", "on", "with")
TOPIC_AXIS = {topic: axis for axis, topic in enumerate(TOPICS)}
VOCAB: tuple[str, ...] = (
    UNK,
    *(word for words in TOPICS.values() for word in words),
    *FILLER,
)


def word_vectors(seed: int = 0) -> np.ndarray:
    """One row per `VOCAB` entry: topic axis + small noise; fillers are faint noise; UNK zero."""
    rng = np.random.default_rng(seed)
    vectors = np.zeros((len(VOCAB), DIM), dtype=np.float32)
    row = 1
    for topic, words in TOPICS.items():
        for _ in words:
            vectors[row] = rng.normal(0.0, 0.08, DIM)
            vectors[row, TOPIC_AXIS[topic]] += 1.0
            row += 1
    for _ in FILLER:
        vectors[row] = rng.normal(0.0, 0.02, DIM)
        row += 1
    return vectors


def tiny_tokenizer() -> Tokenizer:
    tokenizer = Tokenizer(
        models.WordLevel(vocab={w: i for i, w in enumerate(VOCAB)}, unk_token=UNK)
    )
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    return tokenizer


def build_tiny_model(directory: Path, *, seed: int = 0) -> Path:
    """Save the tiny model (weights depend on `seed`) into `directory` and return it."""
    model = StaticModel(word_vectors(seed), tiny_tokenizer(), normalize=False)
    model.save_pretrained(directory)
    return directory
