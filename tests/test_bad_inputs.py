"""Bad input, held out as a user meets it: every case stops with the exact exception type (ValueError for a bad
value, TypeError for a keyword or a type a constructor does not take), a message that names the bad value, and
never a split first (a split generator is asked for its first split inside the check). Then a property test:
over random inputs, good and bad, every split is a partition of the rows (or the documented holdout) or the
call raises ValueError/TypeError naming what it refused."""
import re

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratbench import (
    IterativeStratification,
    MultilabelStratifiedGroupKFold,
    MultilabelStratifiedKFold,
    MultilabelStratifiedShuffleSplit,
    RepeatedMultilabelStratifiedKFold,
    StratbenchError,
    iterative_train_test_split,
    stratifiers,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
Y = (np.random.default_rng(0).random((100, 4)) < 0.4).astype(int)
Y[np.arange(4), np.arange(4)] = 1
X = np.zeros((100, 2))


def first(splits):
    """The first split only: a refusal must come before it."""
    return next(iter(splits))


def nan_y():
    y = Y.astype(float)
    y[7, 2] = np.nan
    return y


def two_y():
    y = Y.copy()
    y[11, 3] = 2
    return y


# (what, the call, exception type, a regex the message must match: it names the bad value)
CASES = [
    # --- construction: unknown keywords, n_splits, shuffle, compat, method, random_state -----------------
    ("misspelled n_splits", lambda: MultilabelStratifiedKFold(n_split=5), TypeError, r"'n_split'.*it takes n_splits"),
    ("a method parameter misspelled", lambda: MultilabelStratifiedKFold(label_tie="random"), TypeError,
     r"'label_tie'.*label_ties"),
    ("repeated, misspelled n_repeats", lambda: RepeatedMultilabelStratifiedKFold(n_repeat=3), TypeError, r"'n_repeat'"),
    ("shuffle split, misspelled test_size", lambda: MultilabelStratifiedShuffleSplit(test_sizes=0.2), TypeError,
     r"'test_sizes'"),
    ("group k-fold, misspelled keyword", lambda: MultilabelStratifiedGroupKFold(n_split=3), TypeError, r"'n_split'"),
    ("scikit-multilearn's class, unknown keyword", lambda: IterativeStratification(n_split=3), TypeError, r"'n_split'"),
    ("registry, unknown keyword", lambda: stratifiers.get("iterative", n_split=5), TypeError,
     r"'n_split'.*it takes n_splits"),
    ("n_splits=1", lambda: MultilabelStratifiedKFold(n_splits=1), ValueError, r"n_splits=1"),
    ("n_splits=0 (repeated)", lambda: RepeatedMultilabelStratifiedKFold(n_splits=0), ValueError, r"n_splits=0"),
    ("n_splits=3.0", lambda: MultilabelStratifiedKFold(n_splits=3.0), ValueError, r"3\.0 of type float"),
    ("n_splits=True", lambda: MultilabelStratifiedKFold(n_splits=True), ValueError, r"True of type bool"),
    ("n_splits='3'", lambda: IterativeStratification(n_splits="3"), ValueError, r"'3' of type str"),
    ("n_splits=1 (compat)", lambda: MultilabelStratifiedKFold(n_splits=1, compat="iterstrat"), ValueError, r"n_splits=1"),
    ("n_splits=3.0 (compat)", lambda: IterativeStratification(3.0, compat="skmultilearn"), ValueError, r"3\.0"),
    ("shuffle=5", lambda: MultilabelStratifiedKFold(shuffle=5), TypeError, r"shuffle must be True or False; got 5"),
    ("shuffle=42 in scikit-multilearn's positions", lambda: IterativeStratification(5, 1, None, 42, shuffle=42),
     TypeError, r"got 42"),
    ("compat of the other peer", lambda: MultilabelStratifiedKFold(compat="skmultilearn"), ValueError,
     r"got 'skmultilearn'"),
    ("compat of no peer", lambda: RepeatedMultilabelStratifiedKFold(compat="mulan"), ValueError, r"got 'mulan'"),
    ("compat with a method", lambda: MultilabelStratifiedKFold(compat="iterstrat", method="sois"), TypeError,
     r"method='sois'"),
    ("compat with method parameters", lambda: MultilabelStratifiedShuffleSplit(compat="iterstrat", label_ties="random"),
     TypeError, r"label_ties"),
    ("an unknown method", lambda: MultilabelStratifiedKFold(method="isx"), ValueError, r"unknown stratifier 'isx'"),
    ("a group split by a method that does not split groups", lambda: MultilabelStratifiedGroupKFold(method="sois"),
     ValueError, r"'sois' does not split by groups"),
    ("random_state a string", lambda: MultilabelStratifiedKFold(random_state="seven"), ValueError, r"'seven'"),
    ("random_state negative", lambda: MultilabelStratifiedKFold(random_state=-1), ValueError, r"random_state=-1"),
    ("a Generator for a peer's stream", lambda: MultilabelStratifiedKFold(compat="iterstrat",
                                                                         random_state=np.random.default_rng(0)),
     ValueError, r"Generator"),
    ("order 3", lambda: IterativeStratification(3, 3), ValueError, r"got 3"),
    ("sample_distribution_per_fold too short", lambda: IterativeStratification(3, 1, [0.5, 0.5]), ValueError,
     r"2 shares for n_splits=3"),
    ("sample_distribution_per_fold too long", lambda: IterativeStratification(2, 1, [0.2, 0.3, 0.5]), ValueError,
     r"3 shares for n_splits=2"),
    ("sample_distribution_per_fold not summing to 1", lambda: IterativeStratification(2, 1, [0.2, 0.2]), ValueError,
     r"sum to 1.*sum 0\.4"),
    ("sample_distribution_per_fold negative", lambda: IterativeStratification(2, 1, [1.5, -0.5]), ValueError,
     r"\[1\.5, -0\.5\]"),
    ("sample_distribution_per_fold short (compat)", lambda: IterativeStratification(3, 1, [0.5, 0.5],
                                                                                   compat="skmultilearn"),
     ValueError, r"2 shares for n_splits=3"),
    ("fold_shares not one per fold", lambda: MultilabelStratifiedKFold(3, fold_shares=[1, 2]), ValueError,
     r"2 shares for n_splits=3"),
    ("fold_shares with a zero", lambda: stratifiers.get("iterative", n_splits=2, fold_shares=[1, 0]), ValueError,
     r"\[1, 0\]"),
    ("n_repeats=0", lambda: RepeatedMultilabelStratifiedKFold(n_repeats=0), ValueError, r"got 0"),
    ("n_repeats=2.5", lambda: RepeatedMultilabelStratifiedKFold(n_repeats=2.5), ValueError, r"got 2\.5"),
    ("test_size=1.5", lambda: MultilabelStratifiedShuffleSplit(test_size=1.5), ValueError, r"1\.5"),
    ("test_size=0", lambda: MultilabelStratifiedShuffleSplit(test_size=0), ValueError, r"test_size=0"),
    ("test_size=-0.1", lambda: MultilabelStratifiedShuffleSplit(test_size=-0.1), ValueError, r"-0\.1"),
    ("train_size='half'", lambda: MultilabelStratifiedShuffleSplit(train_size="half"), ValueError, r"'half'"),
    ("fold_shares to a shuffle split", lambda: MultilabelStratifiedShuffleSplit(fold_shares=[1, 1]), TypeError,
     r"fold_shares"),
    ("registry: label_ties unknown", lambda: stratifiers.get("iterative", n_splits=2, label_ties="mulan").fold_ids(Y),
     ValueError, r"'mulan'"),
    ("registry: rules unknown", lambda: stratifiers.get("sois", n_splits=2, rules="mulan").fold_ids(Y), ValueError,
     r"'mulan'"),
    ("registry: test_size=1.2", lambda: stratifiers.get("iterative", test_size=1.2), ValueError, r"1\.2"),
    # --- split: lengths, k against rows and groups, y -------------------------------------------------
    ("X of 50 rows, y of 100", lambda: first(MultilabelStratifiedKFold(5).split(X[:50], Y)), ValueError,
     r"inconsistent numbers of samples: \[50, 100\]"),
    ("X of 50 rows, y of 100 (compat)", lambda: first(MultilabelStratifiedKFold(5, compat="iterstrat").split(X[:50], Y)),
     ValueError, r"\[50, 100\]"),
    ("X of 50 rows (scikit-multilearn compat)",
     lambda: first(IterativeStratification(5, compat="skmultilearn").split(X[:50], Y)), ValueError, r"\[50, 100\]"),
    ("X of 50 rows (repeated)", lambda: first(RepeatedMultilabelStratifiedKFold(5).split(X[:50], Y)), ValueError,
     r"\[50, 100\]"),
    ("X of 50 rows (shuffle split, compat)",
     lambda: first(MultilabelStratifiedShuffleSplit(3, compat="iterstrat").split(X[:50], Y)), ValueError, r"\[50, 100\]"),
    ("X of 50 rows (registered method)", lambda: first(stratifiers.get("random", n_splits=2).split(X[:50], Y)),
     ValueError, r"\[50, 100\]"),
    ("groups of 99", lambda: first(MultilabelStratifiedGroupKFold(3).split(X, Y, np.arange(99) // 3)), ValueError,
     r"\[100, 100, 99\]"),
    ("groups of 99 (registered method)", lambda: stratifiers.get("iterative", n_splits=3).fold_ids(Y, np.arange(99)),
     ValueError, r"\(y 100, groups 99\)"),
    ("groups as a 2-d array", lambda: first(MultilabelStratifiedGroupKFold(3).split(X, Y, np.zeros((100, 2)))),
     ValueError, r"shape \(100, 2\)"),
    ("a group split without groups", lambda: first(MultilabelStratifiedGroupKFold(3).split(X, Y)), ValueError,
     r"needs groups"),
    ("fewer groups than folds", lambda: first(MultilabelStratifiedGroupKFold(5).split(X, Y, np.arange(100) % 3)),
     ValueError, r"n_splits=5 greater than the number of groups: n_groups=3"),
    ("fewer groups than folds (registered hybrid)",
     lambda: stratifiers.get("hybrid", n_splits=5).fold_ids(Y, np.arange(100) % 3), ValueError, r"n_groups=3"),
    ("groups to a method that does not split them", lambda: first(MultilabelStratifiedKFold(3, method="sois").split(
        X, Y, np.arange(100) // 2)), ValueError, r"does not split by groups"),
    ("groups to a peer's folds", lambda: first(MultilabelStratifiedKFold(3, compat="iterstrat").split(
        X, Y, np.arange(100) // 2)), ValueError, r"compat='iterstrat' does not split by groups"),
    ("a group baseline without groups", lambda: stratifiers.get("stratified_group_kfold", n_splits=3).fold_ids(Y),
     ValueError, r"pass groups"),
    ("more splits than rows", lambda: first(MultilabelStratifiedKFold(200).split(None, Y)), ValueError,
     r"n_splits=200 greater than the number of samples: n_samples=100"),
    ("more splits than rows (compat)", lambda: first(MultilabelStratifiedKFold(200, compat="iterstrat").split(None, Y)),
     ValueError, r"n_splits=200"),
    ("more splits than rows (scikit-multilearn compat)",
     lambda: first(IterativeStratification(101, compat="skmultilearn").split(None, Y)), ValueError, r"n_splits=101"),
    ("more splits than rows (registered)", lambda: stratifiers.get("sois", n_splits=101).fold_ids(Y), ValueError,
     r"n_splits=101"),
    ("no y", lambda: first(MultilabelStratifiedKFold(3).split(X, None)), ValueError, r"needs the label matrix y"),
    ("a 1-d class vector", lambda: first(MultilabelStratifiedKFold(3).split(None, np.arange(100) % 3)), ValueError,
     r"1-d vector of classes \(values 0, 1, 2\)"),
    ("NaN in y", lambda: first(MultilabelStratifiedKFold(3).split(None, nan_y())), ValueError,
     r"NaN at row 7, column 2"),
    ("NaN in sparse y", lambda: first(MultilabelStratifiedKFold(3).split(None, sp.csr_matrix(nan_y()))), ValueError,
     r"NaN at row 7, column 2"),
    ("a 2 in y", lambda: first(MultilabelStratifiedKFold(3).split(None, two_y())), ValueError,
     r"label column 3 is not 0/1 \(value 2 at row 11\)"),
    ("a 2 in y (compat)", lambda: first(MultilabelStratifiedKFold(3, compat="iterstrat").split(None, two_y())),
     ValueError, r"value 2 at row 11"),
    ("label names in y", lambda: first(MultilabelStratifiedKFold(3).split(None, [{"a"}, {"b"}, {"a", "b"}])),
     ValueError, r"MultiLabelBinarizer"),
    ("y without rows", lambda: first(MultilabelStratifiedKFold(3).split(None, np.zeros((0, 3)))), ValueError,
     r"0 sample"),
    ("a 3-d y", lambda: first(MultilabelStratifiedKFold(3).split(None, np.zeros((4, 2, 2)))), ValueError, r"dim 3"),
    ("holdout sides larger than the rows", lambda: first(MultilabelStratifiedShuffleSplit(
        2, test_size=0.6, train_size=0.6).split(None, Y)), ValueError, r"ask for 60 \+ 60 of 100"),
    ("a test side larger than the rows", lambda: first(MultilabelStratifiedShuffleSplit(2, test_size=200).split(None, Y)),
     ValueError, r"test_size=200"),
    ("train_test_split: a count", lambda: iterative_train_test_split(X, Y, 20), ValueError, r"got 20"),
    ("train_test_split: a share of 1", lambda: iterative_train_test_split(X, Y, 1.0), ValueError, r"got 1\.0"),
    ("train_test_split: lengths", lambda: iterative_train_test_split(X[:50], Y, 0.2), ValueError, r"\[50, 100\]"),
    ("train_test_split: the other peer", lambda: iterative_train_test_split(X, Y, 0.2, compat="iterstrat"), ValueError,
     r"got 'iterstrat'"),
]


@pytest.mark.parametrize("what, call, kind, message", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_stops_with_one_clear_error_before_any_split(what, call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert info.type is kind or (kind is ValueError and isinstance(info.value, StratbenchError)), info.type
    assert re.search(message, str(info.value)), str(info.value)
    assert "\n" not in str(info.value)


def test_there_are_at_least_sixty_held_out_bad_inputs():
    assert len(CASES) + len(WORKFLOW_CASES) >= 60


# --- data and the workflow's checks, before any job -------------------------------------------------

def _study(tmp_path, **changes):
    from stratbench.study import Study

    config = {"study": "bad", "seed": 1, "n_splits": 3, "repeats": 1, "stratifiers": {"random": {}},
              "datasets": {"toy": {"synthetic": {"examples": 30, "labels": 3, "features": 2, "cardinality": 1.2,
                                                 "dependence": 0.0}}}}
    config.update(changes)
    path = tmp_path / "study.yaml"
    import yaml

    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return Study.load(path)


def _yaml(tmp_path, text):
    from stratbench.study.config import read_config

    path = tmp_path / "broken.yaml"
    path.write_text(text)
    return read_config(path)


WORKFLOW_CASES = [
    ("a YAML syntax error", lambda t: _yaml(t, "study: x\n  bad: [1\n"), ValueError, r"broken\.yaml, line \d+, column \d+"),
    ("a missing config file", lambda t: __import__("stratbench.study.config").study.config.read_config(t / "nowhere.yaml"),
     ValueError, r"nowhere\.yaml: cannot read"),
    ("a key the schema does not know", lambda t: _study(t, n_folds=3), ValueError,
     r"study\.yaml, line 15, column 1: config: .*'n_folds' was unexpected"),
    ("n_splits above a dataset's rows", lambda t: _study(t, n_splits=40), ValueError, r"n_splits=40 .* 30 examples"),
    ("a cardinality below one", lambda t: _study(t, datasets={"r": {"synthetic": {
        "examples": 50, "labels": 4, "features": 2, "cardinality": 0.5}}}), ValueError, r"cardinality.*0\.5"),
    ("a mirror folder that does not exist", lambda t: _study(t, data={"mirror": str(t / "no-mirror")},
                                                             datasets={"emotions": {}}),
     ValueError, r"the MULAN mirror .*no-mirror \(from data\.mirror\) is not a folder"),
    ("a mirror that lacks a dataset's file", lambda t: (t / "empty").mkdir() or _study(
        t, data={"mirror": str(t / "empty")}, datasets={"emotions": {}}), ValueError,
     r"emotions/emotions\.arff is not in the MULAN mirror"),
    ("an unknown stratifier parameter", lambda t: _study(t, stratifiers={"iterative": {"params": {"label_tie": "x"}}}),
     ValueError, r"'label_tie'"),
]


@pytest.mark.parametrize("what, call, kind, message", WORKFLOW_CASES, ids=[c[0] for c in WORKFLOW_CASES])
def test_a_bad_study_stops_before_any_job_naming_its_file(what, call, kind, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no workflow cache of a MULAN dataset here
    monkeypatch.delenv("STRATBENCH_DATA_MIRROR", raising=False)
    with pytest.raises(kind) as info:
        call(tmp_path)
    assert re.search(message, str(info.value)), str(info.value)
    assert "\n" not in str(info.value)


def test_a_failed_download_names_the_mirror_settings_and_keeps_nothing(tmp_path):
    from stratbench.datasets import FetchError, fetch
    from stratbench.datasets.registry import RemoteFile

    remote = RemoteFile("emotions/emotions.arff", "0" * 64, 10)
    with pytest.raises(FetchError, match=r"STRATBENCH_DATA_MIRROR=<folder> or data\.mirror.*stratbench mirror"):
        fetch(remote, tmp_path / "emotions.arff", mirror="http://127.0.0.1:9/mirror", retries=0, timeout=2)
    assert list(tmp_path.iterdir()) == []


# --- the property: a partition, or a clear refusal --------------------------------------------------

SPLITTERS = {
    "kfold": lambda k, **kw: MultilabelStratifiedKFold(k, shuffle=True, random_state=0, **kw),
    "kfold_sois": lambda k, **kw: MultilabelStratifiedKFold(k, method="sois", random_state=0, **kw),
    "kfold_iterstrat": lambda k, **kw: MultilabelStratifiedKFold(k, shuffle=True, random_state=0, compat="iterstrat", **kw),
    "skml": lambda k, **kw: IterativeStratification(k, 1, None, 0, compat="skmultilearn", **kw),
    "skml_order2": lambda k, **kw: IterativeStratification(k, 2, None, 0, **kw),
    "repeated": lambda k, **kw: RepeatedMultilabelStratifiedKFold(k, n_repeats=2, random_state=0, **kw),
    "group": lambda k, **kw: MultilabelStratifiedGroupKFold(k, random_state=0, **kw),
    "hybrid": lambda k, **kw: stratifiers.get("hybrid", n_splits=k, random_state=0, **kw),
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SPLITTERS)), n=st.integers(0, 14), n_y=st.integers(0, 14), labels=st.integers(1, 4),
       k=st.one_of(st.integers(-1, 16), st.sampled_from([3.0, True, "3", None])),
       grouped=st.booleans(), n_groups=st.integers(1, 14), seed=st.integers(0, 10**6),
       value=st.sampled_from([1, 1, 1, 2, np.nan]))
def test_every_split_is_a_partition_or_the_call_is_refused_by_name(name, n, n_y, labels, k, grouped, n_groups, seed,
                                                                   value):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random((n_y, labels)) < 0.4, value, 0).astype(float)
    X = np.zeros((n, 1))
    groups = rng.integers(0, n_groups, n_y) if grouped else None
    try:
        cv = SPLITTERS[name](k)
        splits = list(cv.split(X, y, groups))
    except (ValueError, TypeError) as exc:
        text = str(exc)
        assert "\n" not in text and text
        named = [repr(k), str(k), f"{n}", f"{n_y}", "NaN", "value 2", "groups", "0 sample", "no rows", "split by groups"]
        assert any(v in text for v in named), text
        return
    # accepted: X and y agree, k fits, y is 0/1, and the splits partition the rows
    assert n == n_y and isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= n
    assert not np.isnan(y).any() and set(np.unique(y)) <= {0.0, 1.0}
    repeats = 2 if name == "repeated" else 1
    assert len(splits) == k * repeats
    for r in range(repeats):
        tests = np.concatenate([test for _, test in splits[r * k:(r + 1) * k]])
        assert sorted(tests.tolist()) == list(range(n))
        for train, test in splits[r * k:(r + 1) * k]:
            assert set(train.tolist()) | set(test.tolist()) == set(range(n)) and not set(train) & set(test)
    if groups is not None and name == "group":
        for train, test in splits:
            assert not set(groups[train]) & set(groups[test])


class _NotAStratifier:
    pass


@pytest.mark.parametrize("splitter", [MultilabelStratifiedKFold, MultilabelStratifiedShuffleSplit,
                                      RepeatedMultilabelStratifiedKFold])
@pytest.mark.parametrize("method, says", [
    (None, "a stratifier is a registered name"), (3, "of type int"), (_NotAStratifier, "not a stratifier"),
    ("collections.OrderedDict", "is the class collections.OrderedDict, not a stratifier"),
    ("numpy.random", "is a module, not a stratifier"), ("iterativ", "did you mean 'iterative'"),
    ("Hybrid", "did you mean 'hybrid'"), ("no.such.module.Class", "cannot import stratifier"),
])
def test_method_is_checked_at_construction(splitter, method, says):
    """The promise: `method=` is a registered name, a dotted path to a stratifier class, or such a class, checked
    when the splitter is made. Before, None and classes raised internal TypeErrors, a dotted path to another
    kind of object was imported at construction and failed at split time."""
    with pytest.raises(StratbenchError, match=re.escape(says)):
        splitter(n_splits=3, method=method)
    from stratbench.stratifiers.iterative import IterativeStratifier

    Y = (np.random.default_rng(0).random((30, 3)) < 0.4).astype(int)
    by_class = [t.tolist() for _, t in splitter(n_splits=3, method=IterativeStratifier, random_state=0).split(None, Y)]
    by_name = [t.tolist() for _, t in splitter(n_splits=3, method="iterative", random_state=0).split(None, Y)]
    assert by_class == by_name


def test_a_compat_mode_refuses_what_its_peer_lacks_and_takes_what_the_default_path_takes():
    """The promise of compat: the peer's folds, bit for bit, for the peer's own parameters. A parameter of ours that
    the peer's class lacks (read from its signature), set away from its default, is refused, never ignored (before:
    IterativeStratification(compat="skmultilearn", shuffle=True) gave the unshuffled folds and showed shuffle=True
    in its repr); the values the default path takes (an array of shares, order 1.0) give the same folds as their
    plain forms (before: numpy's "truth value … is ambiguous" and an internal TypeError)."""
    import inspect

    from iterstrat import ml_stratifiers
    from skmultilearn.model_selection import IterativeStratification as PeerIS

    ours_and_peers = [(MultilabelStratifiedKFold, ml_stratifiers.MultilabelStratifiedKFold, "iterstrat"),
                      (MultilabelStratifiedShuffleSplit, ml_stratifiers.MultilabelStratifiedShuffleSplit, "iterstrat"),
                      (RepeatedMultilabelStratifiedKFold, ml_stratifiers.RepeatedMultilabelStratifiedKFold, "iterstrat"),
                      (IterativeStratification, PeerIS, "skmultilearn")]
    for ours, peer, compat in ours_and_peers:
        peer_takes = set(inspect.signature(peer.__init__).parameters)
        for name, p in inspect.signature(ours.__init__).parameters.items():
            if name in peer_takes or name in ("self", "compat", "method", "params") or p.kind == p.VAR_KEYWORD:
                continue
            other = (not p.default) if isinstance(p.default, bool) else None
            with pytest.raises((StratbenchError, TypeError), match=name):
                list(ours(**{name: other, "compat": compat, "random_state": 0}).split(X, Y))
    def folds(cv):
        return [test.tolist() for _, test in cv.split(X, Y)]

    plain = folds(IterativeStratification(2, 1, [0.25, 0.75], 0, compat="skmultilearn"))
    assert folds(IterativeStratification(2, 1.0, np.array([0.25, 0.75]), 0, compat="skmultilearn")) == plain
    assert folds(IterativeStratification(2, np.int64(1), (0.25, 0.75), 0, compat="skmultilearn")) == plain


def test_a_methods_wrong_assignment_is_named_as_what_it_is():
    """A user's `_assign` that returns one id too few was reported as "ids outside 0…4"; the message now names what
    was returned: its shape against the rows, the ids out of range, ids that are not whole numbers."""
    from stratbench.stratifiers import MultilabelStratifier

    def method(assign):
        return type("Mine", (MultilabelStratifier,), {"_assign": lambda self, Y, ratios, rng: assign(Y.shape[0], len(ratios))})

    Y20 = (np.random.default_rng(0).random((20, 3)) < 0.4).astype(int)
    for assign, says in ((lambda n, k: np.arange(n - 1) % k, "shape (19,) where one subset id per row was due: shape (20,)"),
                         (lambda n, k: np.arange(n) % (k + 1), "ids [5] outside 0…4"),
                         (lambda n, k: np.arange(n) % k + 0.5, "not whole numbers")):
        with pytest.raises(StratbenchError, match=re.escape(says)):
            method(assign)(n_splits=5).fold_ids(Y20)
    assert method(lambda n, k: (np.arange(n) % k).astype(float))(n_splits=5).fold_ids(Y20).tolist() == \
        (np.arange(20) % 5).tolist()
