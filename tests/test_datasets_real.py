"""Real MULAN data from the mirror: Table 1 of Sechidis et al. 2011 and the cache round trip."""
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from stratbench.datasets import dataset_statistics, load_dataset, save_dataset

# our registry name -> the paper's name (tmc2007-500 has the same label matrix as tmc2007)
PAPER_NAME = {"tmc2007-500": "tmc2007"}
REAL = ["scene", "emotions", "genbase", "yeast", "medical", "bibtex", "enron", "corel5k", "delicious", "tmc2007-500"]


@pytest.mark.mirror
@pytest.mark.parametrize("name", REAL)
def test_table1_statistics_match_the_paper(name, mulan_cache, reference_dir):
    ref = pd.read_csv(reference_dir / "sechidis2011_table1_datasets.csv").set_index("dataset")
    expected = ref.loc[PAPER_NAME.get(name, name)]
    got = dataset_statistics(name, mulan_cache(name).Y)
    for column in ["labels", "examples", "labelsets", "examples_per_labelset_min", "examples_per_labelset_max",
                   "examples_per_label_min", "examples_per_label_max"]:
        assert got[column] == expected[column], column
    assert round(got["labelsets_per_example"], 2) == pytest.approx(expected["labelsets_per_example"], abs=0.006)
    # averages are rounded in the paper
    assert abs(got["examples_per_labelset_avg"] - expected["examples_per_labelset_avg"]) <= 1
    assert abs(got["examples_per_label_avg"] - expected["examples_per_label_avg"]) <= 1


@pytest.mark.mirror
def test_scene_and_birds_concatenate_train_then_test(mulan_cache, mirror):
    scene = mulan_cache("scene")
    assert scene.Y.shape == (2407, 6) and scene.X.shape == (2407, 294)
    first_train_row = (mirror / "scene" / "scene-train.arff").read_text().split("@data")[1].split()[0]
    np.testing.assert_allclose(scene.X[0, :3], [float(v) for v in first_train_row.split(",")[:3]], rtol=1e-6)
    birds = mulan_cache("birds")
    assert birds.Y.shape == (645, 19)
    assert "Swainson's Thrush" in birds.label_names


@pytest.mark.mirror
def test_sparse_dataset_is_cached_as_csr(mulan_cache, tmp_path):
    ds = mulan_cache("medical")
    assert sp.issparse(ds.X) and ds.X.dtype == np.float32
    save_dataset(ds, tmp_path / "m.npz")
    back = load_dataset(tmp_path / "m.npz")
    assert (back.X != ds.X).nnz == 0 and (back.Y != ds.Y).nnz == 0
    assert back.label_names == ds.label_names and back.feature_names == ds.feature_names
    assert set(np.unique(back.Y.data)) == {1}
