rule fold_quality:
    input:
        data=lambda w: dataset_file(w.dataset),
        folds=f"{RESULTS}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        code=code("fold_quality.py", "stratifiers/_combinations.py"),
    output:
        f"{RESULTS}/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
    benchmark:
        f"{RESULTS}/benchmarks/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    group: "folds"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("fold_quality", "mem_mb"),
        runtime=asked("fold_quality", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    script:
        "../scripts/fold_quality.py"


rule gather_fold_quality:
    input:
        expand(f"{RESULTS}/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
               dataset=DATASETS, stratifier=STRATIFIERS, repeat=REPEATS),
    output:
        csv=f"{RESULTS}/tables/fold_quality.csv",
        summary=f"{RESULTS}/tables/fold_quality_summary.csv",
        md=f"{RESULTS}/tables/fold_quality_summary.md",
    benchmark:
        f"{RESULTS}/benchmarks/gather_fold_quality.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("gather_fold_quality", "mem_mb"),
        runtime=asked("gather_fold_quality", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/gather_fold_quality.log",
    script:
        "../scripts/gather_fold_quality.py"


rule compare_fold_quality:
    input:
        summary=f"{RESULTS}/tables/fold_quality_summary.csv",
        code=code("stats.py", "fold_quality.py"),
    output:
        ranks=f"{RESULTS}/tables/fold_quality_ranks.csv",
        tests=f"{RESULTS}/tables/fold_quality_friedman_nemenyi.csv",
        pairs=f"{RESULTS}/tables/fold_quality_nemenyi_pairwise.csv",
    params:
        groups=GROUPS,
        alpha=ALPHA,
    benchmark:
        f"{RESULTS}/benchmarks/compare_fold_quality.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("compare_fold_quality", "mem_mb"),
        runtime=asked("compare_fold_quality", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/compare_fold_quality.log",
    script:
        "../scripts/compare_fold_quality.py"
