"""The splitters as a library: the names users of iterative-stratification and scikit-multilearn know
(stratbench.model_selection, also at the package's top level), one test per open ask of theirs (named
after it), and what `stratbench list` and `stratbench --version` say."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import stratbench
from stratbench import StratbenchError
from stratbench.model_selection import (
    IterativeStratification,
    MultilabelStratifiedGroupKFold,
    MultilabelStratifiedKFold,
    MultilabelStratifiedShuffleSplit,
    RepeatedMultilabelStratifiedKFold,
    distinct_test_sets,
)


def labels(n=60, L=5, seed=0):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, L)) < 0.3).astype(int)
    Y[np.arange(n), np.arange(n) % L] = 1  # every label present
    return Y


def folds_of(cv, Y, groups=None):
    n = Y.shape[0]
    folds = np.full(n, -1)
    for j, (_, test) in enumerate(cv.split(np.zeros((n, 1)), Y, groups)):
        folds[test] = j
    return folds


def test_the_names_users_know_are_at_the_top_level_with_the_peers_signatures():
    for name in ("MultilabelStratifiedKFold", "RepeatedMultilabelStratifiedKFold", "MultilabelStratifiedShuffleSplit",
                 "IterativeStratification", "MultilabelStratifiedGroupKFold", "distinct_test_sets"):
        assert getattr(stratbench, name) is getattr(stratbench.model_selection, name)
    Y = labels()
    assert MultilabelStratifiedKFold().get_n_splits() == 3  # iterstrat's defaults
    assert RepeatedMultilabelStratifiedKFold().get_n_splits() == 5 * 10
    assert MultilabelStratifiedShuffleSplit().get_n_splits() == 10
    assert IterativeStratification(n_splits=4, order=2, random_state=0).method == "sois"  # scikit-multilearn's order
    shares = IterativeStratification(n_splits=2, sample_distribution_per_fold=[0.25, 0.75], random_state=0)
    assert np.bincount(folds_of(shares, Y)).tolist() == pytest.approx([15, 45], abs=3)
    for method in ("iterative", "sois", "hybrid", "labelset", "random"):  # any registered method by name
        folds = folds_of(MultilabelStratifiedKFold(n_splits=4, shuffle=True, random_state=1, method=method), Y)
        assert sorted(set(folds.tolist())) == [0, 1, 2, 3], method
    with pytest.raises(StratbenchError, match="unknown stratifier 'isx'"):
        MultilabelStratifiedKFold(method="isx")


def test_sklearn_model_selection_takes_them():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.multioutput import MultiOutputClassifier

    Y = labels(80)
    X = Y + np.random.default_rng(0).normal(0, 0.5, Y.shape)
    scores = cross_val_score(MultiOutputClassifier(LogisticRegression()), X, Y,
                             cv=MultilabelStratifiedKFold(n_splits=4, shuffle=True, random_state=0))
    assert len(scores) == 4 and (scores > 0.2).all()


def test_iterstrat_15_exact_holdout_sizes_as_scikit_learn_rounds_them():
    """iterative-stratification #15: the test side holds ⌈p·n⌉ rows (scikit-learn's ShuffleSplit rounding),
    the train side the rest, exactly, for every split and method."""
    Y = labels(63)
    for method in ("iterative", "sois", "random"):
        for test_size, expected in ((0.25, 16), (0.1, 7), (20, 20)):
            cv = MultilabelStratifiedShuffleSplit(n_splits=5, test_size=test_size, random_state=0, method=method)
            sizes = {(len(train), len(test)) for train, test in cv.split(None, Y)}
            assert sizes == {(63 - expected, expected)}, (method, test_size, sizes)
    assert {len(t) for _, t in MultilabelStratifiedShuffleSplit(random_state=0).split(None, Y)} == {7}  # "default": 0.1


@pytest.mark.parametrize("method", ["iterative", "sois", "hybrid", "random", "labelset"])
def test_holdout_sizes_are_scikit_learns_in_every_combination_it_accepts(method):
    """The documented rule, every combination scikit-learn's ShuffleSplit accepts (a share or a count on either side,
    one side or both, both summing to less than n, neither: its default): each split's sides have exactly
    ShuffleSplit's sizes. Both sides given and leaving rows out used to give test sides off the rule (481–508 rows on
    yeast where it says 484); scikit-learn's own spelling of the default (test_size=None, train_size=None) raised an
    internal TypeError."""
    from sklearn.model_selection import ShuffleSplit

    Y = labels(101)
    for test_size, train_size in ((0.2, None), (None, 0.7), (0.2, 0.5), (0.25, 0.6), (17, None), (None, 60),
                                  (17, 60), (0.2, 60), (17, 0.5), (0.3, 0.7), (None, None)):  # None: scikit-learn's default
        cv = MultilabelStratifiedShuffleSplit(n_splits=4, test_size=test_size, train_size=train_size, random_state=0,
                                              method=method)
        expected = {(len(a), len(b)) for a, b in ShuffleSplit(1, test_size=test_size, train_size=train_size,
                                                               random_state=0).split(np.zeros(101))}
        sides = [(train, test) for train, test in cv.split(None, Y)]
        assert {(len(a), len(b)) for a, b in sides} == expected, (test_size, train_size)
        assert all(not set(a) & set(b) for a, b in sides)


def test_iterstrat_29_skmultilearn_147_289_a_seed_means_the_same_everywhere():
    """iterative-stratification #29, scikit-multilearn #147 and #289: an int seed gives the same folds every
    time; a RandomState or Generator is a stream (the same state, the same folds); None follows
    np.random.seed; shuffle=True changes the row order the method sees, shuffle=False keeps the data's."""
    Y = labels()

    def folds(random_state, shuffle=True):
        return folds_of(MultilabelStratifiedKFold(n_splits=3, shuffle=shuffle, random_state=random_state), Y)

    assert (folds(7) == folds(7)).all() and not (folds(7) == folds(8)).all()
    assert (folds(np.random.RandomState(3)) == folds(np.random.RandomState(3))).all()
    assert (folds(np.random.default_rng(3)) == folds(np.random.default_rng(3))).all()
    np.random.seed(11)
    first = folds(None)
    np.random.seed(11)
    assert (folds(None) == first).all()
    assert not (folds(7, shuffle=True) == folds(7, shuffle=False)).all()
    kfold = MultilabelStratifiedKFold(n_splits=3, shuffle=False, method="kfold")  # no shuffle: the data's order
    assert folds_of(kfold, Y).tolist() == [0] * 20 + [1] * 20 + [2] * 20


def test_sklearn_13621_iterstrat_10_skmultilearn_151_310_groups_kept_whole_or_refused():
    """scikit-learn #13621, iterative-stratification #10, scikit-multilearn #151 and #310: with multi-label y
    and groups, a group's rows share a fold (never silently split), or the splitter refuses the groups."""
    Y = labels(90)
    groups = np.arange(90) // 3
    for method in ("iterative", "hybrid", "random"):
        folds = folds_of(MultilabelStratifiedGroupKFold(n_splits=3, shuffle=True, random_state=0, method=method), Y, groups)
        assert all(len(set(folds[groups == g])) == 1 for g in range(30)), method
    with pytest.raises(StratbenchError, match=r"does not split by groups.*\(.*hybrid.*iterative.*random"):
        list(MultilabelStratifiedKFold(n_splits=3, method="sois").split(None, Y, groups))
    with pytest.raises(StratbenchError, match="compat='iterstrat' does not split by groups"):
        list(MultilabelStratifiedKFold(n_splits=3, compat="iterstrat").split(None, Y, groups))
    with pytest.raises(StratbenchError, match="does not split by groups"):
        MultilabelStratifiedGroupKFold(method="sois")


def test_iterstrat_16_distinct_test_sets_over_repeats():
    """iterative-stratification #16: how many distinct test sets a method gives over repeats, one call."""
    Y = labels(40)
    assert distinct_test_sets(MultilabelStratifiedKFold(4, method="kfold"), y=Y) == 4
    repeated = RepeatedMultilabelStratifiedKFold(4, n_repeats=5, random_state=0)
    assert distinct_test_sets(repeated, y=Y) == 20  # 40 rows: room for every repeat to differ
    tiny = np.eye(2, dtype=int).repeat(2, axis=0)  # 4 rows, 2 folds: few distinct splits exist
    assert distinct_test_sets(RepeatedMultilabelStratifiedKFold(2, n_repeats=20, random_state=0), y=tiny) <= 4


def test_sparse_y_is_split_as_dense():
    Y = labels()
    cv = MultilabelStratifiedKFold(n_splits=3, shuffle=True, random_state=5)
    assert (folds_of(cv, Y) == folds_of(cv, sp.csr_matrix(Y))).all()


def test_stratbench_list_and_version(capsys):
    from stratbench.__main__ import main
    from stratbench.stratifiers.catalog import catalog

    rows = {row["name"]: row for row in catalog()}
    assert set(rows) == set(stratbench.stratifiers.names())
    assert all(row["summary"] and row["reference"] for row in rows.values())
    assert rows["iterative"]["reference"].startswith("Sechidis") and rows["iterative"]["groups"] == "kept whole"
    assert rows["kfold"]["seeded"] is False and rows["kfold"]["fold_sizes"] == "n/k ± 1"
    assert rows["group_kfold"]["groups"] == "required" and rows["sois"]["speed"] == "compiled"
    assert main(["list"]) == 0
    assert "| iterative | Iterative stratification (Sechidis et al. 2011) as a k-fold cross-validator." in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"stratbench {stratbench.__version__}"


@pytest.mark.mirror
def test_compat_reproduces_iterative_stratification_0_1_9_and_scikit_multilearn_0_2_0_bit_for_bit(mulan_cache):
    """compat="iterstrat" / compat="skmultilearn": the pinned releases' folds, bit for bit, for the same data
    and seed, on 5 datasets × 5 seeds × k ∈ {3, 5, 10} (scikit-multilearn at order 1 and 2), so a project
    can switch mid-study and keep its folds."""
    import warnings

    from iterstrat.ml_stratifiers import MultilabelStratifiedKFold as IterstratKFold
    from iterstrat.ml_stratifiers import RepeatedMultilabelStratifiedKFold as IterstratRepeated
    from skmultilearn.model_selection import IterativeStratification as SkmlIS

    def their_folds(cv, Y):
        folds = np.empty(Y.shape[0], dtype=int)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for j, (_, test) in enumerate(cv.split(np.zeros((Y.shape[0], 1)), Y)):
                folds[test] = j
        return folds

    compared = 0
    for dataset in ("emotions", "genbase", "medical", "flags", "birds"):
        Y = mulan_cache(dataset).Y
        dense = Y.toarray()
        for seed in range(5):
            for k in (3, 5, 10):
                theirs = their_folds(IterstratKFold(n_splits=k, shuffle=True, random_state=seed), dense)
                ours = folds_of(MultilabelStratifiedKFold(n_splits=k, shuffle=True, random_state=seed, compat="iterstrat"), Y)
                assert (ours == theirs).all(), ("iterstrat", dataset, seed, k)
                for order in (1, 2):
                    np.random.seed(seed)  # scikit-multilearn 0.2.0 draws from numpy's global state
                    theirs = their_folds(SkmlIS(n_splits=k, order=order), dense)
                    ours = folds_of(IterativeStratification(n_splits=k, order=order, random_state=seed, compat="skmultilearn"), Y)
                    assert (ours == theirs).all(), ("skmultilearn", dataset, seed, k, order)
                compared += 3
    assert compared == 5 * 5 * 3 * 3
    # the repeated CV draws its repeats from one stream, as iterstrat's does
    Y = mulan_cache("emotions").Y
    theirs = [test.tolist() for _, test in IterstratRepeated(n_splits=3, n_repeats=3, random_state=4).split(
        np.zeros((Y.shape[0], 1)), Y.toarray())]
    ours = [test.tolist() for _, test in RepeatedMultilabelStratifiedKFold(3, n_repeats=3, random_state=4,
                                                                           compat="iterstrat").split(None, Y)]
    assert ours == theirs
    with pytest.raises(StratbenchError, match="compat must be one of"):
        MultilabelStratifiedKFold(compat="skmultilearn")


@pytest.mark.mirror
def test_the_shuffle_split_and_the_train_test_split_give_the_peers_splits_bit_for_bit(mulan_cache):
    """MultilabelStratifiedShuffleSplit(compat="iterstrat") gives iterative-stratification 0.1.9's splits for
    float and count sizes, with and without train_size; iterative_train_test_split(compat="skmultilearn")
    scikit-multilearn 0.2.0's four arrays (it draws from numpy's global state, seeded here as random_state)."""
    import warnings

    from iterstrat.ml_stratifiers import MultilabelStratifiedShuffleSplit as IterstratShuffle
    from skmultilearn.model_selection import iterative_train_test_split as skml_split

    from stratbench import iterative_train_test_split

    compared = 0
    for dataset in ("emotions", "genbase", "flags"):
        Y = mulan_cache(dataset).Y
        dense, X = Y.toarray(), np.arange(Y.shape[0] * 2, dtype=float).reshape(-1, 2)
        for seed in range(3):
            for test_size, train_size in ((0.25, None), (40, None), (0.2, 0.5), (None, 0.7)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    theirs = [t.tolist() for _, t in IterstratShuffle(4, test_size=test_size, train_size=train_size,
                                                                      random_state=seed).split(X, dense)]
                ours = [t.tolist() for _, t in MultilabelStratifiedShuffleSplit(
                    4, test_size=test_size, train_size=train_size, random_state=seed, compat="iterstrat").split(X, Y)]
                assert ours == theirs, (dataset, seed, test_size, train_size)
                compared += 1
            np.random.seed(seed)
            theirs = skml_split(X, dense, 0.3)
            ours = iterative_train_test_split(X, dense, 0.3, random_state=seed, compat="skmultilearn")
            assert all(np.array_equal(a, b) for a, b in zip(ours, theirs)), (dataset, seed)
            compared += 1
    assert compared == 3 * 3 * 5


def test_iterative_train_test_split_without_compat_is_our_sois_holdout():
    Y = labels(80)
    X = np.arange(80)[:, None]
    X_train, y_train, X_test, y_test = stratbench.iterative_train_test_split(X, Y, test_size=0.25, random_state=0)
    assert len(X_test) == pytest.approx(20, abs=2) and len(X_train) + len(X_test) == 80
    assert np.array_equal(Y[X_test.ravel()], y_test) and np.array_equal(Y[X_train.ravel()], y_train)
    again = stratbench.iterative_train_test_split(X, Y, test_size=0.25, random_state=0)
    assert np.array_equal(again[2], X_test)
    with pytest.raises(StratbenchError, match="test_size must be a share in \\(0, 1\\).* got 20"):
        stratbench.iterative_train_test_split(X, Y, test_size=20)


def test_every_class_shows_every_parameter_compat_included_and_routes_groups():
    """Each repr names every parameter (compat too); under scikit-learn's metadata routing, groups reach
    split (cross_validate with params={"groups": …})."""
    import sklearn
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_validate

    assert repr(RepeatedMultilabelStratifiedKFold(3, n_repeats=2, random_state=1)) == (
        "RepeatedMultilabelStratifiedKFold(n_splits=3, n_repeats=2, random_state=1, method='iterative', compat=None, "
        "rare='warn')")
    assert repr(MultilabelStratifiedShuffleSplit(2, test_size=0.3)) == (
        "MultilabelStratifiedShuffleSplit(n_splits=2, test_size=0.3, train_size=None, random_state=None, "
        "method='iterative', compat=None, rare='warn')")
    assert repr(IterativeStratification(5, 1, None, 42)) == (  # scikit-multilearn's positional order
        "IterativeStratification(n_splits=5, order=1, sample_distribution_per_fold=None, random_state=42, "
        "shuffle=False, compat=None, rare='warn')")
    assert repr(MultilabelStratifiedKFold(4, method="sois", select="pairs_first")) == (
        "MultilabelStratifiedKFold(n_splits=4, shuffle=False, random_state=None, method='sois', compat=None, "
        "rare='warn', select='pairs_first')")
    Y = labels(60)
    groups = np.arange(60) // 3
    seen = []

    class Recording(MultilabelStratifiedGroupKFold):
        def split(self, X=None, y=None, groups=None):
            seen.append(groups)
            yield from super().split(X, y, groups)

    with sklearn.config_context(enable_metadata_routing=True):
        cv = Recording(n_splits=3, random_state=0)
        result = cross_validate(DummyClassifier(), np.zeros((60, 1)), Y[:, 0], cv=cv, params={"groups": groups})
    assert len(result["test_score"]) == 3 and seen and seen[0] is groups


def test_every_public_class_has_a_runnable_example():
    """Every registered stratifier and every class of stratbench.model_selection shows itself at work in
    its docstring (the doctests run them: pytest --doctest-modules)."""
    import inspect

    from stratbench import model_selection, stratifiers

    classes = [stratifiers.resolve(name) for name in stratifiers.names()]
    classes += [obj for name, obj in vars(model_selection).items() if inspect.isclass(obj) and name in model_selection.__all__]
    missing = [c.__name__ for c in classes if ">>> " not in (c.__doc__ or "")]
    assert not missing, missing


def test_every_cross_validator_stores_its_parameters_as_given_and_nothing_else():
    """scikit-learn's rule: ``__init__`` stores what it is given (a derived value, such as the method
    ``IterativeStratification``'s order picks, is computed where it is used)."""
    import inspect

    from stratbench.model_selection import MultilabelStratifiedParts

    shares = [0.25, 0.75]
    built = [IterativeStratification(2, 2, shares, 0, shuffle=True), MultilabelStratifiedKFold(3, method="sois"),
             RepeatedMultilabelStratifiedKFold(3, n_repeats=2), MultilabelStratifiedShuffleSplit(2, test_size=0.3),
             MultilabelStratifiedGroupKFold(3), MultilabelStratifiedParts((0.5, 0.5), ("a", "b"))]
    for cv in built:
        names = [k for k in inspect.signature(type(cv).__init__).parameters if k != "self"]
        assert set(vars(cv)) == set(names), (type(cv).__name__, set(vars(cv)) ^ set(names))
    assert built[0].sample_distribution_per_fold is shares and built[0].method == "sois"


def test_a_split_checks_each_parameter_once_builds_its_method_once_and_converts_y_once(monkeypatch):
    """The cross-validators delegate to the method they build once per split: n_splits checked once (by the method,
    or by the class itself under compat), one method built, a dense ``y`` converted to the label matrix once and
    never again on the way down (the method takes the checked matrix)."""
    import stratbench.labels.matrix as matrix
    import stratbench.model_selection._parts as parts_module
    import stratbench.model_selection._split as split_module
    import stratbench.stratifiers.base as base
    from stratbench import stratifiers
    from stratbench.model_selection import MultilabelStratifiedParts

    calls = {"n_splits": 0, "built": 0, "converted": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return wrapper

    for module in (split_module, base):  # a call converts y, or checks the matrix (a pass over it); the parts' call
        monkeypatch.setattr(module, "as_label_matrix", counted("converted", matrix.as_label_matrix))  # _split's
    for module in (split_module, parts_module, base):
        monkeypatch.setattr(module, "check_n_splits", counted("n_splits", module.check_n_splits))
    monkeypatch.setattr(stratifiers, "get", counted("built", stratifiers.get))
    Y, groups = labels(60, 5).tolist(), np.arange(60) // 3  # a list: converted, never the matrix itself
    built = [MultilabelStratifiedKFold(3, shuffle=True, random_state=0), MultilabelStratifiedKFold(3, compat="iterstrat"),
             IterativeStratification(3, 2, random_state=0), RepeatedMultilabelStratifiedKFold(3, n_repeats=4),
             MultilabelStratifiedShuffleSplit(5, test_size=0.2, random_state=0), MultilabelStratifiedGroupKFold(3),
             MultilabelStratifiedParts((0.5, 0.25, 0.25), n_splits=3, random_state=0)]
    for cv in built:
        calls.update(n_splits=0, built=0, converted=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            splits = list(cv.split(None, Y, groups if isinstance(cv, MultilabelStratifiedGroupKFold) else None))
        assert len(splits) == cv.get_n_splits()
        # the parts' n_splits counts draws, and their method's k (from sizes) is a parameter of its own
        expected = {"n_splits": 2 if isinstance(cv, MultilabelStratifiedParts) else 1,
                    "built": 0 if getattr(cv, "compat", None) else 1, "converted": 1}
        assert calls == expected, (cv, calls)


@pytest.mark.parametrize(("module", "old", "new"), [
    ("stratbench.stratifiers.sois", "SecondOrderIterativeStratification", "SecondOrderIterativeStratifier"),
    ("stratbench.stratifiers.labelset", "LabelsetStratification", "LabelsetStratifier"),
    ("stratbench.stratifiers.hybrid", "HybridStratification", "HybridStratifier"),
])
def test_a_renamed_stratifier_class_answers_by_its_old_name_with_a_deprecation_warning(module, old, new):
    import importlib

    loaded = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"{old} is renamed {new}") as said:
        assert getattr(loaded, old) is getattr(loaded, new)
    assert said[0].filename == __file__  # at the user's line
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        getattr(loaded, "Nothing")  # noqa: B009 - an attribute the module lacks


def test_a_registered_method_shows_every_parameter_as_scikit_learn_shows_a_splitters():
    """The repr of scikit-learn's splitters (its private ``_build_repr``: docs/contributing.md lists the use; this
    test fails where scikit-learn drops or changes it)."""
    from stratbench import stratifiers

    assert repr(stratifiers.get("iterative", n_splits=3, random_state=0)) == (
        "IterativeStratifier(fold_shares=None, label_ties='random', n_splits=3,\n          random_state=0, "
        "rules='paper', shuffle=False, test_size=None,\n          train_size=None)")


def test_a_module_grouped_into_a_room_answers_by_its_old_path_with_a_deprecation_warning(tmp_path):
    """Every module moved into a room (``stratbench.MOVED``: old path → new) still imports by its old path, as the
    same module object, with a DeprecationWarning at the user's import line; a fresh interpreter, so that no old
    path is already in ``sys.modules``."""
    import json
    import subprocess
    import sys
    import textwrap

    from stratbench import MOVED

    user = tmp_path / "user.py"
    user.write_text(textwrap.dedent("""\
        import importlib, json, sys, warnings
        from stratbench import MOVED
        out = {}
        for old, new in MOVED.items():
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                module = __import__(old, fromlist=["_"])  # as an import statement does
            out[old] = [module is importlib.import_module(new),
                        [(str(w.message), w.filename, w.category.__name__) for w in said]]
        import stratbench
        del sys.modules["stratbench.conformance"], stratbench.conformance  # imported once more:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            from stratbench import conformance  # the form `from package import module`
        out["from"] = [(w.filename, w.lineno) for w in said]
        print(json.dumps(out))
        """))
    done = subprocess.run([sys.executable, str(user)], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert len(MOVED) == 12 and set(found) == {*MOVED, "from"}
    for old, new in MOVED.items():
        same, said = found[old]
        assert same, old
        assert said == [[f"{old} has moved to {new}; the old path goes in the next release", str(user),
                         "DeprecationWarning"]]
    line = next(n for n, text in enumerate(user.read_text().splitlines(), 1) if "from stratbench import conformance" in text)
    assert found["from"] == [[str(user), line]]
    with pytest.raises(ModuleNotFoundError):
        __import__("stratbench.nowhere")
