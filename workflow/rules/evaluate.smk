rule evaluate:
    input:
        data=lambda w: dataset_file(w.dataset),
        folds=f"{RESULTS}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        code=lambda w: method_sources(classifiers, w.classifier, CLASSIFIERS[w.classifier])
        + code("measures.py", "evaluation.py"),
    output:
        f"{RESULTS}/scores/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.csv",
    params:
        spec=lambda w: CLASSIFIERS[w.classifier],
        forest=FOREST,
        base_seed=SEED,
    benchmark:
        f"{RESULTS}/benchmarks/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.tsv"
    threads: THREADS
    resources:
        mem_mb=asked("evaluate", "mem_mb"),
        runtime=asked("evaluate", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/evaluate/{{dataset}}/{{stratifier}}/{{classifier}}/rep{{repeat}}.log",
    script:
        "../scripts/evaluate.py"
