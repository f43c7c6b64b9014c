"""Fetch one pinned MULAN file (mirror or upstream), sha256-checked, atomically."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from pathlib import Path

from stratbench.datasets import registry
from stratbench.datasets.fetch import fetch, resolve_mirror

remote = {f.name: f for f in registry.entry(snakemake.wildcards.mulan).files}.get(snakemake.wildcards.filename)
if remote is None:
    raise SystemExit(f"{snakemake.wildcards.filename} is not a file of {snakemake.wildcards.mulan}")
mirror = resolve_mirror(snakemake.params.mirror)
fetch(remote, Path(snakemake.output[0]), mirror, timeout=snakemake.params.timeout, retries=snakemake.params.retries)
print(f"fetched {remote.path} from {mirror or 'upstream'}", file=__import__("sys").stderr)
finish()
