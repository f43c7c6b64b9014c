rule network_stability:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        folds=expand(f"{study.results}/folds/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.npz", r=study.repeats),
        code=code("labels/network.py"),
    output:
        expand(f"{study.results}/network/{{{{dataset}}}}/{{{{stratifier}}}}/rep{{r}}.csv", r=study.repeats),
    log:
        f"logs/{study.name}/network_stability/{{dataset}}/{{stratifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/network_stability/{{dataset}}/{{stratifier}}.tsv"
    conda:
        ENV
    resources:
        **asks("network_stability"),
    params:
        repeats=study.repeats,
    script:
        "../scripts/network_stability.py"


rule gather_network_stability:
    input:
        expand(
            f"{study.results}/network/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
            dataset=PLAN.network_datasets(),
            stratifier=study.stratifiers,
            repeat=study.repeats,
        ),
    output:
        csv=f"{study.results}/tables/network_stability.csv",
        summary=f"{study.results}/tables/network_stability_summary.csv",
        md=f"{study.results}/tables/network_stability_summary.md",
    log:
        f"logs/{study.name}/gather_network_stability.log",
    benchmark:
        f"{study.results}/benchmarks/gather_network_stability.tsv"
    conda:
        ENV
    resources:
        **asks("gather_network_stability"),
    script:
        "../scripts/gather_network_stability.py"
