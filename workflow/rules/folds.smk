rule make_folds:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier)
        + code("measures/fold_quality.py", "labels", "datasets/core.py"),
    output:
        # every repeat of one (dataset, stratifier) in one job: a split and its measures take milliseconds
        # to seconds, a job's start-up a second
        folds=expand(f"{study.results}/folds/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.npz", r=study.repeats),
        runtime=expand(f"{study.results}/runtime/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.csv", r=study.repeats),
        quality=expand(f"{study.results}/fold_quality/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.csv", r=study.repeats),
    log:
        f"logs/{study.name}/make_folds/{{dataset}}/{{stratifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/folds/{{dataset}}/{{stratifier}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(SPLIT_TOGETHER),
    conda:
        ENV
    resources:
        **asks("make_folds"),
    params:
        spec=lambda w: study.stratifiers[w.stratifier],
        strata=lambda w: study.strata_spec(w.dataset),
        n_splits=study.n_splits,
        repeats=study.repeats,
        seeds=lambda w: [study.split_seed(w.dataset, r) for r in study.repeats],
    script:
        "../scripts/make_folds.py"


rule make_folds_per_repeat:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier)
        + code("measures/fold_quality.py", "labels", "datasets/core.py"),
    output:
        # a dataset of at least stratbench.study.plans.SPLIT_PER_REPEAT_CELLS cells: one repeat a job, side by side
        folds=f"{study.results}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        runtime=f"{study.results}/runtime/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
        quality=f"{study.results}/fold_quality/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
    log:
        f"logs/{study.name}/make_folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    benchmark:
        f"{study.results}/benchmarks/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(SPLIT_PER_REPEAT),
    conda:
        ENV
    resources:
        **asks("make_folds_per_repeat"),
    params:
        spec=lambda w: study.stratifiers[w.stratifier],
        strata=lambda w: study.strata_spec(w.dataset),
        n_splits=study.n_splits,
        repeats=lambda w: [int(w.repeat)],
        seeds=lambda w: [study.split_seed(w.dataset, int(w.repeat))],
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
