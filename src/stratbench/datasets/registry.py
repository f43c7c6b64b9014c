"""The MULAN dataset registry shipped with the package (``stratbench/data/datasets.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

from stratbench import StratbenchError


@dataclass(frozen=True)
class RemoteFile:
    """One file of a dataset: its path under the upstream/mirror root, sha256 and size."""

    path: str
    sha256: str | None
    bytes: int | None

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class MulanEntry:
    name: str
    labels: int
    examples: int
    label_file: RemoteFile
    data_files: tuple[RemoteFile, ...]

    @property
    def files(self) -> tuple[RemoteFile, ...]:
        return (*self.data_files, self.label_file)


@lru_cache(maxsize=1)
def _registry() -> dict:
    text = resources.files("stratbench").joinpath("data/datasets.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def upstream_base_url() -> str:
    """Base URL of the pinned upstream (tsoumakas/mulan at a fixed commit, ``data/multi-label/``)."""
    return _registry()["upstream"]["base_url"]


def names() -> list[str]:
    """Names of every registered MULAN dataset."""
    return list(_registry()["datasets"])


def entry(name: str) -> MulanEntry:
    """The registry entry of dataset ``name``; an unknown name stops with the list of known ones."""
    datasets = _registry()["datasets"]
    if name not in datasets:
        raise StratbenchError(f"unknown MULAN dataset {name!r}; known: {', '.join(datasets)}")
    d = datasets[name]
    return MulanEntry(
        name=name,
        labels=int(d["labels"]),
        examples=int(d["examples"]),
        label_file=RemoteFile(**d["label_file"]),
        data_files=tuple(RemoteFile(**f) for f in d["data_files"]),
    )
