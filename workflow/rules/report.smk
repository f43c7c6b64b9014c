rule reproduction_report:
    input:
        unpack(reproduction_inputs),
    output:
        md=f"{study.results}/report/reproduction.md",
        csv=f"{study.results}/report/reproduction.csv",
        html=report(
            f"{study.results}/report/reproduction.html",
            caption="../report/reproduction.rst",
            category="Reproduction",
            labels={"report": "ours vs published", "paper": str(study.reproduces)},
        ),
    log:
        f"logs/{study.name}/reproduction_report.log",
    benchmark:
        f"{study.results}/benchmarks/reproduction_report.tsv"
    conda:
        ENV
    resources:
        **asks("reproduction_report"),
    params:
        paper=study.reproduces,
        study=study.name,
        n_splits=study.n_splits,
        stratifiers=study.stratifiers,
        groups=study.groups,
    script:
        "../scripts/reproduction_report.py"


rule plot_paper_claims:
    input:
        unpack(reproduction_inputs),
        figures=code("figures.py", "study/figures.py"),
    output:
        png=report(
            f"{study.results}/figures/paper_claims.png",
            caption="../report/paper_claims.rst",
            category="Reproduction",
            labels={"figure": "ranks behind the paper's claims", "paper": str(study.reproduces)},
        ),
        pdf=f"{study.results}/figures/paper_claims.pdf",
    log:
        f"logs/{study.name}/plot_paper_claims.log",
    benchmark:
        f"{study.results}/benchmarks/plot_paper_claims.tsv"
    conda:
        ENV
    resources:
        **asks("plot_paper_claims"),
    params:
        style=FIGURE_STYLE,
        drawn=[("paper_claims", "")],
        paper=study.reproduces,
    script:
        "../scripts/plot_figure.py"
