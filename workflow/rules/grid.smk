# The fold-quality grid of a study with `grid:` (config/stratbench2026.yaml): one job per (dataset,
# stratifier) runs every k × seed split, then ranks across datasets, CD diagrams and the recommendation.


rule grid_quality:
    input:
        data=lambda w: dataset_file(w.dataset),
        code=lambda w: method_sources(stratifiers, w.stratifier, STRATIFIERS[w.stratifier])
        + code("grid.py", "fold_quality.py", "stratifiers/_combinations.py"),
    output:
        f"{RESULTS}/grid/{{dataset}}/{{stratifier}}.csv",
    params:
        spec=lambda w: STRATIFIERS[w.stratifier],
        ks=GRID_KS,
        seeds=lambda w: [split_seed(SEED, w.dataset, r) for r in REPEATS],
    benchmark:
        f"{RESULTS}/benchmarks/grid_quality/{{dataset}}/{{stratifier}}.tsv"
    threads: 1
    resources:
        mem_mb=asked("grid_quality", "mem_mb"),
        runtime=asked("grid_quality", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/grid_quality/{{dataset}}/{{stratifier}}.log",
    script:
        "../scripts/grid_quality.py"


rule grid_tables:
    input:
        grid=expand(f"{RESULTS}/grid/{{dataset}}/{{stratifier}}.csv", dataset=DATASETS, stratifier=STRATIFIERS),
        code=code("grid.py", "stats.py"),
    output:
        rows=f"{RESULTS}/tables/grid_quality.csv",
        summary=f"{RESULTS}/tables/grid_summary.csv",
        ranks=f"{RESULTS}/tables/grid_ranks.csv",
        tests=f"{RESULTS}/tables/grid_friedman_nemenyi.csv",
        pairs=f"{RESULTS}/tables/grid_nemenyi_pairwise.csv",
        md=report(f"{RESULTS}/tables/grid_ranks.md", caption="../report/grid_ranks.rst", category="Grid"),
    params:
        groups=GROUPS,
        alpha=ALPHA,
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("grid_tables", "mem_mb"),
        runtime=asked("grid_tables", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/grid_tables.log",
    script:
        "../scripts/grid_tables.py"


rule plot_grid_cd:
    input:
        ranks=f"{RESULTS}/tables/grid_ranks.csv",
        tests=f"{RESULTS}/tables/grid_friedman_nemenyi.csv",
        code=code("figures.py", "grid.py"),
    output:
        png=report(f"{RESULTS}/figures/grid_critical_difference_k{{k}}.png", caption="../report/critical_difference.rst",
                   category="Grid", labels={"figure": "critical differences", "k": "{k}"}),
        pdf=f"{RESULTS}/figures/grid_critical_difference_k{{k}}.pdf",
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("plot_grid_cd", "mem_mb"),
        runtime=asked("plot_grid_cd", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/plot_grid_cd/k{{k}}.log",
    script:
        "../scripts/plot_grid_cd.py"


rule recommendation:
    input:
        summary=f"{RESULTS}/tables/grid_summary.csv",
        ranks=f"{RESULTS}/tables/grid_ranks.csv",
        tests=f"{RESULTS}/tables/grid_friedman_nemenyi.csv",
        pairs=f"{RESULTS}/tables/grid_nemenyi_pairwise.csv",
        statistics=f"{RESULTS}/tables/dataset_statistics.csv",
        code=code("grid.py"),
    output:
        report(f"{RESULTS}/report/recommendation.md", caption="../report/recommendation.rst", category="Grid"),
    params:
        study=STUDY,
        baselines=(config.get("grid") or {}).get("baselines", []),
        alpha=ALPHA,
        synthetic=GENERATED_USED,  # the 5% check is over real datasets only
    group: "aggregate"
    threads: 1
    resources:
        grouped=1,  # one at a time within a cluster submission (profiles/slurm)
        mem_mb=asked("recommendation", "mem_mb"),
        runtime=asked("recommendation", "runtime"),
    conda:
        ENV
    log:
        f"logs/{STUDY}/recommendation.log",
    script:
        "../scripts/recommendation.py"
