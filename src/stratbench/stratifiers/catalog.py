"""What every registered stratifier is and guarantees, one call away (``stratbench list`` prints it).

Each row: the registered ``name``; a one-line ``summary`` (its class docstring's first sentence); its
``reference``; the ``fold_sizes`` it keeps (``n/k ± 1`` for the ``equal_sizes`` methods, else near n/k
after the repairs: every test fold non-empty); ``groups`` (``kept whole`` where it splits by groups,
``required`` for the group baselines, ``refused`` otherwise: a group is never silently ignored);
``seeded`` (whether ``random_state`` changes the split; deterministic otherwise); ``speed`` (``compiled``:
a numba kernel over the sparse rows; ``numpy``: vectorised passes).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

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


def facts(name: str) -> MethodFacts:
    """The facts of the stratifier registered as ``name`` (at its default parameters)."""
    cls = _REGISTRY.resolve(name)
    method = cls(n_splits=5, random_state=0)
    paragraph = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    summary = re.split(r"(?<!\bal)\.\s+(?=[A-Z`(])", paragraph)[0].rstrip(".") + "." if paragraph else ""
    groups = "required" if getattr(cls, "needs_groups", False) else "kept whole" if cls.supports_groups else "refused"
    return MethodFacts(name=name, summary=summary, reference=getattr(cls, "reference", ""),
                       fold_sizes="n/k ± 1" if method.equal_sizes else "near n/k, none empty", groups=groups,
                       seeded=bool(method.seeded), speed="compiled" if cls.kernels else "numpy")


def catalog() -> list[dict]:
    """:func:`facts` of every registered stratifier, as dicts (``pandas.DataFrame(catalog())`` makes a table).

    >>> [row["name"] for row in catalog()][:3]
    ['group_kfold', 'hybrid', 'iterative']
    >>> {k: v for k, v in catalog()[2].items() if k in ("groups", "seeded", "speed")}
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
