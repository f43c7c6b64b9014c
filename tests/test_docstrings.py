"""The examples in the docstrings of the installed stratbench (the wheel in CI, the checkout in an editable
install): each one a test, run as ``doctest`` runs it."""

import doctest
import importlib
import pkgutil

import pytest

import stratbench


def _doctests():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for info in pkgutil.walk_packages(stratbench.__path__, "stratbench."):
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as error:  # a module of an extra this environment lacks
            if error.name and error.name.split(".")[0] != "stratbench":
                continue
            raise
        for test in finder.find(module, info.name):
            if test.examples and test.filename and test.filename.endswith(".py"):
                yield test


DOCTESTS = sorted(_doctests(), key=lambda test: test.name)


def test_the_package_has_its_examples():
    assert len(DOCTESTS) >= 60


@pytest.mark.parametrize("test", DOCTESTS, ids=[test.name for test in DOCTESTS])
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def _documented(cls) -> dict:
    """name → type of every parameter a numpydoc ``Parameters`` section of ``cls`` or a base of it documents."""
    import inspect
    import re

    found = {}
    for klass in reversed(cls.__mro__):
        doc = inspect.getdoc(klass) if "__doc__" in vars(klass) else None
        section = re.search(r"^Parameters\n-{10}\n(.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", doc or "", re.S | re.M)
        for names, kind in re.findall(r"^(\*{0,2}\w+(?:, \w+)*) : (\S.*)$", section.group(1) if section else "", re.M):
            found.update({name.lstrip("*"): kind for name in names.split(", ")})
    return found


def test_every_public_class_and_registered_method_documents_each_parameter_with_its_type():
    """numpydoc ``name : type`` for every parameter of every registered stratifier and classifier and every class of
    stratbench.model_selection, in its own docstring or its base class's (the shared ones: MultilabelStratifier's
    and MultilabelClassifier's); the API page renders them."""
    import inspect

    from stratbench import classifiers, model_selection, stratifiers
    from stratbench.labels import TargetTable

    classes = [stratifiers.resolve(n) for n in stratifiers.names()] + [classifiers.resolve(n) for n in classifiers.names()]
    classes += [getattr(model_selection, n) for n in model_selection.__all__ if inspect.isclass(getattr(model_selection, n))]
    classes.append(TargetTable)
    undocumented = {}
    for cls in classes:
        names = [k for k, p in inspect.signature(cls.__init__).parameters.items() if k != "self"]
        missing = [name.lstrip("*") for name in names if name.lstrip("*") not in _documented(cls)]
        if missing:
            undocumented[cls.__name__] = missing
    assert not undocumented, undocumented
