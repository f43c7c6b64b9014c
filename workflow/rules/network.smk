rule network_stability:
    input:
        data=lambda w: dataset_file(w.dataset),
        folds=f"{RESULTS}/folds/{{dataset}}/{{stratifier}}/rep{{repeat}}.npz",
        code=code("network.py"),
    output:
        f"{RESULTS}/network/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
    benchmark:
        f"{RESULTS}/benchmarks/network_stability/{{dataset}}/{{stratifier}}/rep{{repeat}}.tsv"
    group: "folds"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("network_stability", "mem_mb"),
        runtime=asked("network_stability", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/network_stability/{{dataset}}/{{stratifier}}/rep{{repeat}}.log",
    script:
        "../scripts/network_stability.py"


rule gather_network_stability:
    input:
        expand(f"{RESULTS}/network/{{dataset}}/{{stratifier}}/rep{{repeat}}.csv",
               dataset=DATASETS, stratifier=STRATIFIERS, repeat=REPEATS),
    output:
        csv=f"{RESULTS}/tables/network_stability.csv",
        summary=f"{RESULTS}/tables/network_stability_summary.csv",
        md=f"{RESULTS}/tables/network_stability_summary.md",
    benchmark:
        f"{RESULTS}/benchmarks/gather_network_stability.tsv"
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("gather_network_stability", "mem_mb"),
        runtime=asked("gather_network_stability", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/gather_network_stability.log",
    script:
        "../scripts/gather_network_stability.py"
