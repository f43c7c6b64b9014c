"""Datasets: the MULAN registry and reader, the synthetic generator, the cache, Table 1 statistics."""

from stratbench.datasets.arff import ArffError, read_mulan
from stratbench.datasets.core import MultilabelDataset, load_dataset, save_dataset
from stratbench.datasets.fetch import FetchError, fetch
from stratbench.datasets.mulan import load_mulan
from stratbench.datasets.statistics import dataset_statistics
from stratbench.datasets.synthetic import generate as generate_synthetic

__all__ = [
    "ArffError", "FetchError", "MultilabelDataset", "dataset_statistics", "fetch",
    "generate_synthetic", "load_dataset", "load_mulan", "read_mulan", "save_dataset",
]
