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


# After the page loads, it sends where the Answer's heading and its chart lie, and its
# viewport's size, to the page around it (headless Chromium's window is at least 500 px wide,
# so the narrow screen is a frame of that width in a larger window).
WHERE = ("<script>window.addEventListener('load', () => { const box = e => { const r = "
         "e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].map(Math.round)"
         ".join(' '); }; parent.postMessage({answer: box([...document.querySelectorAll('h2')]"
         ".find(h => h.textContent === 'Answer')), hero: box(document.querySelector("
         "'figure.hero img')), screen: innerWidth + ' ' + innerHeight}, '*'); });</script></body>")
FRAME = ("<!doctype html><html><body style='margin:0'><iframe src='{src}' width='{width}' "
         "height='{height}' style='border:0'></iframe><script>addEventListener('message', e => "
         "Object.assign(document.body.dataset, e.data));</script></body></html>")


@pytest.mark.parametrize("width, height", [(1400, 900), (375, 812)])
def test_the_answer_and_its_chart_lie_in_the_first_screen(page, width, height):
    probed = page.with_name(f"where-{width}.html")
    probed.write_text(page.read_text().replace("</body>", WHERE))
    frame = page.with_name(f"frame-{width}.html")
    frame.write_text(FRAME.format(src=probed.name, width=width, height=height))
    dom = chromium("--dump-dom", "--window-size=1600,1000", "--virtual-time-budget=10000",
                   frame.as_uri())
    found = dict(re.findall(r'data-(answer|hero|screen)="([^"]*)"', dom))
    assert set(found) == {"answer", "hero", "screen"}, "the page did not finish loading"
    assert found["screen"] == f"{width} {height}"
    for name in ("answer", "hero"):
        left, top, right, bottom = map(int, found[name].split())
        assert 0 <= left and right <= width, name  # nothing cut at the sides
        assert 0 <= top and bottom <= height, name  # wholly in the first screen
    left, top, right, bottom = map(int, found["hero"].split())
    assert right - left >= min(300, width - 40)  # a chart, not a thumbnail


HEROES = {"ladder": "charts/balance_by_rung.png", "what-if": "charts/whatif_response.png"}


@pytest.fixture(scope="module", params=sorted(HEROES))
def asked(request, tmp_path_factory) -> tuple[str, Path]:
    """Gives the page of a report whose hero answers what its run asked: a ladder's rate by
    rung, a rule sweep's response to the rule."""
    from sim import api

    folder = tmp_path_factory.mktemp(request.param)
    if request.param == "ladder":
        run = api.ladder("saboteur", players="4,7", games=30, rungs="random,default", seed=3,
                         workers=1, out=folder / "run", quiet=True)
    else:
        run = api.run("saboteur", players=7, games=40, seed=3, workers=1, out=folder / "run",
                      sets=["hand_size.7=4,5"], quiet=True)
    return request.param, api.report(run, out=folder / "report") / "report.html"


def test_a_ladders_and_a_sweeps_answer_and_hero_lie_in_the_first_screen(asked):
    """The hero of issue 40 item 3 (the rate by rung and variant; the response to the rule
    swept), seen on a laptop's first screen as a browser lays the page out."""
    kind, asked = asked
    answer = asked.with_name("report.md").read_text().split("\n## ")[1]
    assert f"]({HEROES[kind]})" in answer  # the Answer's chart is the one the run asked for
    probed = asked.with_name("where.html")
    probed.write_text(asked.read_text().replace("</body>", WHERE))
    frame = asked.with_name("frame.html")
    frame.write_text(FRAME.format(src=probed.name, width=1280, height=900))
    dom = chromium("--dump-dom", "--window-size=1600,1000", "--virtual-time-budget=10000",
                   frame.as_uri())
    found = dict(re.findall(r'data-(answer|hero|screen)="([^"]*)"', dom))
    assert set(found) == {"answer", "hero", "screen"}, "the page did not finish loading"
    left, top, right, bottom = map(int, found["hero"].split())
    assert 0 <= top and bottom <= 900 and right <= 1280
    assert right - left >= 500  # a chart a designer reads, not a thumbnail
