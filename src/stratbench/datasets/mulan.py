"""MULAN datasets: fetch the pinned files, parse them once, cache the arrays."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from stratbench.datasets import registry
from stratbench.datasets.arff import read_mulan
from stratbench.datasets.core import MultilabelDataset, load_dataset, save_dataset
from stratbench.datasets.fetch import fetch, resolve_mirror, verify

CACHE_ENV = "STRATBENCH_CACHE"


def default_cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV, Path.home() / ".cache" / "stratbench"))


def raw_paths(name: str, raw_dir: str | os.PathLike) -> list[Path]:
    """Where the files of dataset ``name`` live under ``raw_dir`` (``<raw_dir>/<name>/<file>``)."""
    e = registry.entry(name)
    return [Path(raw_dir) / name / f.name for f in e.files]


def content_key(name: str) -> str:
    """12 hex digits of the sha256 of the dataset's pinned file hashes."""
    pins = "".join(f.sha256 or "unpinned" for f in registry.entry(name).files)
    return hashlib.sha256(pins.encode()).hexdigest()[:12]


def fetch_mulan(name: str, raw_dir: str | os.PathLike, mirror: str | None = None) -> list[Path]:
    """Fetch every file of ``name`` into ``raw_dir`` (skipping files already there)."""
    e = registry.entry(name)
    mirror = resolve_mirror(mirror)
    out = []
    for remote, dest in zip(e.files, raw_paths(name, raw_dir)):
        if not dest.exists():
            fetch(remote, dest, mirror)
        out.append(dest)
    return out


def parse_mulan(name: str, files: list[Path]) -> MultilabelDataset:
    """Parse fetched files (data files then the label XML, as :func:`raw_paths` orders them), each
    checked against its pinned sha256 first."""
    for remote, path in zip(registry.entry(name).files, files):
        verify(remote, path)
    X, Y, label_names, feature_names = read_mulan(files[:-1], files[-1])
    expected = registry.entry(name).labels
    if Y.shape[1] != expected:
        raise ValueError(f"{files[-1]}: {Y.shape[1]} labels read, the registry says {expected}")
    return MultilabelDataset(name, X, Y, label_names, feature_names)


def load_mulan(name: str, cache_dir: str | os.PathLike | None = None, mirror: str | None = None):
    """Load MULAN dataset ``name``: from the cache, else fetched, parsed and cached. The cache file is
    keyed by the pinned sha256 of its files, so it never holds another version of the data."""
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cached = cache_dir / "datasets" / f"{name}-{content_key(name)}.npz"
    if not cached.exists():
        files = fetch_mulan(name, cache_dir / "raw", mirror)
        save_dataset(parse_mulan(name, files), cached)
    return load_dataset(cached)
