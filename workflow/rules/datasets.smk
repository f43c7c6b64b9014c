rule fetch_mulan_file:
    output:
        "resources/mulan/raw/{mulan}/{filename}",
    log:
        "logs/fetch_mulan_file/{mulan}/{filename}.log",
    benchmark:
        "resources/benchmarks/fetch_mulan_file/{mulan}/{filename}.tsv"
    conda:
        ENV
    resources:
        **asks("fetch_mulan_file"),
    params:
        mirror=study.data.get("mirror"),
        timeout=study.data.get("timeout", 60),
        retries=study.data.get("retries", 3),
    script:
        "../scripts/fetch_mulan_file.py"


rule parse_mulan:
    input:
        files=lambda w: [f"resources/mulan/raw/{w.mulan}/{f.name}" for f in registry.entry(w.mulan).files],
        code=code("datasets/arff.py", "datasets/core.py", "datasets/mulan.py"),
    output:
        "resources/mulan/{mulan}.npz",
    log:
        "logs/parse_mulan/{mulan}.log",
    benchmark:
        "resources/benchmarks/parse_mulan/{mulan}.tsv"
    conda:
        ENV
    resources:
        **asks("parse_mulan"),
    script:
        "../scripts/parse_mulan.py"


rule generate_dataset:
    input:
        code=code(
            "datasets/synthetic.py", "datasets/random_labels.py", "datasets/grouped_labels.py", "datasets/core.py"
        ),
    output:
        f"{study.results}/datasets/{{dataset}}.npz",
    log:
        f"logs/{study.name}/generate_dataset/{{dataset}}.log",
    benchmark:
        f"{study.results}/benchmarks/generate_dataset/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(GENERATED_USED),
    conda:
        ENV
    resources:
        **asks("generate_dataset"),
    params:
        kind=lambda w: study.generated_spec(w.dataset)[0],
        spec=lambda w: study.generated_spec(w.dataset)[1],
    script:
        "../scripts/generate_dataset.py"


rule import_dataset:
    input:
        files=lambda w: local_files(study.local_spec(w.dataset)),
        code=code("datasets/local.py", "datasets/arff.py", "datasets/core.py"),
    output:
        f"{study.results}/datasets/{{dataset}}.npz",
    log:
        f"logs/{study.name}/import_dataset/{{dataset}}.log",
    benchmark:
        f"{study.results}/benchmarks/import_dataset/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(LOCAL_USED),
    conda:
        ENV
    resources:
        **asks("import_dataset"),
    params:
        spec=lambda w: study.local_spec(w.dataset),
    script:
        "../scripts/import_dataset.py"


rule dataset_statistics:
    input:
        data=[study.dataset_file(d) for d in study.datasets],
        code=code("datasets/statistics.py"),
    output:
        csv=f"{study.results}/tables/dataset_statistics.csv",
        md=f"{study.results}/tables/dataset_statistics.md",
    log:
        f"logs/{study.name}/dataset_statistics.log",
    benchmark:
        f"{study.results}/benchmarks/dataset_statistics.tsv"
    conda:
        ENV
    resources:
        **asks("dataset_statistics"),
    params:
        names=list(study.datasets),
    script:
        "../scripts/dataset_statistics.py"
