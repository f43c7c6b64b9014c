rule fetch_mulan_file:
    output:
        "resources/mulan/raw/{mulan}/{filename}",
    params:
        mirror=DATA.get("mirror"),
        timeout=DATA.get("timeout", 60),
        retries=DATA.get("retries", 3),
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
    conda:
        ENV
    log:
        "logs/parse_mulan/{mulan}.log",
    script:
        "../scripts/parse_mulan.py"


rule generate_dataset:
    input:
        code=code("datasets/synthetic.py", "datasets/random_labels.py", "datasets/core.py"),
    output:
        f"{RESULTS}/datasets/{{dataset}}.npz",
    params:
        kind=lambda w: next(k for k in GENERATED if k in DATASETS[w.dataset]),
        spec=lambda w: next(DATASETS[w.dataset][k] for k in GENERATED if k in DATASETS[w.dataset]),
    conda:
        ENV
    log:
        f"logs/{STUDY}/generate_dataset/{{dataset}}.log",
    script:
        "../scripts/generate_dataset.py"


rule dataset_statistics:
    input:
        data=[dataset_file(d) for d in DATASETS],
        code=code("datasets/statistics.py"),
    output:
        csv=f"{RESULTS}/tables/dataset_statistics.csv",
        md=f"{RESULTS}/tables/dataset_statistics.md",
    params:
        names=list(DATASETS),
    conda:
        ENV
    log:
        f"logs/{STUDY}/dataset_statistics.log",
    script:
        "../scripts/dataset_statistics.py"
