"""Griffe extension for the API page: the Sphinx roles of stratbench's docstrings (``:func:`name```,
``:class:`~stratbench.x.C```, ``:mod:`.y```) become cross-references that mkdocs-autorefs links where the target
is on a page of the site and leaves as code where it is not (an optional reference: no broken link, no
warning). Names resolve in the scope of the object whose docstring holds them, as Sphinx resolves them."""

from __future__ import annotations

import html
import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj):`(~|\.)?([\w.]+)`")


def _target(obj, name: str) -> str | None:
    """The full path of ``name`` seen from ``obj`` (its scope, its module, the package), or None."""
    if name.startswith("stratbench"):
        return name
    for scope in (obj, obj.module, obj.package):
        try:
            return scope.resolve(name)
        except (griffe.NameResolutionError, AttributeError):
            pass
        first, _, rest = name.partition(".")
        try:
            member = scope.members[first]
            return member.path + ("." + rest if rest else "")
        except (KeyError, AttributeError):
            pass
    return None


def _reference(obj, match: re.Match) -> str:
    short, name = match.group(1), match.group(2)
    shown = name.rsplit(".", 1)[-1] if short else name
    target = _target(obj, name)
    if target is None:
        return f"`{shown}`"
    return f'<autoref identifier="{html.escape(target)}" optional><code>{html.escape(shown)}</code></autoref>'


class SphinxRoles(griffe.Extension):
    """Rewrites the roles of every docstring of the package once it is loaded."""

    def on_package(self, *, pkg, **kwargs) -> None:
        for obj in _walk(pkg):
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = ROLE.sub(lambda m, obj=obj: _reference(obj, m), obj.docstring.value)


def _walk(obj):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)
