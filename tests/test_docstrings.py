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
