"""What every registered stratifier is and guarantees, one call away (``stratbench list`` prints it).

Each row: the registered ``name``; a one-line ``summary`` (its class docstring's first sentence, plain
text); its ``reference``; the ``fold_sizes`` it keeps, as measured by ``benchmarks/certificate.py`` on the
MULAN mirror's small datasets and a 10⁴ × 100 synthetic matrix at k = 5 and 10 (``data/measured/fold_sizes.csv``):
``n/k ± 1`` where every fold was within one row of n/k, else how many rows off it got in those splits of one
seed, said to be no bound (other seeds and k go further; every test fold is non-empty after the repairs either way);
``groups`` (``kept whole`` where it splits by groups,
``required`` for the group baselines, ``refused`` otherwise: a group is never silently ignored);
``seeded`` (whether ``random_state`` changes the split; deterministic otherwise); ``speed`` (``compiled``:
a numba kernel over the sparse rows; ``numpy``: vectorised passes).
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources

from stratbench.stratifiers import _REGISTRY


@dataclass(frozen=True)
class MethodFacts:
    name: str
    summary: str
    reference: str
    fold_sizes: str
    groups: str
    seeded: bool
    speed: str


def plain(text: str) -> str:
    """reStructuredText roles and literals as plain text, for a terminal.

    >>> plain("scikit-learn's ``KFold`` (:func:`fit_sizes`, :mod:`stratbench.io`)")
    "scikit-learn's KFold (fit_sizes, stratbench.io)"
    """
    return re.sub(r"``([^`]*)``", r"\1", re.sub(r":[a-z]+:`~?([^`]*)`", r"\1", text))


@lru_cache(maxsize=1)
def measured_sizes() -> dict[str, tuple[float, str]]:
    """{method: (most rows any fold was off n/k, where)} as ``benchmarks/certificate.py`` measured them."""
    text = resources.files("stratbench").joinpath("data/measured/fold_sizes.csv").read_text(encoding="utf-8")
    return {row["method"]: (float(row["rows_off"]), row["where"]) for row in csv.DictReader(io.StringIO(text))}


def fold_sizes(name: str) -> str:
    """What ``name`` keeps of n/k, as measured (a method measured nowhere says so).

    >>> fold_sizes("hybrid"), fold_sizes("sois").startswith("7 rows off n/k in one seed's splits")
    ('n/k ± 1', True)
    """
    if getattr(_REGISTRY.resolve(name), "context", ()):  # folds read from files (from_file): their sizes
        return "those of its files"
    if name not in measured_sizes():
        return "not measured (stratbench certify measures it)"
    off, where = measured_sizes()[name]
    if off < 1:
        return "n/k ± 1"
    if off == float("inf"):
        return f"refuses some datasets ({where})"
    return f"{math.ceil(off)} rows off n/k in one seed's splits ({where}); no bound"


def facts(name: str) -> MethodFacts:
    """The facts of the stratifier registered as ``name`` (at its default parameters)."""
    cls = _REGISTRY.resolve(name)
    method = cls(n_splits=5, random_state=0)
    paragraph = " ".join(plain(cls.__doc__ or "").strip().split("\n\n")[0].split())
    summary = re.split(r"(?<!\bal)\.\s+(?=[A-Z`(])", paragraph)[0].rstrip(".") + "." if paragraph else ""
    groups = "required" if getattr(cls, "needs_groups", False) else "kept whole" if cls.supports_groups else "refused"
    return MethodFacts(name=name, summary=summary, reference=getattr(cls, "reference", ""), fold_sizes=fold_sizes(name),
                       groups=groups, seeded=bool(method.seeded), speed="compiled" if cls.kernels else "numpy")


def catalog() -> list[dict]:
    """:func:`facts` of every registered stratifier, as dicts (``pandas.DataFrame(catalog())`` makes a table).

    >>> [row["name"] for row in catalog()][:4]
    ['from_file', 'group_kfold', 'hybrid', 'iterative']
    >>> {k: v for k, v in catalog()[3].items() if k in ("groups", "seeded", "speed")}
    {'groups': 'kept whole', 'seeded': True, 'speed': 'compiled'}
    """
    return [asdict(facts(name)) for name in _REGISTRY.names()]


def markdown() -> str:
    """The catalogue as a Markdown table."""
    rows = catalog()
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(row[c]).replace("|", "\\|") for c in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"
