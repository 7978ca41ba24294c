"""The Dart corpus: band sizes, parsing, manifest freshness, integrity checks and hand-checked metrics."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from coonbench.dart import parse_dart
from coonbench.dart.metrics import (
    FEATURES,
    count_loc,
    cyclomatic_complexity,
    detect_features,
    general_complexity_index,
    measure,
    widget_metrics,
)
from coonbench.datasets.corpus import MANIFEST_NAME, CorpusError, build_manifest, corpus_files, load_corpus
from coonbench.languages import get_language

DART_CORPUS = get_language("dart").corpus()
BAND_SIZES = DART_CORPUS.band_sizes
BANDS = DART_CORPUS.bands
CORPUS_DIR = DART_CORPUS.root

LINE_RANGES = {"simple": (5, 30), "composed": (30, 90), "complex": (120, 300)}


def test_band_sizes() -> None:
    files = corpus_files()
    for band, size in BAND_SIZES.items():
        assert sum(1 for _, b, _ in files if b == band) == size, band
    assert [s.id for s in load_corpus()] == [i for i, _, _ in files]
    assert len(load_corpus(["edge"])) == 15


def test_numbering_runs_001_to_100_in_band_order() -> None:
    numbers = [int(sample_id.split("-")[1]) for sample_id, _, _ in corpus_files()]
    assert numbers == list(range(1, 101))


@pytest.mark.parametrize("sample_id,band,path", corpus_files(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_file_parses_and_fits_its_band(sample_id: str, band: str, path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    parse_dart(source)  # strict: raises on the first ERROR/MISSING node
    assert source.startswith("import "), sample_id
    assert "package:flutter/material.dart" in source
    if band in LINE_RANGES:
        low, high = LINE_RANGES[band]
        assert low <= len(source.splitlines()) <= high, sample_id


def test_manifest_is_current() -> None:
    on_disk = (CORPUS_DIR / MANIFEST_NAME).read_text(encoding="utf-8")
    assert build_manifest() == on_disk, "run `python -m coonbench.datasets.corpus --write-manifest`"
    assert on_disk.endswith("}\n")


def _copy_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "dart"
    shutil.copytree(CORPUS_DIR, root)
    return root


def test_sha256_mismatch_names_the_file(tmp_path: Path) -> None:
    root = _copy_corpus(tmp_path)
    assert len(load_corpus(root=root)) == 100
    victim = root / "composed" / "023_settings_screen.dart"
    victim.write_text(victim.read_text(encoding="utf-8").replace("3.4.1", "3.4.2"), encoding="utf-8")
    with pytest.raises(CorpusError) as info:
        load_corpus(root=root)
    message = str(info.value)
    assert "023_settings_screen.dart" in message
    assert "--write-manifest" in message
    # other bands still load; the rebuilt manifest accepts the change
    assert len(load_corpus(["simple"], root=root)) == 20
    (root / MANIFEST_NAME).write_text(build_manifest(root), encoding="utf-8")
    assert any("3.4.2" in s.source for s in load_corpus(["composed"], root=root))


def test_malformed_manifest_names_entry_and_field(tmp_path: Path) -> None:
    root = _copy_corpus(tmp_path)
    data = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8"))
    del data["samples"][3]["cyclomatic"]
    (root / MANIFEST_NAME).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CorpusError, match=r"samples\[3\] \(simple-004\): field 'cyclomatic' missing"):
        load_corpus(root=root)
    (root / MANIFEST_NAME).unlink()
    with pytest.raises(CorpusError, match="manifest missing"):
        load_corpus(root=root)


def test_unknown_band_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown band"):
        load_corpus(["medium"])


# ------------------------------------------------------------------------------------ hand-checked metrics


def test_cyclomatic_one_if_one_and_is_three() -> None:
    src = "int f(int a, int b) {\n  if (a > 0 && b > 0) return 1;\n  return 0;\n}\n"
    assert cyclomatic_complexity(src) == 3


def test_cyclomatic_counts_every_decision_kind() -> None:
    src = """
int g(List<int> xs, int? n, Object o) {
  var total = n ?? 0;                          // ?? -> 1
  for (final x in xs) { total += x; }          // for-in -> 2
  while (total > 100 || total < -100) {        // while, || -> 4
    total ~/= 2;
  }
  try { total += int.parse('7'); } catch (e) { total = 0; }   // catch -> 5
  switch (total) { case 1: break; case 2: break; default: break; }  // 2 cases -> 7
  final label = switch (o) { int _ => 'i', String _ => 's', _ => '?' };  // 2 arms (not _) -> 9
  final items = [if (total > 0) 'pos', for (final x in xs) '$x'];       // if, for -> 11
  return total > 0 ? items.length : label.length;                        // ?: -> 12
}
"""
    # the comments count decision points; McCabe's number is one more
    assert cyclomatic_complexity(src) == 1 + 12


def test_widget_types_and_depth() -> None:
    src = """
import 'package:flutter/material.dart';
class Demo extends StatelessWidget {
  const Demo({super.key});
  @override
  Widget build(BuildContext context) {
    return Center(
      child: Column(
        children: [
          Text('a'),
          const Padding(padding: EdgeInsets.all(8), child: Icon(Icons.add)),
          ElevatedButton(
            style: ElevatedButton.styleFrom(backgroundColor: Colors.red),
            onPressed: () => Navigator.push(context, MaterialPageRoute(builder: (_) => const Demo())),
            child: const Text('go'),
          ),
        ],
      ),
    );
  }
}
"""
    types, depth = widget_metrics(src)
    # Demo is built inside ElevatedButton's onPressed closure: Center > Column > ElevatedButton > Demo
    assert types == ["Center", "Column", "Demo", "ElevatedButton", "Icon", "Padding", "Text"]
    assert depth == 4
    assert widget_metrics("void main() { print(1); }") == ([], 0)


def test_loc_ignores_blank_and_comment_lines_but_keeps_string_lines() -> None:
    src = (
        "/// Doc comment.\n"
        "// plain comment\n"
        "\n"
        "const a = 'http://not-a-comment'; // trailing\n"
        "/* block\n"
        "   comment */\n"
        "const b = '''\n"
        "line\n"
        "''';\n"
    )
    assert count_loc(src) == 4


def test_gci_formula_and_range() -> None:
    # every component at its half-saturation point -> 0.5
    assert general_complexity_index(100, 11, 6, 12, 3) == 0.5
    assert general_complexity_index(0, 1, 0, 0, 0) == 0.0
    assert 0 < measure("import 'package:flutter/material.dart';\nvar t = Text('x');\n")["gci"] < 0.2


def test_feature_detection() -> None:
    src = r"""
var a = r'raw $x';
var b = '''triple''';
var c = 'cost \$5 ${a.length}' ' and more';
var d = [...?null, if (true) 1, for (final x in [1]) x];
var e = (1, 'x');
var f = switch (e) { (int n, _) when n > 0 => 'pos', _ => 'other' };
var g = StringBuffer()..write('S{b:C{h:[]}}');
"""
    found = set(detect_features(src))
    assert {
        "raw-string",
        "triple-quoted-string",
        "dollar-escape",
        "interpolation-expression",
        "adjacent-strings",
        "null-aware-spread",
        "collection-if",
        "collection-for",
        "record",
        "pattern",
        "pattern-guard",
        "switch-expression",
        "cascade",
        "coon-syntax-in-string",
        "coon-lookalike-identifier",
    } <= found
    assert "mixin" not in found and "unicode-escape" not in found
    assert set(found) <= set(FEATURES)


# ------------------------------------------------------------------------------------------- corpus shape


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def test_complexity_grows_from_simple_to_complex() -> None:
    samples = load_corpus()
    gci = {b: _mean([s.gci for s in samples if s.band == b]) for b in BANDS}
    assert gci["simple"] < gci["composed"] < gci["stateful"] < gci["complex"]
    for metric in ("loc", "cyclomatic", "widgets", "max_depth"):
        per_band = {b: _mean([getattr(s, metric) for s in samples if s.band == b]) for b in BANDS}
        assert per_band["simple"] < per_band["composed"] < per_band["complex"], metric
        assert per_band["simple"] < per_band["stateful"] < per_band["complex"], metric
    classes = {b: _mean([s.classes for s in samples if s.band == b]) for b in BANDS}
    assert classes["simple"] <= classes["composed"] < classes["stateful"] < classes["complex"]


def test_edge_band_covers_every_feature() -> None:
    edge = load_corpus(["edge"])
    covered = set().union(*(s.features for s in edge))
    assert covered == set(FEATURES)
    assert all(s.features for s in edge)


def test_stateful_band_uses_set_state_and_navigation() -> None:
    for sample in load_corpus(["stateful"]):
        assert "extends StatefulWidget" in sample.source and "setState(" in sample.source, sample.id
    navigating = [s for s in load_corpus(["stateful"]) if "Navigator." in s.source]
    assert len(navigating) >= 10


def test_cli_checks_the_manifest_and_reports_bands(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m coonbench.datasets.corpus`` (the package's ``__main__``): --check passes on the committed
    manifest, and the summary counts every sample."""
    import subprocess
    import sys

    from coonbench.datasets.corpus.cli import main

    assert main(["--check"]) == 0 and capsys.readouterr().out.strip() == "manifest current"
    assert main([]) == 0
    assert f"total: {sum(BAND_SIZES.values())} samples" in capsys.readouterr().out
    run = subprocess.run([sys.executable, "-m", "coonbench.datasets.corpus", "--check"], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "manifest current", run.stderr[-500:]


def test_split_file_markers_reads_every_section() -> None:
    from coonbench.datasets.corpus import split_file_markers

    text = "=====\nFILE: lib/a.dart\n=====\nclass A {}\n=====\nFILE: lib/b.dart \n=====\nclass B {}\n"
    assert split_file_markers(text) == [("lib/a.dart", "class A {}\n"), ("lib/b.dart", "class B {}\n")]
