rule evaluate_repeats:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        folds=expand(
            f"{study.results}/folds/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.npz", r=study.classifier_repeats
        ),
        code=lambda w: method_sources("classifier", w.classifier)
        + code("measures/classification.py", "classifiers/evaluation.py"),
    output:
        # every repeat of one (dataset, stratifier, classifier) in one job: a small dataset's forests take
        # seconds a repeat, a job's start-up about two (stratbench.study.plans.EVALUATE_PER_REPEAT_S)
        expand(
            f"{study.results}/scores/{{{{dataset}}}}/{{{{stratifier}}}}/{{{{classifier}}}}/rep{{r}}.csv",
            r=study.classifier_repeats,
        ),
    log:
        f"logs/{study.name}/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(EVALUATE_TOGETHER),
    conda:
        ENV
    threads: study.threads
    resources:
        **asks("evaluate_repeats"),
    params:
        spec=lambda w: study.classifiers[w.classifier],
        forest=study.forest,
        base_seed=study.seed,
        repeats=study.classifier_repeats,
    script:
        "../scripts/evaluate.py"


rule evaluate:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        folds=[f"{study.results}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz"],
        code=lambda w: method_sources("classifier", w.classifier)
        + code("measures/classification.py", "classifiers/evaluation.py"),
    output:
        # a dataset whose forests take half a minute a repeat or more: one repeat a job, side by side
        f"{study.results}/scores/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.csv",
    log:
        f"logs/{study.name}/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.log",
    benchmark:
        f"{study.results}/benchmarks/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(EVALUATE_PER_REPEAT),
    conda:
        ENV
    threads: study.threads
    resources:
        **asks("evaluate"),
    params:
        spec=lambda w: study.classifiers[w.classifier],
        forest=study.forest,
        base_seed=study.seed,
        repeats=lambda w: [int(w.repeat)],
    script:
        "../scripts/evaluate.py"
