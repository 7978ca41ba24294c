"""(Re)select the Python corpus (``data/python/``): real files nobody here wrote, with their licences, in bands.

    python benchmarks/select_python_corpus.py            # rewrite data/python/ from this environment
    python benchmarks/select_python_corpus.py --check    # exit 1 when the selection differs from data/python/

The candidates are the standard library of the running Python (PSF-2.0) and the sources of a few permissively
licensed packages coonbench depends on (``PACKAGES``; each one's licence file is copied beside the corpus). A file
is kept when it is moderate (``MIN_LOC``–``MAX_LOC`` lines of code, and its largest encoding, the JSON syntax tree,
at most ``MAX_TOKENS`` tokens in Qwen's tokenizer, so every prompt fits a small model's 8k context), every Python
format carries it (round trip checked by the formats themselves), and the question generators find at least
``MIN_QUESTIONS`` questions of two types in it. Files are taken in the order of the SHA-256 of their origin path,
at most ``PER_FOLDER`` from one folder and ``PER_ORIGIN`` from one package, until each band (``coonbench.languages.python.corpus.BANDS``, by
lines of code and cyclomatic complexity) holds its ``BAND_SIZES``. Deterministic for a given Python and package set
(``sources.json`` records both); ``python -m coonbench.datasets.corpus --write-manifest`` style metrics are then
written by ``write_manifest``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import shutil
import sys
import sysconfig
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from coonbench.datasets.corpus import write_manifest
from coonbench.formats import FormatError, get_format
from coonbench.languages import get_language
from coonbench.languages.python.corpus import BAND_SIZES, BANDS, CORPUS_DIR, band_of
from coonbench.languages.python.questions import generate_questions
from coonbench.tokens import count_tokens

PACKAGES: dict[str, str] = {  # distribution → SPDX licence (read back from its metadata and checked)
    "click": "BSD-3-Clause", "attrs": "MIT", "rich": "MIT", "anyio": "MIT", "httpx": "BSD-3-Clause",
    "platformdirs": "MIT", "semver": "BSD-3-Clause", "docstring_parser": "MIT", "toon_format": "MIT",
    "python_minifier": "MIT", "inspect_ai": "MIT", "tenacity": "Apache-2.0",
}
STDLIB_LICENCE = "PSF-2.0"
EXCLUDED_PARTS = frozenset({"test", "tests", "idle_test", "site-packages", "dist-packages", "encodings", "_vendor",
                            "vendor", "__pycache__"})
MIN_LOC, MAX_LOC, MAX_TOKENS = 15, 150, 6000
MIN_QUESTIONS = 4
PER_FOLDER, PER_ORIGIN = 6, 30
TOKENIZER = "qwen"
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Candidate:
    origin: str  # "stdlib" or a distribution name
    version: str
    licence: str
    relative: str  # path inside the origin
    source: str

    @property
    def folder(self) -> str:
        return f"{self.origin}/{self.relative.rpartition('/')[0]}"

    @property
    def slug(self) -> str:
        return _SLUG.sub("_", f"{self.origin}_{self.relative.removesuffix('.py')}".lower()).strip("_")[:48]


def _excluded(relative: str) -> bool:
    parts = relative.split("/")
    return bool(EXCLUDED_PARTS & set(parts[:-1])) or parts[-1].startswith("test") or parts[-1] == "__main__.py"


def stdlib_candidates() -> list[Candidate]:
    root = Path(sysconfig.get_paths()["stdlib"])
    version = ".".join(map(str, sys.version_info[:3]))
    out = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root).as_posix()
        if not _excluded(relative):
            out.append(Candidate("stdlib", version, STDLIB_LICENCE, relative, path.read_text("utf-8", "replace")))
    return out


def package_candidates(name: str, licence: str) -> list[Candidate]:
    dist = importlib.metadata.distribution(name)
    declared = dist.metadata.get("License-Expression") or dist.metadata.get("License") or ""
    if licence not in declared and not any(licence.split("-")[0] in c for c in dist.metadata.get_all("Classifier") or []):
        raise SystemExit(f"{name}: declared licence {declared!r} is not {licence}")
    out = []
    for file in dist.files or []:
        relative = str(file)
        if relative.endswith(".py") and not _excluded(relative):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                out.append(Candidate(dist.metadata["Name"], dist.version, licence, relative,
                                     path.read_text("utf-8", "replace")))
    return out


def usable(c: Candidate) -> dict[str, object] | None:
    """The file's metrics when it qualifies (module docstring), else None."""
    language = get_language("python")
    if "\ufffd" in c.source or language.parse_error(c.source) is not None:
        return None
    metrics = language.measure(c.source)
    if not MIN_LOC <= int(metrics["loc"]) <= MAX_LOC or not metrics["functions"]:
        return None
    try:
        tree = get_format("python-json-ast").encode(c.source)
        for name in ("python-minified", "python-minifier"):
            get_format(name).encode(c.source)
    except FormatError:
        return None
    if count_tokens(tree, TOKENIZER) > MAX_TOKENS:
        return None
    questions = generate_questions("x", c.source)
    if len(questions) < MIN_QUESTIONS or len({q.question_type for q in questions}) < 2:
        return None
    return metrics


def select() -> list[tuple[str, Candidate]]:
    """(band, candidate) of every file chosen, in band order then draw order."""
    pool = stdlib_candidates() + [c for n, lic in PACKAGES.items() for c in package_candidates(n, lic)]
    pool.sort(key=lambda c: hashlib.sha256(f"{c.origin}/{c.relative}".encode()).hexdigest())
    chosen: dict[str, list[Candidate]] = {band: [] for band in BANDS}
    per_folder: Counter[str] = Counter()
    per_origin: Counter[str] = Counter()
    seen: set[str] = set()
    for c in pool:
        digest = hashlib.sha256(c.source.encode()).hexdigest()
        if digest in seen or per_folder[c.folder] >= PER_FOLDER or (
            c.origin != "stdlib" and per_origin[c.origin] >= PER_ORIGIN
        ):
            continue
        metrics = usable(c)
        if metrics is None:
            continue
        band = band_of(int(metrics["loc"]), int(metrics["cyclomatic"]))
        if len(chosen[band]) >= BAND_SIZES[band]:
            continue
        seen.add(digest)
        per_folder[c.folder] += 1
        per_origin[c.origin] += 1
        chosen[band].append(c)
        if all(len(chosen[b]) >= BAND_SIZES[b] for b in BANDS):
            break
    return [(band, c) for band in BANDS for c in chosen[band]]


def licence_files() -> dict[str, tuple[str, Path]]:
    """Licence name → (file name in LICENSES/, the file to copy)."""
    out = {"stdlib": (f"{STDLIB_LICENCE}.txt", Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt")}
    for name in PACKAGES:
        dist = importlib.metadata.distribution(name)
        files = [f for f in dist.files or [] if re.search(r"(LICEN[CS]E|COPYING)[^/]*$", str(f).upper())
                 and ".dist-info/" in str(f)]
        if not files:
            raise SystemExit(f"{name}: no licence file in its distribution")
        out[dist.metadata["Name"]] = (f"{dist.metadata['Name']}.txt", Path(str(dist.locate_file(files[0]))))
    return out


def render(selection: list[tuple[str, Candidate]]) -> dict[str, str]:
    """Every file of ``data/python/`` but the manifest: relative path → text."""
    files: dict[str, str] = {}
    records = []
    licences = licence_files()
    for number, (band, c) in enumerate(selection, start=1):
        path = f"{band}/{number:03d}_{c.slug}.py"
        files[path] = c.source
        records.append({"id": f"{band}-{number:03d}", "path": path, "origin": c.origin, "version": c.version,
                        "origin_path": c.relative, "licence": c.licence, "licence_file": f"LICENSES/{licences[c.origin][0]}"})
    used = {c.origin for _, c in selection}
    for origin in sorted(used):
        name, source = licences[origin]
        files[f"LICENSES/{name}"] = source.read_text(encoding="utf-8")
    files["README.md"] = readme(selection, licences)
    files["sources.json"] = json.dumps({"python": ".".join(map(str, sys.version_info[:3])),
                                        "command": "python benchmarks/select_python_corpus.py",
                                        "files": records}, indent=2) + "\n"
    return files


def readme(selection: list[tuple[str, Candidate]], licences: dict[str, tuple[str, Path]]) -> str:
    """``data/python/README.md``: what the corpus is, its bands and where each file came from, counted."""
    bands = Counter(band for band, _ in selection)
    origins = Counter((c.origin, c.version, c.licence) for _, c in selection)
    lines = [
        "# Python corpus",
        "",
        f"{len(selection)} real Python files that nobody at coonbench wrote, copied unchanged from the standard library of",
        f"Python {'.'.join(map(str, sys.version_info[:3]))} and from permissively licensed packages, each under its own "
        "licence (not the MIT",
        "licence of the rest of `data/`): `sources.json` names every file's origin, version, path there, licence and",
        "licence file (`LICENSES/`). Chosen, banded and written by `python benchmarks/select_python_corpus.py`",
        "(deterministic; `--check` says whether this folder is current); `manifest.json` holds the metrics of",
        "`coonbench/languages/python/metrics.py` and each file's sha256. Bands (`coonbench/languages/python/corpus.py`):",
        "",
        "| band | files |",
        "|---|---|",
        *[f"| `{band}/` | {bands[band]} |" for band in BANDS],
        "",
        "| origin | version | licence | files | licence file |",
        "|---|---|---|---|---|",
        *[f"| {o} | {v} | {lic} | {n} | `LICENSES/{licences[o][0]}` |" for (o, v, lic), n in sorted(origins.items())],
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when data/python/ differs from a new selection")
    args = parser.parse_args(argv)
    files = render(select())
    if args.check:
        stale = [p for p, text in files.items() if not (CORPUS_DIR / p).is_file()
                 or (CORPUS_DIR / p).read_text(encoding="utf-8") != text]
        print("\n".join(stale) or "data/python/ is current")
        return 1 if stale else 0
    for band in BANDS:
        shutil.rmtree(CORPUS_DIR / band, ignore_errors=True)
    shutil.rmtree(CORPUS_DIR / "LICENSES", ignore_errors=True)
    for relative, text in files.items():
        target = CORPUS_DIR / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    print(f"wrote {len(files)} files; {write_manifest(language=get_language('python'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
