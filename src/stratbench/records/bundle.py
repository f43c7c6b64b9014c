"""A finished study as one archive to deposit (Zenodo, WorkflowHub): a Workflow Run RO-Crate of the Provenance
Run Crate profile (https://w3id.org/ro/wfrun/provenance/0.5), made with the ``rocrate`` library by
``stratbench bundle results/<study>``.

The crate holds the workflow (``workflow/``: the Snakefile, its rules and scripts), the config as run, every
output of the manifest (with its sha256), and the run: an ``OrganizeAction`` of Snakemake (its version, start
and end) whose ``result`` is the workflow's ``CreateAction`` (the config and the input data as its ``object``,
the outputs as its ``result``), and for every job a ``CreateAction`` of its rule's tool (its inputs, outputs
and resource usage from the job's log) under a ``ControlAction`` of the rule's ``HowToStep``. The software
versions of ``provenance.json`` are ``SoftwareApplication`` entities the workflow requires. MULAN's files are
referenced by their pinned URLs and sha256, not copied (they are the upstream's to distribute).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from stratbench import StratbenchError
from stratbench.records.provenance import MANIFEST, PROVENANCE, read_manifest, usage

PROFILES = {
    "process": "https://w3id.org/ro/wfrun/process/0.5",
    "workflow": "https://w3id.org/ro/wfrun/workflow/0.5",
    "provenance": "https://w3id.org/ro/wfrun/provenance/0.5",
    "workflow-ro-crate": "https://w3id.org/workflowhub/workflow-ro-crate/1.0",
}
LICENSE = "https://spdx.org/licenses/MIT"
TERMS = {"sha256": "http://schema.org/sha256",  # beyond the RO-Crate 1.1 context: a file's digest, a job's usage
         "resourceUsage": "https://w3id.org/ro/terms/workflow-run#resourceUsage"}
JOB = re.compile(r"^stratbench-job (\{.*\})$")


def jobs(logs: str | Path) -> list[dict]:
    """Every job of the study's logs: its ``stratbench-job`` record (rule, wildcards, inputs, outputs, start) with
    its ``stratbench-usage`` line's CPU, wall time and memory."""
    used = {row["log"]: row for row in usage(logs)}
    out = []
    for path in sorted(Path(logs).rglob("*.log")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            found = JOB.match(line)
            if found:
                out.append({**json.loads(found.group(1)), **{k: used[str(path)][k] for k in
                                                              ("cpu_s", "wall_s", "max_rss_mb") if str(path) in used}})
                break
    return out


def bundle(results: str | Path, out: str | Path | None = None, workdir: str | Path = ".",
           workflow: str | Path | None = None) -> Path:
    """Write the RO-Crate of the finished study in ``results`` (``results/<study>``) as a zip (default
    ``<study>.crate.zip`` beside the folder); ``workdir`` holds its ``logs/``, ``workflow`` the workflow folder
    (default: ``workdir/workflow``, else the checkout of an editable install)."""
    from rocrate.model.contextentity import ContextEntity
    from rocrate.rocrate import ROCrate

    results, workdir = Path(results), Path(workdir)
    record_path = results / PROVENANCE
    if not record_path.is_file() or not (results / MANIFEST).is_file():
        raise StratbenchError(f"{results}: no {PROVENANCE} or {MANIFEST}; a study writes them at the end of a "
                              "successful run (snakemake --cores N --configfile …)")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    study = record["study"]
    if workflow is None:  # the run's folder, else the checkout this package was installed from (editable)
        found = [w for w in (workdir / "workflow", Path(__file__).resolve().parents[3] / "workflow")
                 if (w / "Snakefile").is_file()]
        workflow = found[0] if found else workdir / "workflow"
    workflow = Path(workflow)
    if not (workflow / "Snakefile").is_file():
        raise StratbenchError(f"{workflow}/Snakefile: not found; give the workflow folder (--workflow)")
    crate = ROCrate(version="1.1")  # the RO-Crate version the Provenance Run Crate 0.5 profile builds on
    crate.metadata.extra_terms.update(TERMS)
    root = crate.root_dataset
    root["name"] = f"stratbench study {study}"
    root["description"] = (f"The results of the stratbench study '{study}' with the workflow, config and run that "
                           f"made them: {record['command']}")
    root["license"] = LICENSE
    crate.license = LICENSE
    root["conformsTo"] = [{"@id": uri} for uri in PROFILES.values()]
    for uri, name in zip(PROFILES.values(), ("Process Run Crate", "Workflow Run Crate", "Provenance Run Crate",
                                             "Workflow RO-Crate")):
        crate.add(ContextEntity(crate, uri, properties={"@type": "CreativeWork", "name": name, "version": uri[-3:]}))

    software = [crate.add(ContextEntity(crate, f"#software-{name}", properties={
        "@type": "SoftwareApplication", "name": name, "softwareVersion": str(version)}))
        for name, version in record["software"].items()]
    wf = crate.add_workflow(str(workflow / "Snakefile"), dest_path="workflow/Snakefile", main=True, lang="snakemake",
                            properties={"@type": ["File", "SoftwareSourceCode", "ComputationalWorkflow", "HowTo"],
                                        "name": "stratbench workflow",
                                        "softwareRequirements": [{"@id": s.id} for s in software]})
    for f in sorted(workflow.rglob("*")):  # the rules, scripts, schemas, profiles and captions
        if f.is_file() and f.suffix in (".smk", ".py", ".yaml", ".rst") and "__pycache__" not in f.parts:
            crate.add_file(str(f), dest_path=f"workflow/{f.relative_to(workflow).as_posix()}")
    config_path = workdir / ".snakemake" / f"{study}-config.json"  # the config as run, a file of the crate
    config_path.parent.mkdir(parents=True, exist_ok=True)
    config_path.write_text(json.dumps(record["config"], indent=1, sort_keys=True) + "\n", encoding="utf-8")
    config = crate.add_file(str(config_path), dest_path="config.json", properties={
        "name": "the config as run", "encodingFormat": "application/json", "description":
        f"its sha256 as canonical JSON (provenance.json): {record['config_sha256']}"})

    outputs = {}
    for path, digest in read_manifest(results).items():
        outputs[f"results/{study}/{path}"] = crate.add_file(  # as the jobs name it, from the working folder
            str(results / path), dest_path=f"results/{path}", properties={
                "sha256": digest, "contentSize": (results / path).stat().st_size})
    data = []
    for d in record["data"]:
        about = {"name": d["file"], "sha256": d["sha256"], "description": f"input data of dataset {d['dataset']}"}
        if d["file"].endswith("(generated)"):  # no file: the generator's definition, digested
            data.append(crate.add(ContextEntity(crate, f"#data-{d['dataset']}", properties={
                "@type": "CreativeWork", **about, "text": json.dumps(d.get("definition", {}), sort_keys=True)})))
        else:  # a MULAN file by its pinned URL (a web data entity, not copied), or a user's file by its name
            data.append(crate.add_file(_data_id(d), fetch_remote=False, properties=about))

    run_jobs = jobs(workdir / "logs" / study)
    rules = sorted({j["rule"] for j in run_jobs})
    tools, steps = {}, {}
    for position, rule in enumerate(rules):
        tools[rule] = crate.add(ContextEntity(crate, f"#tool-{rule}", properties={
            "@type": "SoftwareApplication", "name": f"rule {rule}"}))
        steps[rule] = crate.add(ContextEntity(crate, f"#step-{rule}", properties={
            "@type": "HowToStep", "name": rule, "position": str(position), "workExample": {"@id": f"#tool-{rule}"}}))
    wf["hasPart"] = [{"@id": t.id} for t in tools.values()]  # the tools it orchestrates; its sources are in the crate
    wf["step"] = [{"@id": s.id} for s in steps.values()]

    controls = []
    for i, job in enumerate(run_jobs):
        usage_values = [crate.add(ContextEntity(crate, f"#job-{i}-{key}", properties={
            "@type": "PropertyValue", "name": key, "propertyID": f"stratbench-usage {key}", "value": str(job[key]),
            "unitCode": {"cpu_s": "SEC", "wall_s": "SEC", "max_rss_mb": "4L"}[key]}))
            for key in ("cpu_s", "wall_s", "max_rss_mb") if key in job]
        name = " ".join(f"{k}={v}" for k, v in job["wildcards"].items())
        action = crate.add(ContextEntity(crate, f"#job-{i}", properties={
            "@type": "CreateAction", "name": f"{job['rule']} {name}".strip(), "instrument": {"@id": tools[job["rule"]].id},
            "object": [{"@id": outputs[f].id} for f in job["input"] if f in outputs],
            "result": [{"@id": outputs[f].id} for f in job["output"] if f in outputs],
            "startTime": job["started"], "resourceUsage": [{"@id": u.id} for u in usage_values]}))
        controls.append(crate.add(ContextEntity(crate, f"#control-{i}", properties={
            "@type": "ControlAction", "instrument": {"@id": steps[job["rule"]].id}, "object": {"@id": action.id}})))

    engine = next(s for s in software if s["name"] == "snakemake")
    run = crate.add(ContextEntity(crate, "#run", properties={
        "@type": "CreateAction", "name": f"the run of study {study}", "instrument": {"@id": wf.id},
        "object": [{"@id": config.id}] + [{"@id": d.id} for d in data],
        "result": [{"@id": f.id} for f in outputs.values()],
        "startTime": record["started"], "endTime": record["finished"]}))
    crate.add(ContextEntity(crate, "#orchestration", properties={
        "@type": "OrganizeAction", "name": f"Snakemake runs the stratbench workflow: {record['command']}",
        "instrument": {"@id": engine.id}, "result": {"@id": run.id},
        "object": [{"@id": c.id} for c in controls], "startTime": record["started"], "endTime": record["finished"]}))
    root["mentions"] = [{"@id": run.id}]
    out = Path(out) if out else results.parent / f"{study}.crate.zip"
    crate.write_zip(str(out))
    return out


def _data_id(d: dict) -> str:
    """A data file's id: the pinned upstream URL of a MULAN file, else the file's URI."""
    if not Path(d["file"]).is_absolute():
        from stratbench.datasets.registry import upstream_base_url

        return upstream_base_url() + d["file"]
    return Path(d["file"]).as_uri()
