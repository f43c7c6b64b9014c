"""A finished study as one archive to deposit (Zenodo, WorkflowHub): a Workflow Run RO-Crate of the Provenance
Run Crate profile (https://w3id.org/ro/wfrun/provenance/0.5), made with the ``rocrate`` library by
``stratbench bundle results/<study>``.

The crate holds the workflow (``workflow/``: the Snakefile, its rules and scripts), the config as run, every
output of the manifest (with its sha256), and the run: an ``OrganizeAction`` of Snakemake (its version, start
and end) whose ``result`` is the workflow's ``CreateAction`` (the config and the input data as its ``object``,
the outputs as its ``result``), and for every job a ``CreateAction`` of its rule's tool (its inputs, outputs
and resource usage from the job's log) under a ``ControlAction`` of the rule's ``HowToStep``. The software
versions of ``provenance.json`` are ``SoftwareApplication`` entities the workflow requires. MULAN's files are
referenced by their pinned URLs and sha256, not copied (they are the upstream's to distribute). The jobs are the
study's current ones (:func:`stratbench.records.provenance.current_jobs`): a log a job no longer in the study left
behind is not one of them.

Who deposits it (:class:`Deposit`: the author, by ORCID where given, who is each action's agent, and the publishing
organization) is the depositor's to say; without them the crate misses the profiles' RECOMMENDED ``author``,
``agent`` and ``publisher``, which :func:`validate` (``stratbench bundle --validate``) names.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from stratbench import StratbenchError
from stratbench.records.provenance import MANIFEST, PROVENANCE, read_manifest, usage

PROFILES = {
    "process": "https://w3id.org/ro/wfrun/process/0.5",
    "workflow": "https://w3id.org/ro/wfrun/workflow/0.5",
    "provenance": "https://w3id.org/ro/wfrun/provenance/0.5",
    "workflow-ro-crate": "https://w3id.org/workflowhub/workflow-ro-crate/1.0",
}
TERMS = {"sha256": "http://schema.org/sha256",  # beyond the RO-Crate 1.1 context: a file's digest, a job's usage
         "resourceUsage": "https://w3id.org/ro/terms/workflow-run#resourceUsage"}
# a file's media type by its suffix (IANA's where it has one); a Snakemake file is Python with rules
FORMATS = {".csv": "text/csv", ".tsv": "text/tab-separated-values", ".md": "text/markdown", ".html": "text/html",
           ".tex": "application/x-tex", ".json": "application/json", ".yaml": "application/yaml",
           ".yml": "application/yaml", ".png": "image/png", ".pdf": "application/pdf", ".svg": "image/svg+xml",
           ".npz": "application/zip", ".arff": "text/plain", ".txt": "text/plain", ".log": "text/plain",
           ".py": "text/x-python", ".smk": "text/x-python", "": "text/x-python", ".rst": "text/x-rst"}
SOFTWARE_URL = {"python": "https://www.python.org/"}  # else the package's page on PyPI


@dataclass(frozen=True)
class Deposit:
    """Who deposits a crate: ``author`` (a person's name) is the crate's author and the agent of every action,
    identified by ``orcid`` (``https://orcid.org/…``) where given, and a member of ``affiliation`` (default: the
    publisher); ``publisher`` the organization that publishes it, at ``publisher_url`` (its web site or ROR id);
    ``license`` the results' licence (an SPDX identifier)."""

    author: str | None = None
    orcid: str | None = None
    affiliation: str | None = None
    publisher: str | None = None
    publisher_url: str | None = None
    license: str = "MIT"


def encoding_format(path: str | Path) -> str:
    """The media type of a file by its suffix (:data:`FORMATS`; ``application/octet-stream`` for another)."""
    return FORMATS.get(Path(path).suffix.lower(), "application/octet-stream")


def one(ids: list[dict]) -> dict | list[dict]:
    """A property's references: a single one as a value, not a one-item list (RO-Crate 1.1's JSON-LD form)."""
    return ids[0] if len(ids) == 1 else ids


def rules_by_file(workflow: Path) -> dict[str, str]:
    """Each rule the workflow folder declares by name (``rule NAME:``), and the file (relative to the folder) that
    does; a rule made in a loop (``rule:`` with ``name:``) is not among them."""
    return {name: f.relative_to(workflow).as_posix()
            for f in sorted([workflow / "Snakefile", *workflow.rglob("*.smk")])
            for name in re.findall(r"^\s*rule (\w+):", f.read_text(encoding="utf-8"), re.M)}


def bundle(results: str | Path, out: str | Path | None = None, workdir: str | Path = ".",
           workflow: str | Path | None = None, targets=None, deposit: Deposit | None = None) -> Path:
    """Write the RO-Crate of the finished study in ``results`` (``results/<study>``) as a zip (default
    ``<study>.crate.zip`` beside the folder); ``workdir`` holds its ``logs/``, ``workflow`` the workflow folder
    (default: ``workdir/workflow``, else the checkout of an editable install); ``targets`` the study's files, whose
    jobs are the run's (default: every job logged); ``deposit`` who deposits it."""
    from rocrate.rocrate import ROCrate

    results, workdir, deposit = Path(results), Path(workdir), deposit or Deposit()
    record_path = results / PROVENANCE
    if not record_path.is_file() or not (results / MANIFEST).is_file():
        raise StratbenchError(f"{results}: no {PROVENANCE} or {MANIFEST}; a study writes them at the end of a "
                              "successful run (snakemake --cores N --configfile …)")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    workflow = _workflow_folder(workflow, workdir)
    crate = ROCrate(version="1.1")  # the RO-Crate version the Provenance Run Crate 0.5 profile builds on
    crate.metadata.extra_terms.update(TERMS)
    with tempfile.TemporaryDirectory() as made:  # the crate's own files: the config as run, its README
        people = _about(crate, record, deposit, Path(made))
        wf, config = _workflow(crate, record, workflow, Path(made))
        outputs = {f"results/{record['study']}/{path}": crate.add_file(  # as the jobs name them
            str(results / path), dest_path=f"results/{path}", properties={
                "sha256": digest, "contentSize": (results / path).stat().st_size, "encodingFormat": encoding_format(path)})
            for path, digest in read_manifest(results).items()}
        actions = _run(crate, record, wf, config, outputs, usage(workdir / "logs" / record["study"], targets),
                       rules_by_file(workflow), people)
        crate.root_dataset["mentions"] = one([{"@id": a.id} for a in actions])
        out = Path(out) if out else results.parent / f"{record['study']}.crate.zip"
        crate.write_zip(str(out))
    return out


def _workflow_folder(workflow, workdir: Path) -> Path:
    if workflow is None:  # the run's folder, else the checkout this package was installed from (editable)
        found = [w for w in (workdir / "workflow", Path(__file__).resolve().parents[3] / "workflow")
                 if (w / "Snakefile").is_file()]
        workflow = found[0] if found else workdir / "workflow"
    if not (Path(workflow) / "Snakefile").is_file():
        raise StratbenchError(f"{workflow}/Snakefile: not found; give the workflow folder (--workflow)")
    return Path(workflow)


def _about(crate, record: dict, deposit: Deposit, made: Path) -> dict:
    """The root's name, description, profiles, licence, author and publisher, and the crate's README.md; the
    entities of the author (``agent``) and publisher, where given."""
    from rocrate.model.contextentity import ContextEntity

    root, study = crate.root_dataset, record["study"]
    root["name"] = f"stratbench study {study}"
    root["description"] = (f"The results of the stratbench study '{study}' with the workflow, config and run that "
                           f"made them: {record['command']}")
    licence = crate.add(ContextEntity(crate, f"https://spdx.org/licenses/{deposit.license}", properties={
        "@type": "CreativeWork", "name": deposit.license, "identifier": deposit.license}))
    root["license"] = {"@id": licence.id}
    root["conformsTo"] = [{"@id": uri} for uri in PROFILES.values()]
    for uri, name in zip(PROFILES.values(), ("Process Run Crate", "Workflow Run Crate", "Provenance Run Crate",
                                             "Workflow RO-Crate")):
        crate.add(ContextEntity(crate, uri, properties={"@type": "CreativeWork", "name": name, "version": uri[-3:]}))
    people, organizations = {}, {}
    for key, name, url in (("publisher", deposit.publisher, deposit.publisher_url),
                           ("affiliation", deposit.affiliation, None)):
        if name and name not in organizations:
            organizations[name] = crate.add(ContextEntity(crate, f"#{key}", properties={
                "@type": "Organization", "name": name, **({"url": url} if url else {})}))
    if deposit.publisher:
        root["publisher"] = {"@id": organizations[deposit.publisher].id}
    if deposit.author:
        member = organizations.get(deposit.affiliation or deposit.publisher)
        people["agent"] = crate.add(ContextEntity(crate, deposit.orcid or "#author", properties={
            "@type": "Person", "name": deposit.author, **({"affiliation": {"@id": member.id}} if member else {})}))
        root["author"] = {"@id": people["agent"].id}
    readme = made / "README.md"
    readme.write_text(f"# stratbench study {study}\n\n{root['description']}\n\n- `workflow/`: the Snakefile, its rules and "
                      "scripts\n- `config.json`: the config as run\n- `results/`: every output, listed with its sha256 "
                      "in `results/manifest-sha256.txt` (`cd results && sha256sum -c manifest-sha256.txt`)\n"
                      "- `ro-crate-metadata.json`: the run, each job with its inputs, outputs and resource usage\n",
                      encoding="utf-8")
    crate.add_file(str(readme), dest_path="README.md", properties={
        "name": "README", "about": {"@id": "./"}, "encodingFormat": "text/markdown"})
    return people


def _workflow(crate, record: dict, workflow: Path, made: Path):
    """The main workflow (its version, the software it requires) with its files, and the config as run."""
    from rocrate.model.contextentity import ContextEntity

    version = record["stratbench"]["version"]
    software = [crate.add(ContextEntity(crate, SOFTWARE_URL.get(name, f"https://pypi.org/project/{name}/"), properties={
        "@type": "SoftwareApplication", "name": name, "softwareVersion": str(release),
        "url": SOFTWARE_URL.get(name, f"https://pypi.org/project/{name}/")}))
        for name, release in record["software"].items() if name not in ("stratbench", "kernels")]
    commit = record["stratbench"].get("commit")
    wf = crate.add_workflow(str(workflow / "Snakefile"), dest_path="workflow/Snakefile", main=True, lang="snakemake",
                            properties={"@type": ["File", "SoftwareSourceCode", "ComputationalWorkflow", "HowTo"],
                                        "name": "stratbench workflow", "version": version,
                                        "encodingFormat": encoding_format("Snakefile"),
                                        "description": f"stratbench {version}" + (f" at commit {commit}" if commit else "")
                                        + f"; kernels {record['software'].get('kernels', 'unknown')}",
                                        "softwareRequirements": [{"@id": s.id} for s in software]})
    for f in sorted(workflow.rglob("*")):  # the rules, scripts, schemas, profiles and captions
        if f.is_file() and f.suffix in (".smk", ".py", ".yaml", ".rst") and "__pycache__" not in f.parts:
            crate.add_file(str(f), dest_path=f"workflow/{f.relative_to(workflow).as_posix()}",
                           properties={"encodingFormat": encoding_format(f)})
    config_path = made / "config.json"
    config_path.write_text(json.dumps(record["config"], indent=1, sort_keys=True) + "\n", encoding="utf-8")
    config = crate.add_file(str(config_path), dest_path="config.json", properties={
        "name": "the config as run", "encodingFormat": "application/json", "description":
        f"its sha256 as canonical JSON (provenance.json): {record['config_sha256']}"})
    return wf, config


def _run(crate, record: dict, wf, config, outputs: dict, run_jobs: list[dict], files: dict, people: dict) -> list:
    """The run: Snakemake's ``OrganizeAction``, the workflow's ``CreateAction`` and, per job, its rule's tool's
    ``CreateAction`` under a ``ControlAction`` of the rule's step. Returns the actions the root mentions."""
    from rocrate.model.contextentity import ContextEntity

    agent = {"agent": {"@id": people["agent"].id}} if "agent" in people else {}
    version, study = record["stratbench"]["version"], record["study"]
    data = []
    for d in record["data"]:
        about = {"name": d["file"], "sha256": d["sha256"], "description": f"input data of dataset {d['dataset']}"}
        if d["file"].endswith("(generated)"):  # no file: the generator's definition, digested
            data.append(crate.add(ContextEntity(crate, f"#data-{d['dataset']}", properties={
                "@type": "CreativeWork", **about, "text": json.dumps(d.get("definition", {}), sort_keys=True)})))
        else:  # a MULAN file by its pinned URL (a web data entity, not copied), or a user's file by its name
            got = {k: d[field] for k, field in (("contentSize", "bytes"), ("sdDatePublished", "fetched")) if field in d}
            data.append(crate.add_file(_data_id(d), fetch_remote=False, properties={
                **about, **got, "encodingFormat": encoding_format(d["file"])}))
    rules = sorted({j["rule"] for j in run_jobs})
    tools, steps = {}, {}
    for position, rule in enumerate(rules):
        where = f"workflow/{files[rule]}" if rule in files else "workflow/Snakefile"
        declared = f"declared in {where}" if rule in files else "made by its Snakefile or a rule file it includes"
        tools[rule] = crate.add(ContextEntity(crate, f"#tool-{rule}", properties={
            "@type": "SoftwareApplication", "name": f"rule {rule}", "softwareVersion": version, "url": where,
            "description": f"the rule {rule} of the stratbench workflow, {declared}"}))
        steps[rule] = crate.add(ContextEntity(crate, f"#step-{rule}", properties={
            "@type": "HowToStep", "name": rule, "position": str(position), "workExample": {"@id": f"#tool-{rule}"}}))
    wf["hasPart"] = [{"@id": t.id} for t in tools.values()]  # the tools it orchestrates; its sources are in the crate
    wf["step"] = [{"@id": s.id} for s in steps.values()]

    actions, controls = [], []
    for i, job in enumerate(run_jobs):
        usage_values = [crate.add(ContextEntity(crate, f"#job-{i}-{key}", properties={
            "@type": "PropertyValue", "name": key, "propertyID": f"stratbench-usage {key}", "value": str(job[key]),
            "unitCode": {"cpu_s": "SEC", "wall_s": "SEC", "max_rss_mb": "4L"}[key]}))
            for key in ("cpu_s", "wall_s", "max_rss_mb") if key in job]
        name = f"{job['rule']} " + " ".join(f"{k}={v}" for k, v in job["wildcards"].items())
        times = {k: job[field] for k, field in (("startTime", "started"), ("endTime", "ended")) if field in job}
        times.setdefault("endTime", _modified(job["log"]))  # a log written before usage lines said their end
        actions.append(crate.add(ContextEntity(crate, f"#job-{i}", properties={
            "@type": "CreateAction", "name": name.strip(), "instrument": {"@id": tools[job["rule"]].id},
            "description": f"the job of rule {job['rule']} that made its current outputs (its log: {job['log']})",
            "object": one([{"@id": outputs[f].id} for f in job.get("input", ()) if f in outputs]),
            "result": one([{"@id": outputs[f].id} for f in job.get("output", ()) if f in outputs]),
            **times, **agent, "resourceUsage": [{"@id": u.id} for u in usage_values]})))
        controls.append(crate.add(ContextEntity(crate, f"#control-{i}", properties={
            "@type": "ControlAction", "instrument": {"@id": steps[job["rule"]].id}, "object": {"@id": actions[-1].id}})))

    engine = next(s for s in crate.get_entities() if s.get("name") == "snakemake" and s.type == "SoftwareApplication")
    span = {"startTime": record["started"], "endTime": record["finished"]}
    run = crate.add(ContextEntity(crate, "#run", properties={
        "@type": "CreateAction", "name": f"the run of study {study}", "instrument": {"@id": wf.id},
        "description": f"the workflow's run that made the study's outputs: {record['command']}",
        "object": [{"@id": config.id}] + [{"@id": d.id} for d in data],
        "result": [{"@id": f.id} for f in outputs.values()], **span, **agent}))
    orchestration = crate.add(ContextEntity(crate, "#orchestration", properties={
        "@type": "OrganizeAction", "name": f"Snakemake runs the stratbench workflow: {record['command']}",
        "description": "Snakemake, the workflow engine, runs each job of the study", "instrument": {"@id": engine.id},
        "result": {"@id": run.id}, "object": one([{"@id": c.id} for c in controls]), **span, **agent}))
    return [run, orchestration, *actions]


class Issue(NamedTuple):
    """One finding of roc-validator: its severity, check, the entity (or the value) at fault and its message."""

    severity: str
    check: str
    entity: str
    message: str


# what no crate with its workflow inside can pass: an entity of the crate has no web (http) id, so the workflow and
# its rules' tools miss the profile's absolute id, and the workflow its url and the Bioschemas profile (which asks
# for a published url); roc-validator's issue #51 (open) is the first of these
IN_CRATE = {"process-run-crate-0.5_5.1": "the id of software in the crate is not a web (http) URI",
            "process-run-crate-0.5_3.2": "the workflow in the crate has no published url",
            "workflow-ro-crate-1.0_8.1": "the Bioschemas profile asks for the workflow's published url"}


# what an offline check cannot see: whether a web data entity's URL answers
OFFLINE = "ro-crate-1.1_28.1"


def in_crate(issue: Issue) -> bool:
    """Whether ``issue`` is one of :data:`IN_CRATE`'s, about the workflow or a rule's tool in the crate."""
    return issue.check in IN_CRATE and ("#tool-" in issue.entity or issue.entity.endswith("workflow/Snakefile"))


def validate(crate: str | Path, python: str | None = None, severity: str = "RECOMMENDED") -> list[Issue]:
    """Check a crate against the Provenance Run Crate profile with roc-validator, offline (the RO-Crate 1.1 context
    shipped with stratbench): every issue at ``severity`` or above. ``python``: an interpreter with roc-validator
    (its own environment: roc-validator pins rich < 14), default this one."""
    import sys
    from importlib import resources

    checker = resources.files("stratbench") / "data" / "validate_crate.py"
    context = resources.files("stratbench") / "data" / "ro-crate-1.1-context.jsonld"
    done = subprocess.run([python or sys.executable, str(checker), str(crate), str(context), severity],
                          capture_output=True, text=True, timeout=1800)
    lines = done.stdout.strip().splitlines()
    if not lines or lines[-1] not in ("passed", "failed"):
        raise StratbenchError(f"roc-validator did not run in {python or sys.executable}: "
                              f"{(done.stderr or done.stdout).strip()[-500:]}; install it there "
                              "(pip install roc-validator) or name a python that has it (--validator)")
    issues = [Issue(*line.split("\t", 3)) for line in lines[:-1]]
    if (lines[-1] == "passed") != (not issues):
        raise StratbenchError(f"roc-validator said {lines[-1]} with {len(issues)} issues: {done.stdout[-500:]}")
    return issues


def _modified(path: str) -> str:
    """A file's last change, ISO 8601 in UTC to the second."""
    import datetime as dt

    return dt.datetime.fromtimestamp(Path(path).stat().st_mtime, dt.UTC).isoformat(timespec="seconds")


def _data_id(d: dict) -> str:
    """A data file's id: the pinned upstream URL of a MULAN file, else the file's URI."""
    if not Path(d["file"]).is_absolute():
        from stratbench.datasets.registry import upstream_base_url

        return upstream_base_url() + d["file"]
    return Path(d["file"]).as_uri()
