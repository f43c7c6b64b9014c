rule evaluate:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        folds=f"{study.results}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        code=lambda w: method_sources("classifier", w.classifier) + code("measures/classification.py", "evaluation.py"),
    output:
        f"{study.results}/scores/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.csv",
    log:
        f"logs/{study.name}/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.log",
    benchmark:
        f"{study.results}/benchmarks/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.tsv"
    conda:
        ENV
    threads: study.threads
    resources:
        **asks("evaluate"),
    params:
        spec=lambda w: study.classifiers[w.classifier],
        forest=study.forest,
        base_seed=study.seed,
    script:
        "../scripts/evaluate.py"
