# A grid study (kind: grid, config/stratbench2026.yaml): one job per (dataset, stratifier) runs every k × seed
# split, then ranks across datasets, CD diagrams and the recommendation.


rule grid_quality:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=lambda w: method_sources("stratifier", w.stratifier)
        + code("grid", "measures/fold_quality.py", "labels", "datasets/groups.py"),
    output:
        f"{study.results}/grid/{{dataset}}/{{stratifier}}.csv",
    log:
        f"logs/{study.name}/grid_quality/{{dataset}}/{{stratifier}}.log",
    benchmark:
        f"{study.results}/benchmarks/grid_quality/{{dataset}}/{{stratifier}}.tsv"
    conda:
        ENV
    resources:
        **asks("grid_quality"),
    params:
        spec=lambda w: study.stratifiers[w.stratifier],
        ks=study.grid_ks,
        seeds=lambda w: [study.split_seed(w.dataset, r) for r in study.repeats],
        groups=lambda w: study.datasets[w.dataset].get("groups"),  # made from the features; else its own, if any
        group_seed=lambda w: study.split_seed(w.dataset, 0),
    script:
        "../scripts/grid_quality.py"


rule grid_tables:
    input:
        grid=expand(
            f"{study.results}/grid/{{dataset}}/{{stratifier}}.csv",
            dataset=study.datasets,
            stratifier=study.stratifiers,
        ),
        code=code("grid", "stats.py"),
    output:
        rows=f"{study.results}/tables/grid_quality.csv",
        summary=f"{study.results}/tables/grid_summary.csv",
        ranks=f"{study.results}/tables/grid_ranks.csv",
        tests=f"{study.results}/tables/grid_friedman_nemenyi.csv",
        pairs=f"{study.results}/tables/grid_nemenyi_pairwise.csv",
        md=report(f"{study.results}/tables/grid_ranks.md", caption="../report/grid_ranks.rst", category="Grid"),
    log:
        f"logs/{study.name}/grid_tables.log",
    conda:
        ENV
    resources:
        **asks("grid_tables"),
    params:
        groups=study.groups,
        alpha=study.alpha,
    script:
        "../scripts/grid_tables.py"


rule plot_grid_cd:
    input:
        ranks=f"{study.results}/tables/grid_ranks.csv",
        tests=f"{study.results}/tables/grid_friedman_nemenyi.csv",
        code=code("figures.py", "study/figures.py"),
    output:
        png=report(
            f"{study.results}/figures/grid_critical_difference_k{{k}}.png",
            caption="../report/critical_difference.rst",
            category="Grid",
            labels={"figure": "critical differences", "k": "{k}"},
        ),
        pdf=f"{study.results}/figures/grid_critical_difference_k{{k}}.pdf",
    log:
        f"logs/{study.name}/plot_grid_cd/k{{k}}.log",
    conda:
        ENV
    resources:
        **asks("plot_grid_cd"),
    params:
        style=FIGURE_STYLE,
        drawn=lambda w: [("grid_critical_difference", w.k)],
    script:
        "../scripts/plot_figure.py"


rule recommendation:
    input:
        **({"gaps": f"{study.results}/tables/grid_gap.csv"} if study.optimum else {}),
        summary=f"{study.results}/tables/grid_summary.csv",
        ranks=f"{study.results}/tables/grid_ranks.csv",
        tests=f"{study.results}/tables/grid_friedman_nemenyi.csv",
        pairs=f"{study.results}/tables/grid_nemenyi_pairwise.csv",
        statistics=f"{study.results}/tables/dataset_statistics.csv",
        code=code("grid"),
    output:
        report(f"{study.results}/report/recommendation.md", caption="../report/recommendation.rst", category="Grid"),
    log:
        f"logs/{study.name}/recommendation.log",
    conda:
        ENV
    resources:
        **asks("recommendation"),
    params:
        study=study.name,
        baselines=study.grid.get("baselines", []),
        alpha=study.alpha,
        synthetic=GENERATED_USED,  # the 5% check is over real datasets only
        grouped=[d for d in study.datasets if study.grouped(d)],
    script:
        "../scripts/recommendation.py"


rule grid_optimum:
    input:
        data=lambda w: study.dataset_file(w.dataset),
        code=code("grid/optimum.py", "measures/fold_quality.py", "labels")
        + (method_sources("stratifier", OPTIMUM_HINT) if OPTIMUM_HINT else []),
    output:
        f"{study.results}/optimum/{{dataset}}.csv",
    log:
        f"logs/{study.name}/grid_optimum/{{dataset}}.log",
    benchmark:
        f"{study.results}/benchmarks/grid_optimum/{{dataset}}.tsv"
    conda:
        ENV
    threads: study.optimum.get("workers", 1)  # the schema's default filled in where grid.optimum is given
    resources:
        **asks("grid_optimum"),
    params:
        ks=study.grid_ks,
        settings=study.optimum,
        hint=OPTIMUM_HINT,
        spec=study.stratifiers.get(OPTIMUM_HINT),
        seed=lambda w: study.split_seed(w.dataset, 0),
    script:
        "../scripts/grid_optimum.py"


rule grid_gap:
    input:
        rows=f"{study.results}/tables/grid_quality.csv",
        optimum=expand(f"{study.results}/optimum/{{dataset}}.csv", dataset=study.optimum.get("datasets", [])),
        code=code("grid/optimum.py", "figures.py", "study/figures.py"),
    output:
        csv=f"{study.results}/tables/grid_gap.csv",
        md=report(f"{study.results}/tables/grid_gap.md", caption="../report/grid_gap.rst", category="Grid"),
        png=report(f"{study.results}/figures/grid_gap.png", caption="../report/grid_gap.rst", category="Grid"),
        pdf=f"{study.results}/figures/grid_gap.pdf",
    log:
        f"logs/{study.name}/grid_gap.log",
    conda:
        ENV
    resources:
        **asks("grid_gap"),
    params:
        style=FIGURE_STYLE,
    script:
        "../scripts/grid_gap.py"
