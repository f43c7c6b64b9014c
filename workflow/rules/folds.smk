rule make_folds:
    input:
        data=lambda w: dataset_file(w.dataset),
        code=lambda w: method_sources(stratifiers, w.stratifier, STRATIFIERS[w.stratifier]),
    output:
        folds=f"{RESULTS}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        runtime=f"{RESULTS}/runtime/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
    params:
        spec=lambda w: STRATIFIERS[w.stratifier],
        n_splits=N_SPLITS,
        seed=lambda w: split_seed(SEED, w.dataset, int(w.repeat)),
    benchmark:
        f"{RESULTS}/benchmarks/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    group: "folds"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("make_folds", "mem_mb"),
        runtime=asked("make_folds", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/make_folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    script:
        "../scripts/make_folds.py"


rule gather_runtime:
    input:
        expand(f"{RESULTS}/runtime/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
               dataset=DATASETS, stratifier=STRATIFIERS, repeat=REPEATS),
    output:
        csv=f"{RESULTS}/tables/stratifier_runtime.csv",
        md=f"{RESULTS}/tables/stratifier_runtime.md",
    benchmark:
        f"{RESULTS}/benchmarks/gather_runtime.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("gather_runtime", "mem_mb"),
        runtime=asked("gather_runtime", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/gather_runtime.log",
    script:
        "../scripts/gather_runtime.py"
