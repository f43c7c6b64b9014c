rule make_folds:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier),
    output:
        folds=f"{study.results}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        runtime=f"{study.results}/runtime/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
    log:
        f"logs/{study.name}/make_folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    benchmark:
        f"{study.results}/benchmarks/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    conda:
        ENV
    resources:
        **asks("make_folds"),
    params:
        spec=lambda w: study.stratifiers[w.stratifier],
        n_splits=study.n_splits,
        seed=lambda w: study.split_seed(w.dataset, int(w.repeat)),
    script:
        "../scripts/make_folds.py"


rule gather_runtime:
    input:
        expand(
            f"{study.results}/runtime/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
            dataset=study.datasets,
            stratifier=study.stratifiers,
            repeat=study.repeats,
        ),
    output:
        csv=f"{study.results}/tables/stratifier_runtime.csv",
        md=f"{study.results}/tables/stratifier_runtime.md",
    log:
        f"logs/{study.name}/gather_runtime.log",
    benchmark:
        f"{study.results}/benchmarks/gather_runtime.tsv"
    conda:
        ENV
    resources:
        **asks("gather_runtime"),
    script:
        "../scripts/gather_runtime.py"
