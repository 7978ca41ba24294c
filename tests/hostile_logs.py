"""Inspect logs with hostile names in every field, and the checks a report made from them must pass.

A log is built the way ``import-toon`` builds one (``import_toon.to_eval_log``), then every name that comes from a
log — task, model, category, format, question type, sample id — is set to the text under test. ``@ROOT@`` in a name
is replaced by the absolute path of the test's root folder, so that a name used as an absolute path would write
inside the folder the test watches. A JSON token ``"@RAW@"`` in the written log is replaced by raw JSON text
(deep nesting, a 400-digit number), which no log writer would produce.
"""

from __future__ import annotations

import csv
import html.parser
import io
import json
import os
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from inspect_ai.log import write_eval_log
from markdown_it import MarkdownIt

from coonbench.cli import main
from coonbench.report.import_toon import to_eval_log
from coonbench.report.safe import FORMULA_STARTS

NAME_FIELDS = ("task", "model", "category", "format", "question_type", "sample_id")
HOSTILE_NAMES = (
    "../../../../x", "../../x", "/tmp/x", "@ROOT@/escaped", "a/b", "a_b", "..", ".", "", " ", "-", "\\",
    "$\\frac{1}{2}$", "$" + "\\frac{" * 60 + "1" + "}{2}" * 60 + "$", "$\\undefinedmacro$", "$x", "$$", "$a$ and $b",
    "<img src=x onerror=alert(1)>", "<!--", "<script>alert(1)</script>", "</table><script>x</script>",
    '=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tTAB", "\rCR", "x\ny", "\x00",
    "[a](javascript:alert(1))", "![i](http://x/i.png)", "| a | b |", "`", "**", "# heading", "x" * 3000,
    "\u202eevil", "\ufeffbom", "CON", "nul.txt", "a" * 300 + "/" + "b" * 300,
)


def _names(names: dict[str, str], root: Path) -> dict[str, str]:
    return {k: v.replace("@ROOT@", str(root)) for k, v in names.items()}


def write_log(folder: Path, names: dict[str, str], root: Path, raw: str | None = None,
              metadata: dict[str, Any] | None = None, score: Any = None) -> Path:
    """One .eval log of 2 formats × 3 questions named by ``names``; ``score`` replaces each sample's score
    value (``"@RAW@"`` with ``raw`` spliced in as JSON text), ``metadata`` is added to each sample's."""
    names = _names(names, root)
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "source.txt"
    source.write_text("made by tests/hostile_logs.py", encoding="utf-8")
    records = [{"questionId": f"q{i}", "format": fmt, "model": "m", "expected": "1",
                "actual": "1" if (i + k) % 2 else "2", "isCorrect": bool((i + k) % 2), "inputTokens": 10 + i + k,
                "outputTokens": 2, "latencyMs": 5}
               for i in range(3) for k, fmt in enumerate((names["format"], "json"))]
    log = to_eval_log(records, source)
    source.unlink()
    log.eval.task = names["task"]
    log.eval.model = names["model"]
    for n, sample in enumerate(log.samples or []):
        sample.id = f"{names['sample_id']}{n}"
        sample.metadata.update({"category": names["category"], "question_type": names["question_type"],
                                **(metadata or {})})
        if score is not None:
            sample.scores["toon_verdict"].value = score
    path = folder / "hostile.eval"
    write_eval_log(log, str(path))
    if raw is not None:
        splice(path, '"@RAW@"', raw)
    return path


def splice(path: Path, token: str, raw: str) -> None:
    """Replace ``token`` by ``raw`` in every entry of an .eval archive."""
    with zipfile.ZipFile(path) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in entries:
            archive.writestr(info.filename, data.replace(token.encode(), raw.encode()))


def files_under(root: Path) -> set[Path]:
    return {Path(dirpath, f) for dirpath, _, files in os.walk(root) for f in files}


def run_cli(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """``coonbench ARGV`` in-process from ``cwd``: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def assert_one_line_or_success(code: int, stderr: str, command: str) -> None:
    """Exit 0, or exit 2 with exactly one error line that says something after the command's name."""
    lines = [ln for ln in stderr.splitlines() if ln.strip() and ": warning:" not in ln]
    if code == 0:
        assert not lines, f"{command}: succeeded but printed {lines[:3]}"
        return
    assert code == 2, f"{command}: exit {code}: {stderr[-2000:]}"
    assert len(lines) == 1, f"{command}: error is not one line: {stderr[-2000:]}"
    assert lines[0].startswith(f"coonbench {command}: ") or lines[0].startswith("coonbench: "), lines[0]
    assert lines[0].split(": ", 1)[1].strip(), f"{command}: empty error line"


MARKDOWN_TAGS = {"h1", "h2", "h3", "h4", "p", "strong", "em", "code", "img", "ul", "li", "blockquote", "table",
                 "thead", "tbody", "tr", "th", "td", "a"}


class _MarkdownTags(html.parser.HTMLParser):
    """The tags a Markdown rendering holds, and its image sources (a link may only be a web address)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        values = dict(attrs)
        if tag == "img":
            self.images.append(values.get("src") or "")
        if tag == "a":
            assert (values.get("href") or "").startswith(("http://", "https://", "mailto:")), values
        assert not any(k.startswith("on") for k in values), (tag, values)


class _Scripts(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed", "svg", "math", "base", "form", "link", "meta") \
                and not (tag == "meta" and all(k in ("charset", "name", "content") for k, _ in attrs)):
            self.bad.append(tag)
        for key, value in attrs:
            if key.startswith("on") or (value or "").strip().lower().startswith(("javascript:", "vbscript:")):
                self.bad.append(f"{tag} {key}={value!r:.60}")
            if key == "src" and not (value or "").startswith("data:image/png;base64,"):
                self.bad.append(f"{tag} src={value!r:.60}")


def check_report(out: Path) -> None:
    """report.html parses to no script, no handler, no foreign source; report.md holds no raw HTML; no CSV cell
    a spreadsheet would run."""
    parser = _Scripts()
    parser.feed((out / "report.html").read_text(encoding="utf-8"))
    assert not parser.bad, f"report.html: {parser.bad[:5]}"
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "<" not in md, f"report.md carries raw HTML: {md[md.index('<') - 40: md.index('<') + 40]!r}"
    rendered = _MarkdownTags()
    rendered.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(md))  # raw HTML let through
    assert rendered.tags <= MARKDOWN_TAGS, f"report.md renders to {rendered.tags - MARKDOWN_TAGS}"
    assert all(src.startswith("plots/") and "/" not in src[6:] for src in rendered.images), rendered.images[:3]
    for path in (out / "tables").glob("*.csv"):
        with path.open(newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    if cell.startswith(FORMULA_STARTS) and cell != "-":
                        float(cell)  # only a number may start so (raises ValueError on a formula)
    json.loads((out / "report.json").read_text(encoding="utf-8"))
