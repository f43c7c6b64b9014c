"""Seed derivation: every random choice draws from (base seed, dataset, repeat[, purpose, fold]).

The method (stratifier or classifier) is never part of the key, so every stratifier sees the same
repeat and the forests of a fold get the same seed whatever stratifier made the fold.
"""

from __future__ import annotations

import hashlib

import numpy as np


def _word(text: str) -> int:
    """A stable 32-bit integer for a string (Python's ``hash`` is salted per process)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def seed_sequence(base_seed: int, dataset: str, repeat: int, *key: str | int) -> np.random.SeedSequence:
    """SeedSequence keyed by (dataset, repeat, *key) under ``base_seed``."""
    words = [_word(dataset), int(repeat)] + [_word(k) if isinstance(k, str) else int(k) for k in key]
    return np.random.SeedSequence(entropy=int(base_seed), spawn_key=tuple(words))


def derive_seed(base_seed: int, dataset: str, repeat: int, *key: str | int) -> int:
    """A 32-bit integer seed (for ``random_state=``) derived as in :func:`seed_sequence`."""
    return int(seed_sequence(base_seed, dataset, repeat, *key).generate_state(1, dtype=np.uint32)[0])


def split_seed(base_seed: int, dataset: str, repeat: int) -> int:
    """The seed every stratifier receives for (dataset, repeat)."""
    return derive_seed(base_seed, dataset, repeat, "split")


def model_seed(base_seed: int, dataset: str, repeat: int, fold: int) -> int:
    """The seed of the models trained on fold ``fold`` of (dataset, repeat)."""
    return derive_seed(base_seed, dataset, repeat, "model", fold)
