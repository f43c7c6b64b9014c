rule fetch_mulan_file:
    output:
        "resources/mulan/raw/{mulan}/{filename}",
    params:
        mirror=DATA.get("mirror"),
        timeout=DATA.get("timeout", 60),
        retries=DATA.get("retries", 3),
    benchmark:
        "resources/benchmarks/fetch_mulan_file/{mulan}/{filename}.tsv"
    group: "data"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("fetch_mulan_file", "mem_mb"),
        runtime=asked("fetch_mulan_file", "runtime"),
    conda:
        ENV
    log:
        "logs/fetch_mulan_file/{mulan}/{filename}.log",
    script:
        "../scripts/fetch_mulan_file.py"


rule parse_mulan:
    input:
        files=lambda w: [f"resources/mulan/raw/{w.mulan}/{f.name}" for f in registry.entry(w.mulan).files],
        code=code("datasets/arff.py", "datasets/core.py", "datasets/mulan.py"),
    output:
        "resources/mulan/{mulan}.npz",
    benchmark:
        "resources/benchmarks/parse_mulan/{mulan}.tsv"
    group: "data"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("parse_mulan", "mem_mb"),
        runtime=asked("parse_mulan", "runtime"),
    conda:
        ENV
    log:
        "logs/parse_mulan/{mulan}.log",
    script:
        "../scripts/parse_mulan.py"


rule generate_dataset:
    wildcard_constraints:
        dataset=_alternatives(GENERATED_USED),
    input:
        code=code("datasets/synthetic.py", "datasets/random_labels.py", "datasets/core.py"),
    output:
        f"{RESULTS}/datasets/{{dataset}}.npz",
    params:
        kind=lambda w: next(k for k in GENERATED if k in DATASETS[w.dataset]),
        spec=lambda w: next(DATASETS[w.dataset][k] for k in GENERATED if k in DATASETS[w.dataset]),
    benchmark:
        f"{RESULTS}/benchmarks/generate_dataset/{{dataset}}.tsv"
    group: "data"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("generate_dataset", "mem_mb"),
        runtime=asked("generate_dataset", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/generate_dataset/{{dataset}}.log",
    script:
        "../scripts/generate_dataset.py"


rule import_dataset:
    input:
        files=lambda w: local_files(study.local_spec(config, w.dataset)),
        code=code("datasets/local.py", "datasets/arff.py", "datasets/core.py"),
    output:
        f"{RESULTS}/datasets/{{dataset}}.npz",
    wildcard_constraints:
        dataset=_alternatives(LOCAL_USED),
    params:
        spec=lambda w: study.local_spec(config, w.dataset),
    benchmark:
        f"{RESULTS}/benchmarks/import_dataset/{{dataset}}.tsv"
    group: "data"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("import_dataset", "mem_mb"),
        runtime=asked("import_dataset", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/import_dataset/{{dataset}}.log",
    script:
        "../scripts/import_dataset.py"


rule dataset_statistics:
    input:
        data=[dataset_file(d) for d in DATASETS],
        code=code("datasets/statistics.py"),
    output:
        csv=f"{RESULTS}/tables/dataset_statistics.csv",
        md=f"{RESULTS}/tables/dataset_statistics.md",
    params:
        names=list(DATASETS),
    benchmark:
        f"{RESULTS}/benchmarks/dataset_statistics.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("dataset_statistics", "mem_mb"),
        runtime=asked("dataset_statistics", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/dataset_statistics.log",
    script:
        "../scripts/dataset_statistics.py"
