"""What produced a study's results, kept beside them: ``results/<study>/provenance.json`` and a manifest of
every output with its sha256 (``results/<study>/manifest-sha256.txt``, BagIt's payload manifest and the format of
``sha256sum``: ``cd results/<study> && sha256sum -c manifest-sha256.txt`` checks it without stratbench), written at
the end of every successful run (the workflow's ``onsuccess``), and the check of a results folder against its
manifest (``stratbench verify``, which also names the files it does not list).

provenance.json holds the commit of stratbench's checkout and whether it had uncommitted changes; Python and
the version of every package that can change a number; the operating system, CPU model and cores; the config
as run (defaults filled in) and its sha256; the sha256 of every input data file; the command line; the run's
start and end; and the CPU hours per rule from the jobs' ``stratbench-usage`` lines (each job's own getrusage,
its worker processes included).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import platform
import re
import subprocess
from pathlib import Path

import numpy as np

from stratbench import StratbenchError, __version__
from stratbench.io import atomic_path, write_text
from stratbench.records.versions import version

PACKAGES = ("numpy", "scipy", "scikit-learn", "numba", "llvmlite", "pandas", "matplotlib", "networkx", "pyyaml",
            "jsonschema", "snakemake", "ortools", "iterative-stratification", "scikit-multilearn", "threadpoolctl")
PROVENANCE, MANIFEST = "provenance.json", "manifest-sha256.txt"
USAGE = re.compile(r"^stratbench-usage rule=(\S+) (.*?)threads=(\d+) wall_s=([\d.]+) cpu_s=([\d.]+) max_rss_mb=(\d+)"
                   r"(?: ended=(\S+))?")


def sha256_of(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def git_state(where: str | os.PathLike) -> dict:
    """``{"commit": …, "dirty": …}`` of the git checkout holding ``where`` (None and None outside one)."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=where, capture_output=True, text=True, timeout=30)

    try:
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return {"commit": None, "dirty": None}
        status = git("status", "--porcelain", "--untracked-files=no")
        return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip())}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


def machine() -> dict:
    """The operating system, CPU model, cores and memory of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        memory = None
    # the machine's cores, not the job's share of them: a report made in a 1-CPU SLURM job names the same machine
    return {"os": platform.platform(), "cpu": cpu, "cores": os.cpu_count(),
            "memory_gib": None if memory is None else round(memory, 1)}


def software() -> dict:
    """Python's version, every package of :data:`PACKAGES` (``not installed`` where absent) and how the kernels
    ran (compiled ahead of time, or numba's JIT and why: :mod:`stratbench._kernels._compile`)."""
    from stratbench._kernels import _compile

    kernels = "compiled ahead of time" if _compile.MODE == "aot" else f"numba JIT ({_compile.WHY_JIT})"
    return {"python": platform.python_version(), "stratbench": __version__,
            **{name: version(name) for name in PACKAGES}, "kernels": kernels}


def usage(logs: str | os.PathLike, targets=None) -> list[dict]:
    """Every job logged under ``logs``: its ``stratbench-job`` record (rule, wildcards, input, output, started) with
    its ``stratbench-usage`` line (threads, wall_s, cpu_s, max_rss_mb, ended), the jobs that ran to their end (a
    job's log is rewritten when it runs again, so each is the job that made its current outputs). With ``targets``
    (the study's files, :meth:`stratbench.study.plans.Plan.targets`), only the study's current jobs
    (:func:`current_jobs`): a log left by a job no longer in the study is not one of them."""
    rows = []
    for path in sorted(Path(logs).rglob("*.log")):
        job, used = {}, None
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("stratbench-job "):
                job = json.loads(line.removeprefix("stratbench-job "))
            elif found := USAGE.match(line):
                used = found.groups()
        if used:
            rule, keys, threads, wall, cpu, rss, ended = used
            rows.append({**job, "rule": rule, "wildcards": dict(kv.split("=", 1) for kv in keys.split()),
                         "log": str(path), "threads": int(threads), "wall_s": float(wall), "cpu_s": float(cpu),
                         "max_rss_mb": int(rss), **({"ended": ended} if ended else {})})
    return rows if targets is None else current_jobs(rows, targets)


def current_jobs(jobs: list[dict], targets) -> list[dict]:
    """The jobs of ``jobs`` that made ``targets`` or, in turn, their inputs: the study's job graph walked back from
    the files it makes, by each job's outputs and inputs (its ``stratbench-job`` record), in ``jobs``' order."""
    by_output = {f: i for i, job in enumerate(jobs) for f in job.get("output", ())}
    wanted, seen, kept = [str(f) for f in targets], set(), set()
    while wanted:
        f = wanted.pop()
        if f in seen:
            continue
        seen.add(f)
        if (i := by_output.get(f)) is not None and i not in kept:
            kept.add(i)
            wanted += jobs[i].get("input", ())
    return [job for i, job in enumerate(jobs) if i in kept]


def cpu_hours(jobs: list[dict]) -> dict:
    """CPU hours per rule and in total, from :func:`usage`'s rows."""
    per_rule: dict = {}
    for job in jobs:
        per_rule[job["rule"]] = per_rule.get(job["rule"], 0.0) + job["cpu_s"] / 3600
    return {**{rule: round(hours, 6) for rule, hours in sorted(per_rule.items())},
            "total": round(sum(per_rule.values()), 6)}


def config_sha256(config: dict) -> str:
    """The sha256 of the config as run, as canonical JSON (sorted keys)."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()


def data_files(study, workdir: str | os.PathLike = ".") -> list[dict]:
    """The input data files of the study's datasets with their sha256: a MULAN dataset's pinned files (checked
    where the workflow keeps them; where they match, their size and when the workflow got them), a user's own
    files, and a generated dataset's definition's digest."""
    from stratbench.datasets import registry
    from stratbench.datasets.local import file_list

    rows = []
    for name in study.datasets:
        mulan, local, generated = study.mulan_name(name), study.local_spec(name), study.generated_spec(name)
        if mulan:
            for remote in registry.entry(mulan).files:
                path = Path(workdir) / "resources" / "mulan" / "raw" / mulan / remote.name
                found = sha256_of(path) if path.is_file() else None
                got = dict(bytes=path.stat().st_size, fetched=dt.datetime.fromtimestamp(
                    path.stat().st_mtime, dt.UTC).isoformat(timespec="seconds")) if found == remote.sha256 else {}
                rows.append(dict(dataset=name, file=remote.path, sha256=remote.sha256,
                                 checked=found == remote.sha256 if found else None, **got))
        elif local:
            rows += [dict(dataset=name, file=str(f), sha256=sha256_of(f), checked=True) for f in file_list(local)]
        elif generated:
            definition = json.dumps({generated[0]: generated[1]}, sort_keys=True)
            rows.append(dict(dataset=name, file=f"{generated[0]} (generated)",
                             sha256=hashlib.sha256(definition.encode()).hexdigest(), checked=True,
                             definition=generated[1]))
    return rows


def provenance(study, config_files, command: str, started: str, finished: str, workdir=".", checkout=None,
               jobs=None) -> dict:
    """The record of a run (module doc); ``checkout``: a folder of the git checkout that ran it (the workflow's;
    default the package's own); ``jobs``: those whose CPU is counted (:func:`usage`; default: every job logged
    under ``logs/<study>``)."""
    import stratbench

    return {
        "study": study.name,
        "command": command,
        "started": started,
        "finished": finished,
        "config_files": [str(f) for f in config_files],
        "config_sha256": config_sha256(study.config),
        "config": study.config,
        "stratbench": {"version": __version__, **git_state(checkout or Path(stratbench.__file__).parent)},
        "software": software(),
        "machine": machine(),
        "data": data_files(study, workdir),
        "cpu_hours": cpu_hours(usage(Path(workdir) / "logs" / study.name) if jobs is None else jobs),
    }


def manifest_rows(folder: str | os.PathLike) -> list[tuple[str, int, str]]:
    """(path relative to ``folder``, bytes, sha256) of every file under it but the manifest, sorted by path."""
    folder = Path(folder)
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST)
    return [(p.relative_to(folder).as_posix(), p.stat().st_size, sha256_of(p)) for p in files]


def write_manifest(folder: str | os.PathLike) -> Path:
    """``manifest-sha256.txt`` in ``folder``: a line ``<sha256>  <path>`` per file under it (``sha256sum``'s format,
    BagIt's payload manifest), paths relative to ``folder``, sorted."""
    rows = manifest_rows(folder)
    awkward = [path for path, _, _ in rows if "\n" in path or "\\" in path]
    if awkward:  # sha256sum would escape them; no output of a study is so named
        raise StratbenchError(f"{folder}: {awkward[0]!r} has a newline or a backslash in its name; rename it")
    write_text(Path(folder) / MANIFEST, "".join(f"{digest}  {path}\n" for path, _, digest in rows))
    return Path(folder) / MANIFEST


def read_manifest(folder: str | os.PathLike) -> dict[str, str]:
    """The manifest of ``folder``: each listed path's sha256."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise StratbenchError(f"{path}: no manifest; a study writes it at the end of a successful run "
                              "(snakemake --cores N --configfile …)")
    listed = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        digest, _, name = line.partition("  ")
        if not (len(digest) == 64 and name and all(c in "0123456789abcdef" for c in digest)):
            raise StratbenchError(f"{path}, line {number}: not '<sha256>  <path>' (sha256sum's format): {line[:80]!r}; "
                                  "a study writes its manifest again at the end of its next successful run")
        listed[name] = digest
    return listed


CLAIM_COLUMNS = ["claim", "table", "classifier", "dataset", "stratifier", "measure", "command", "published",
                 "rule", "ours", "verdict", "cause", "cpu_hours", "machine"]


def claims(report, jobs: list[dict], command: str, machine_line: str):
    """Every published cell a reproduction report judges, as a reviewer checks it first: the claim (table and
    cell), the command that reproduces it, the published value, the rule it is judged by, ours, the verdict,
    the CPU hours of the jobs that made it (those of its dataset, stratifier and classifier) and the machine."""
    import pandas as pd

    from stratbench import papers

    cells = report[~report["measure"].isin(["", "runtime_s"])].fillna({"classifier": "", "dataset": "", "stratifier": "",
                                                                       "cause": ""})

    def hours(row) -> float:
        wanted = {k: row[k] for k in ("dataset", "stratifier", "classifier") if row[k]}
        return sum(j["cpu_s"] for j in jobs if j["wildcards"].get("dataset") == wanted.get("dataset") and all(
            j["wildcards"].get(k) in (None, v) for k, v in wanted.items())) / 3600

    out = pd.DataFrame({
        "claim": cells.apply(lambda r: " / ".join(str(r[k]) for k in ("table", "classifier", "dataset", "stratifier",
                                                                       "measure") if r[k]), axis=1),
        **{k: cells[k] for k in ("table", "classifier", "dataset", "stratifier", "measure")},
        "command": command, "published": cells["published"], "rule": cells["table"].map(papers.criterion),
        "ours": cells["ours"], "verdict": cells["verdict"], "cause": cells["cause"],
        "cpu_hours": cells.apply(hours, axis=1).round(6), "machine": machine_line})
    return out[CLAIM_COLUMNS]


def record_run(study, config_files, command: str, started: str, workdir=".", checkout=None,
               targets=None) -> tuple[Path, Path]:
    """At the end of a successful run: ``provenance.json``, for a study that reproduces a paper ``claims.tsv``
    (:func:`claims`), then the manifest (which lists them) in ``results/<study>/``; the CPU of the jobs of
    ``targets`` (the study's files: its current jobs, :func:`current_jobs`)."""
    results = Path(workdir) / study.results
    finished = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    jobs = usage(Path(workdir) / "logs" / study.name, targets)  # the logs read once, for both records
    record = provenance(study, config_files, command, started, finished, workdir, checkout, jobs)
    write_text(results / PROVENANCE, json.dumps(record, indent=1, default=str, ensure_ascii=False) + "\n")
    report = results / "report" / "reproduction.csv"
    if study.reproduces and report.is_file():
        import pandas as pd

        m = record["machine"]
        rerun = f"snakemake --cores N --configfile {' '.join(str(f) for f in config_files)} {study.results}/report/reproduction.csv"
        table = claims(pd.read_csv(report), jobs, rerun,
                       f"{m['cpu']}, {m['cores']} cores, {m['os']}")
        with atomic_path(results / "claims.tsv") as tmp:
            table.to_csv(tmp, sep="\t", index=False, lineterminator="\n")
    return results / PROVENANCE, write_manifest(results)


def verify(folder: str | os.PathLike) -> dict[str, list[str]]:
    """A results folder against its manifest: ``changed`` (another sha256), ``missing`` and ``unlisted`` (a file the
    manifest does not name) paths."""
    listed = read_manifest(folder)
    found = {name: digest for name, _, digest in manifest_rows(folder)}
    return {"changed": sorted(n for n in listed if n in found and found[n] != listed[n]),
            "missing": sorted(n for n in listed if n not in found),
            "unlisted": sorted(n for n in found if n not in listed)}


def export_splits(results: str | os.PathLike) -> list[Path]:
    """Every (dataset, stratifier)'s folds of a finished benchmark study as an OpenML split file,
    ``results/<study>/splits/{dataset}/{stratifier}.arff`` (every repeat; rows counted from 0 in the dataset's
    order), and the manifest written again so that it lists them with their sha256."""
    from stratbench.io import write_openml_splits

    results = Path(results)
    folds = results / "folds"
    if not folds.is_dir():
        raise StratbenchError(f"{results}: no folds/ folder: only a benchmark study (one with classifiers or fold "
                              "quality per repeat) keeps its folds as files")
    written = []
    for pair in sorted(p for p in folds.glob("*/*") if p.is_dir()):
        by_repeat = {}
        for f in sorted(pair.glob("rep*.npz"), key=lambda f: int(f.stem[3:])):
            with np.load(f) as z:
                by_repeat[int(f.stem[3:])] = z["fold"].astype(np.int64)
        out = results / "splits" / pair.parent.name / f"{pair.name}.arff"
        write_openml_splits(out, by_repeat)
        written.append(out)
    if (results / MANIFEST).is_file():
        write_manifest(results)
    return written


def environment_line(where=None) -> str:
    """This environment in one line (commit, versions, machine): what a report made here says it was made with.
    The same on every run of one checkout on one machine, so a report that shows it stays byte-identical."""
    import stratbench

    record = {"stratbench": {"version": __version__, **git_state(where or Path(stratbench.__file__).parent)},
              "software": software(), "machine": machine()}
    return _made_with(record)


def _made_with(record: dict) -> str:
    s, sw, m = record["stratbench"], record["software"], record["machine"]
    commit = (s.get("commit") or "unknown")[:7] + (" with uncommitted changes" if s.get("dirty") else "")
    packages = ", ".join(f"{name} {sw[name]}" for name in ("scikit-learn", "numpy", "snakemake") if name in sw)
    return f"stratbench {s['version']} at commit {commit}, Python {sw['python']}, {packages}; {m['cpu']}, {m['cores']} cores, {m['os']}"


def summary_line(record: dict) -> str:
    """What a reader needs of a run, in one line: versions, commit, machine, CPU-h.

    >>> summary_line({"stratbench": {"version": "0.1.0", "commit": "abcdef123456", "dirty": False},
    ...               "software": {"python": "3.11.7", "scikit-learn": "1.9.1", "numpy": "2.4.6", "snakemake": "9.27.1"},
    ...               "machine": {"cpu": "Some CPU", "cores": 2, "os": "Linux"}, "cpu_hours": {"total": 0.25},
    ...               "finished": "2026-11-27T18:00:00+00:00"})
    ... # doctest: +ELLIPSIS
    'stratbench 0.1.0 at commit abcdef1, Python 3.11.7, scikit-learn 1.9.1, numpy 2.4.6, snakemake 9.27.1; ...; 0.25 CPU-h; ...'
    """
    return f"{_made_with(record)}; {record['cpu_hours']['total']:.3g} CPU-h; finished {record['finished']}"
