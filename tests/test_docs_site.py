"""The documentation site (mkdocs.yml, docs/): ``mkdocs build --strict`` passes, so every
page in the nav exists and every link and anchor between pages resolves; the README's
own links into docs/ resolve against the built site."""
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The folder of the site ``mkdocs build --strict`` builds (mkdocs, mkdocs-material
    and mkdocs-jupyter: the dev extra); the build's log must hold no warning."""
    pytest.importorskip("mkdocs", reason="the docs site needs mkdocs (the dev extra)")
    out = tmp_path_factory.mktemp("site")
    # run in a temp folder: mkdocs-jupyter keeps its cache in ./.cache, never the checkout
    cwd = tmp_path_factory.mktemp("build")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", os.path.join(ROOT, "mkdocs.yml"), "-d", str(out)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-5000:]
    assert "WARNING" not in log, log[-5000:]
    return out


def page_ids(site, page):
    """The ``id`` attributes of the built page of ``page`` (``docs/X.md``)."""
    name = os.path.splitext(os.path.relpath(page, "docs"))[0]
    path = os.path.join(site, "index.html" if name == "index" else os.path.join(name, "index.html"))
    assert os.path.exists(path), f"{page}: no built page {path}"
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'\bid="([^"]+)"', f.read()))


def test_mkdocs_build_strict_passes_and_the_readme_links_resolve(site):
    """The strict build passed (the fixture); the notebooks are rendered; every relative
    link of README.md names a file of the checkout, and a link into a docs page with an
    anchor names a heading of that page. One test: under xdist a second test of the
    site could build it again on another worker."""
    assert os.path.exists(os.path.join(site, "index.html"))
    assert os.path.exists(os.path.join(site, "notebooks", "tutorial-lookahead", "index.html"))
    links = re.findall(r"\]\(([^)\s]+)\)", readme())
    relative = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert relative
    for link in relative:
        path, _, anchor = link.partition("#")
        assert os.path.exists(os.path.join(ROOT, path)), f"README.md: {link} does not exist"
        if anchor and path.endswith(".md"):
            assert anchor in page_ids(site, path), f"README.md: no anchor #{anchor} in {path}"


README_LIMIT = 10 * 1024


def test_readme_is_at_most_10_kb():
    """The README says what the package is, the two quick-start commands, the ten-line
    tour and where to go next; everything else lives in docs/."""
    size = len(readme().encode("utf-8"))
    assert size <= README_LIMIT, f"README.md is {size} bytes, over {README_LIMIT}: move text to docs/"
