rule gather_scores:
    input:
        PLAN.score_files(),
    output:
        f"{study.results}/tables/scores.csv",
    log:
        f"logs/{study.name}/gather_scores.log",
    benchmark:
        f"{study.results}/benchmarks/gather_scores.tsv"
    conda:
        ENV
    resources:
        **asks("gather_scores"),
    script:
        "../scripts/gather_scores.py"


rule summarise_scores:
    input:
        scores=f"{study.results}/tables/scores.csv",
        code=code("tables/summary.py", "stats.py"),
    output:
        summary=f"{study.results}/tables/summary.csv",
        md=f"{study.results}/tables/summary.md",
        ranks=f"{study.results}/tables/average_ranks.csv",
        tests=f"{study.results}/tables/friedman_nemenyi.csv",
        pairs=f"{study.results}/tables/nemenyi_pairwise.csv",
    log:
        f"logs/{study.name}/summarise_scores.log",
    benchmark:
        f"{study.results}/benchmarks/summarise_scores.tsv"
    conda:
        ENV
    resources:
        **asks("summarise_scores"),
    params:
        groups=study.groups,
        alpha=study.alpha,
    script:
        "../scripts/summarise_scores.py"


rule paper_tables:
    input:
        unpack(paper_table_inputs),
    output:
        **({"fold_quality_papers": f"{study.results}/tables/fold_quality_papers.md"} if study.reproduces else {}),
        document=f"{study.results}/tables/paper/tables.tex",
        markdown=f"{study.results}/tables/paper_tables.md",
        tables=PLAN.paper_table_files(),
        html=[
            report(
                f"{study.results}/tables/paper/{name}.html",
                caption="../report/paper_table.rst",
                category="Tables",
                labels={"table": name},
            )
            for name in PAPER_TABLES
        ],
    log:
        f"logs/{study.name}/paper_tables.log",
    benchmark:
        f"{study.results}/benchmarks/paper_tables.tsv"
    conda:
        ENV
    resources:
        **asks("paper_tables"),
    params:
        names=PAPER_TABLES,
        paper=study.reproduces,
        study=study.name,
        stratifiers=list(study.stratifiers),
    script:
        "../scripts/paper_tables.py"
