"""The HTML report in a real headless browser: its charts load and show.

CI has no browser; there the test is skipped."""

import io
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from reports.report import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (the "
                                "browser test needs a headless Chromium; CI has none)")
# After the page loads, it writes each image's decoded width into the DOM that --dump-dom prints.
PROBE = ("<script>window.addEventListener('load', () => { document.body.dataset.widths = "
         "[...document.images].map(i => i.naturalWidth).join(','); });</script></body>")


def chromium(*args: str) -> str:
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", *args], capture_output=True, text=True,
                          timeout=180)
    return done.stdout


@pytest.fixture(scope="module")
def page(tmp_path_factory, shared_saboteur_run) -> Path:
    out = tmp_path_factory.mktemp("report")
    write_report([shared_saboteur_run], out, console=Console(file=io.StringIO()))
    return out / "report.html"


def test_every_chart_of_the_page_loads(page):
    probed = page.with_name("probed.html")
    probed.write_text(page.read_text().replace("</body>", PROBE))
    dom = chromium("--dump-dom", probed.as_uri())
    widths = re.search(r'data-widths="([^"]*)"', dom)
    assert widths, "the page did not finish loading"
    images = page.read_text().count("<img ")
    assert images > 3
    assert [int(w) > 1000 for w in widths[1].split(",")] == [True] * images


def test_the_screenshot_shows_the_contents_and_coloured_charts(page, tmp_path):
    from PIL import Image

    shot = tmp_path / "page.png"
    chromium(f"--screenshot={shot}", "--window-size=1280,2400", page.as_uri())
    with Image.open(shot) as image:
        pixels = np.asarray(image.convert("RGB").resize((320, 600)), int).reshape(-1, 3)
    vivid = pixels[pixels.max(axis=1) - pixels.min(axis=1) > 60]  # chart bars and lines, not grey
    assert len({tuple(p) for p in vivid}) > 50
    assert (pixels == 255).all(axis=1).mean() < 0.9  # not a blank page
