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
        stratifiers=list(study.stratifiers),
        groups=study.groups,
    script:
        "../scripts/reproduction_report.py"
