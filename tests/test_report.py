"""`snakemake --report` on a finished study gives a self-contained HTML report whose figures and tables
render in headless Chromium (Debian's chromium and chromium-driver, driven by Selenium)."""
import os
import shutil
import time

import pytest
from conftest import run_snakemake, tiny_config

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def report(finished_study, mirror):
    path = finished_study / "report.html"
    result = run_snakemake(finished_study, tiny_config(mirror), "--report", str(path))
    assert result.returncode == 0, result.stderr[-3000:]
    return path


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI without chromium/chromedriver: .ci/run installs Debian's chromium and chromium-driver")
        pytest.skip("chromium or chromedriver not installed (Debian: chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def test_report_is_self_contained(report):
    html = report.read_text()
    assert report.stat().st_size > 100_000
    assert "data:image/png;" in html and "data:text/html;" in html
    assert "src=\"http" not in html  # no remote scripts or images: it opens offline


def _open(browser, category, subcategory):
    """Show the result list of a category (and subcategory, when the report lists them)."""
    from selenium.webdriver.common.by import By

    for name in ("Results", category):
        browser.find_element(By.XPATH, f"//nav//*[normalize-space(text())='{name}']").click()
        time.sleep(0.2)
    if subcategory and not _eyes(browser):
        browser.find_element(By.XPATH, f"//nav//*[normalize-space(text())='{subcategory}']").click()
        time.sleep(0.2)


def _eyes(browser):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.XPATH, "//nav//a[@iconname='eye']")


def _shown(browser, what):
    """The content shown for a result: the decoded image size, or (rows, bold cells) of its table."""
    from selenium.webdriver.common.by import By

    for _ in range(25):
        images = [i for i in browser.find_elements(By.TAG_NAME, "img")
                  if (i.get_attribute("src") or "").startswith("data:image/png")]
        frames = browser.find_elements(By.TAG_NAME, "iframe")
        if images:
            size = browser.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", images[0])
            return "image", size, images[0].get_attribute("src")
        if frames:
            src = frames[0].get_attribute("src")
            browser.switch_to.frame(frames[0])
            rows = browser.execute_script("return document.querySelectorAll('table tbody tr').length")
            browser.switch_to.default_content()
            return "table", rows, src
        time.sleep(0.2)
    raise AssertionError(f"{what}: nothing rendered")


def test_every_figure_and_table_renders(report, browser):
    """Click through every category, subcategory, toggle and result of the report and check what shows:
    a decoded PNG of a sensible size, or an HTML table with rows."""
    from selenium.webdriver.common.by import By

    browser.get(report.as_uri())
    time.sleep(1)
    categories = browser.execute_script("return categories")
    assert set(categories) == {"Tables", "Evaluation", "Ranks and tests", "Fold quality", "Reproduction"}
    results = browser.execute_script("return Object.keys(results)")
    assert any(r.endswith("critical_difference_br.png") for r in results)
    assert any(r.endswith("cv_estimates_br.html") for r in results)
    shown = set()
    for category, subcategories in categories.items():
        for subcategory in [s for s in subcategories if s != "Other"] or [None]:
            _open(browser, category, subcategory)
            toggles = [t.text for t in browser.find_elements(By.XPATH, "//nav//fieldset//label")] or [None]
            for i in range(len(_eyes(browser))):
                for toggle in toggles:
                    _open(browser, category, subcategory)
                    if toggle:
                        browser.find_element(By.XPATH, f"//nav//fieldset//label[normalize-space()='{toggle}']").click()
                    _eyes(browser)[i].click()
                    what = (category, subcategory, i, toggle)
                    kind, size, src = _shown(browser, what)
                    if kind == "image":
                        assert size[0] > 300 and size[1] > 200, (what, size)
                    else:
                        assert size >= 2, (what, size)
                    shown.add(src)
    # every result was displayed: 9 figures, 5 paper tables (Sechidis et al. 2011's, which the study reproduces,
    # and every study's) and the reproduction report
    expected = browser.execute_script("return Object.values(results).map(r => r.data_uri)")
    assert len(expected) == 9 + 6 and shown == set(expected)
