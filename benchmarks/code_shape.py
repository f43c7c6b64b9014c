"""The shape of the code, for a review's before/after (run by hand; figures go in issue notes).

    python benchmarks/code_shape.py [CHECKOUT]

Prints: the package's rooms (its direct sub-modules and sub-packages) and floors (the longest chain of
imports between rooms, cycles collapsed); cycles between rooms; deferred imports (a stratbench import
inside a function); the largest modules; the functions over 60 lines; lines in the workflow's rule files.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path


def room_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "stratbench" else None


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    package = root / "src" / "stratbench"
    edges, deferred, long_functions, sizes = defaultdict(set), [], [], {}
    for path in sorted(package.rglob("*.py")):
        module = ".".join(("stratbench", *path.relative_to(package).with_suffix("").parts)).removesuffix(".__init__")
        text = path.read_text()
        sizes[str(path.relative_to(root))] = text.count("\n")
        tree = ast.parse(text)
        here = room_of(module)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("stratbench"):
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("stratbench")]
            else:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = node.end_lineno - node.lineno + 1
                    if length > 60:
                        long_functions.append(f"{path.relative_to(root)}:{node.name} ({length})")
                continue
            rooms = {room_of(t) for t in targets} - {None, here}
            rooms = {r for r in rooms if (package / r).exists() or (package / f"{r}.py").exists()}
            if here:
                edges[here] |= rooms
            if node.col_offset > 0 and rooms:
                deferred.append(f"{path.relative_to(root)}:{node.lineno}")
    rooms = sorted({r for p in package.iterdir() if (r := p.stem) != "__init__" and not r.startswith(".")
                    and (p.suffix == ".py" or (p / "__init__.py").exists())})
    # strongly connected components (Tarjan), then the longest path of the condensed DAG
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            comps.append(comp)

    for r in rooms:
        if r not in index:
            visit(r)
    comp_of = {r: i for i, c in enumerate(comps) for r in c}
    depth = {}

    def floors(i):
        if i not in depth:
            below = {comp_of[w] for r in comps[i] for w in edges[r]} - {i}
            depth[i] = 1 + max((floors(j) for j in below), default=0)
        return depth[i]

    cycles = [sorted(c) for c in comps if len(c) > 1]
    rules = sorted((root / "workflow").rglob("*.smk")) + [p for p in (root / "Snakefile", root / "workflow" / "Snakefile")
                                                          if p.is_file()]
    print(f"rooms: {len(rooms)}; floors: {max(floors(i) for i in range(len(comps)))}; cycles between rooms: {cycles or 'none'}")
    print(f"deferred stratbench imports: {len(deferred)} ({', '.join(deferred)})")
    print("largest modules: " + ", ".join(f"{p} {n}" for p, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:4]))
    print(f"functions over 60 lines: {len(long_functions)} ({', '.join(long_functions)})")
    print(f"source lines: {sum(sizes.values())}; rule files: {sum(p.read_text().count(chr(10)) for p in rules)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
