"""A kind of study is one class: its keys (a schema of its own, the keys of other kinds refused by whose they are),
its checks, its k, its targets and its rule files. A fourth kind, made by a user in one module and its rule file,
is checked and run by the workflow with nothing else touched."""
import textwrap

import numpy as np
import pytest
from conftest import run_snakemake

from stratbench import StratbenchError
from stratbench.study import Study
from stratbench.study.plans import PLANS, CvErrorPlan, GridPlan, Plan

TOY = '''
    """A kind of one's own: each dataset's label counts, the `top` most frequent labels."""
    from pathlib import Path

    from stratbench import StratbenchError
    from stratbench.study.plans import Plan


    class LabelCountsPlan(Plan):
        kind = "label_counts"
        rule_files = (str(Path(__file__).with_name("label_counts.smk")),)
        keys = {"label_counts": {"type": "object", "additionalProperties": False,
                                 "properties": {"top": {"type": "integer", "minimum": 1, "default": 3}}}}
        needs = ("label_counts",)

        @classmethod
        def check(cls, study):
            labels = min(study.shape(d)[1] for d in study.datasets)
            if study.config["label_counts"]["top"] > labels:
                raise StratbenchError(f"config: label_counts.top is more than the {labels} labels of a dataset")

        @classmethod
        def largest_k(cls, config):
            return None  # it splits into no folds

        def targets(self):
            return [f"{self.results}/label_counts/{d}.csv" for d in self.study.datasets]
'''
RULES = '''
    rule label_counts:
        input:
            lambda w: study.dataset_file(w.dataset),
        output:
            f"{study.results}/label_counts/{{dataset}}.csv",
        log:
            f"logs/{study.name}/label_counts/{{dataset}}.log",
        params:
            top=study.config["label_counts"]["top"],
        run:
            import numpy as np

            from stratbench.datasets.core import load_dataset
            from stratbench.io import write_text

            counts = np.asarray(load_dataset(input[0]).Y.sum(axis=0)).ravel()
            top = np.argsort(-counts, kind="stable")[: params.top]
            write_text(output[0], "label,positives\\n" + "".join(f"{j},{counts[j]}\\n" for j in top))
'''


def toy_config(tmp_path, **changes) -> dict:
    (tmp_path / "kinds").mkdir(exist_ok=True)
    (tmp_path / "kinds" / "toykind.py").write_text(textwrap.dedent(TOY))
    (tmp_path / "kinds" / "label_counts.smk").write_text(textwrap.dedent(RULES).lstrip())
    config = {"study": "counts", "kind": "toykind.LabelCountsPlan", "seed": 1, "repeats": 1,
              "import_paths": [str(tmp_path / "kinds")], "stratifiers": {"random": {}}, "label_counts": {},
              "datasets": {"toy": {"random_labels": {"examples": 60, "labels": 4, "density": 0.3, "seed": 2}}}}
    return config | changes


def test_a_kind_owns_its_keys_checks_and_k():
    base = {"study": "k", "seed": 1, "repeats": 1, "stratifiers": {"iterative": {}},
            "datasets": {"toy": {"random_labels": {"examples": 60, "labels": 3, "density": 0.3}}}}
    grid = Study.checked({**base, "kind": "grid", "grid": {"n_splits": [3, 5]}})
    assert grid.n_splits == 5 and "alpha" in grid.config and "forest" not in grid.config  # its defaults, no other's
    assert GridPlan.refused("classifiers") == "a benchmark study's (kind: benchmark)"
    assert CvErrorPlan.refused("n_splits") == "a cv_error study's k are cv_error.n_splits"
    assert GridPlan.refused("alpha") is None and PLANS["benchmark"].refused("dataset_groups") is None
    schema = PLANS["cv_error"].schema({"required": ["study"], "properties": {"study": {}, "cv_error": {}, "grid": {}}})
    assert schema["properties"].keys() == {"study", "cv_error"} and schema["required"] == ["study", "cv_error"]
    with pytest.raises(StratbenchError, match=r"config: kind: 'gird' is not a kind of study; known: benchmark, grid, "
                                              r"cv_error"):
        Study.checked({**base, "kind": "gird"})
    with pytest.raises(StratbenchError, match=r"not a stratbench.study.plans.Plan"):
        Study.checked({**base, "kind": "stratbench.study.plans.plan"})


def test_a_fourth_kind_is_one_module_and_its_rule_file(tmp_path):
    config = toy_config(tmp_path)
    study = Study.checked(dict(config))
    assert study.n_splits is None and study.config["label_counts"] == {"top": 3}  # its own key, its default
    assert issubclass(study.kind_class(), Plan) and study.kind_class().kind == "label_counts"
    with pytest.raises(StratbenchError, match=r"config: n_splits: a label_counts study does not read it \(a benchmark "
                                              r"study's \(kind: benchmark\)\)"):
        Study.checked(toy_config(tmp_path, n_splits=3))
    with pytest.raises(StratbenchError, match=r"config: 'label_counts' is a required property"):
        Study.checked({k: v for k, v in toy_config(tmp_path).items() if k != "label_counts"})
    with pytest.raises(StratbenchError, match=r"config: label_counts.top is more than the 4 labels"):
        Study.checked(toy_config(tmp_path, label_counts={"top": 9}))
    from stratbench.cost import estimate

    with pytest.raises(StratbenchError, match=r"prices the built-in kinds of study \(benchmark, grid, cv_error\); the "
                                              r"kind 'toykind.LabelCountsPlan' has no cost model"):
        estimate(study.config, 1)
    run = run_snakemake(tmp_path / "work", config, "--cores", "1")
    assert run.returncode == 0, run.stderr[-3000:]
    made = (tmp_path / "work" / "results" / "counts" / "label_counts" / "toy.csv").read_text().splitlines()
    from stratbench.datasets.core import load_dataset

    counts = np.asarray(load_dataset(tmp_path / "work" / "results" / "counts" / "datasets" / "toy.npz").Y.sum(axis=0))
    assert made[0] == "label,positives" and len(made) == 4  # the top 3 labels, as its key's default asks
    assert [int(line.split(",")[1]) for line in made[1:]] == sorted(counts.ravel().tolist(), reverse=True)[:3]
    assert (tmp_path / "work" / "results" / "counts" / "manifest-sha256.txt").is_file()  # a run's records, as any kind's
