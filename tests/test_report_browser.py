"""report.html in a real browser (Debian's headless Chromium): every chart loads, nothing overflows the page.

A probe script is added to a copy of the report; Chromium runs it, opens every <details>, waits for the images to
decode, measures, and writes its findings into the DOM that ``--dump-dom`` prints. Skipped, with the reason, where
no Chromium is installed (`.ci/run` installs it).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalPlan, EvalSample, EvalSpec, EvalStats, write_eval_log
from inspect_ai.model import ModelOutput, ModelUsage
from inspect_ai.scorer import Score

from coonbench.report import build_report

pytestmark = pytest.mark.slow  # a report and a browser start: ~15 s

WIDTH, HEIGHT = 1280, 900
PROBE = """<script>
// Synchronous on purpose: "load" waits for every image, so naturalWidth is known; an awaited decode() could still
// be pending when --virtual-time-budget ends and the DOM is dumped without the probe.
window.addEventListener("load", () => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const imgs = Array.from(document.images);
  const width = document.documentElement.clientWidth;
  const inScroll = el => el.closest(".scroll") !== null && !el.classList.contains("scroll");
  const over = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (inScroll(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1)) over.push(el.tagName + ":" + Math.round(r.right));
  }
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: Math.round(r.top + window.scrollY), bottom: Math.round(r.bottom + window.scrollY)}; };
  const first = document.querySelector("section");
  const out = {
    first: first ? {headline: box(first.querySelector("p.headline")), figure: box(first.querySelector("img")),
                    table: box(first.querySelector("table"))} : null,
    width: width, scrollWidth: document.documentElement.scrollWidth,
    images: imgs.map(i => ({alt: i.alt, natural: i.naturalWidth, shown: Math.round(i.getBoundingClientRect().width)})),
    overflow: over.slice(0, 20), external: Array.from(document.querySelectorAll("[src],[href]"))
      .map(e => e.getAttribute("src") || e.getAttribute("href")).filter(u => !u.startsWith("data:")),
  };
  const pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def chromium() -> str | None:
    return next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)


def _flags(width: int = WIDTH, height: int = HEIGHT) -> list[str]:
    return ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            f"--window-size={width},{height}", "--virtual-time-budget=15000", "--run-all-compositor-stages-before-draw"]


def probe(html: Path) -> dict[str, Any]:
    """Load a copy of ``html`` with the probe script in headless Chromium; the probe's measurements."""
    browser = chromium()
    assert browser is not None
    copy = html.with_name("probe.html")
    copy.write_text(html.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    tries: list[str] = []
    for attempt in range(3):  # a browser that dies on start is retried; a probe that never reports fails
        profile = html.with_name(f"profile-{attempt}")  # a fresh profile: no lock or cache from another run
        done = subprocess.run([browser, *_flags(), f"--user-data-dir={profile}", "--dump-dom", copy.as_uri()],
                              capture_output=True, text=True, timeout=120)
        found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, flags=re.DOTALL)
        if found:
            break
        said = [line for line in done.stderr.splitlines() if "dbus" not in line.lower()]  # D-Bus noise: no bus here
        tries.append(f"exit {done.returncode}, {len(done.stdout)} chars of DOM, stderr: {said[-15:]}")
    assert found, "the probe did not run:\n" + "\n".join(tries)
    return json.loads(found.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&amp;", "&"))


def screenshot(html: Path, png: Path, width: int = WIDTH, height: int = HEIGHT) -> Path:
    """The first screen of ``html`` as a PNG (how docs/img/report-first-screen.png is made)."""
    browser = chromium()
    assert browser is not None
    subprocess.run([browser, *_flags(width, height), f"--screenshot={png}", html.as_uri()], capture_output=True,
                   timeout=120, check=True)
    from PIL import Image  # matplotlib's own dependency

    with Image.open(png) as shot:
        shot.convert("RGB").quantize(64).save(png, optimize=True)  # text and tables: 64 colours keep it small
    return png


LONG = "provider/a-model-with-a-rather-long-name-that-would-squeeze-the-bars-2026-11-25"


def _logs(folder: Path) -> None:
    """A model with a long name and a floor: four formats, one of them with no correct answer (a zero bar)."""
    folder.mkdir(parents=True, exist_ok=True)
    luck = random.Random(5)
    for model, solver, rule in ((LONG, None, lambda q, f: luck.random() < 0.7 and f != "xml"),
                                ("mockllm/model", "coonbench/baseline_constant", lambda q, f: False)):
        samples = [
            EvalSample(id=f"q{q}-{fmt}", epoch=1, input="q", target="a",
                       output=ModelOutput.from_content(model=model, content="a"),
                       scores={"answer_match": Score(value={"correct": float(rule(q, fmt))})},
                       metadata={"format": fmt, "category": "retrieval", "input_tokens": 100 * (i + 1),
                                 "pair_id": f"q{q}", "dataset": f"d{q % 4}"},
                       model_usage={model: ModelUsage(input_tokens=100 * (i + 1), output_tokens=5, total_tokens=0)})
            for q in range(24) for i, fmt in enumerate(("json", "toon", "yaml", "xml"))
        ]
        log = EvalLog(status="success", eval=EvalSpec(created="2026-01-01T00:00:00+00:00", task="retrieval",
                                                      model=model, solver=solver, config=EvalConfig(),
                                                      dataset=EvalDataset(name="r", samples=len(samples))),
                      plan=EvalPlan(), stats=EvalStats(), samples=samples)
        write_eval_log(log, str(folder / f"{model.split('/')[-1][:20]}.eval"))


@pytest.fixture(scope="module")
def report_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    _logs(root / "logs")
    return build_report([root / "logs"], root / "out").html


def test_every_chart_loads_and_nothing_overflows_the_page(report_html: Path) -> None:
    if chromium() is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium; .ci/run installs it)")
    found = probe(report_html)
    assert found["images"], "the report has no charts"
    for img in found["images"]:
        assert img["natural"] > 0, img  # decoded: the data URI is a real PNG
        assert img["shown"] >= 0.9 * (found["width"] - 40) or img["shown"] == 0, img  # full width
    assert found["scrollWidth"] <= found["width"], "the page scrolls sideways"
    assert found["overflow"] == []
    assert found["external"] == []  # self-contained: nothing to fetch


def test_first_screen_shows_the_answer_and_its_figure(report_html: Path, tmp_path: Path) -> None:
    """At 1280×900 the one-sentence answer and the whole answer figure are on the first screen, then the table."""
    if chromium() is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium; .ci/run installs it)")
    first = probe(report_html)["first"]
    assert first is not None and first["headline"] is not None and first["figure"] is not None, first
    assert 0 <= first["headline"]["top"] < first["headline"]["bottom"] <= first["figure"]["top"]
    assert first["figure"]["bottom"] <= HEIGHT, first  # the figure is whole on the first screen
    assert first["table"] is not None and first["table"]["top"] >= first["figure"]["bottom"]
    png = screenshot(report_html, tmp_path / "first.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    html = report_html.read_text(encoding="utf-8")
    assert html.index('class="headline"') < html.index("<img") < html.index("<table") < html.index("<details")
