rule make_folds:
    input:
        data=lambda w: dataset_file(w.dataset),
        code=code("stratifiers"),
    output:
        f"{RESULTS}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
    params:
        spec=lambda w: STRATIFIERS[w.stratifier],
        n_splits=N_SPLITS,
        seed=lambda w: split_seed(SEED, w.dataset, int(w.repeat)),
    benchmark:
        f"{RESULTS}/benchmarks/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    conda:
        ENV
    log:
        f"logs/{STUDY}/make_folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    script:
        "../scripts/make_folds.py"
