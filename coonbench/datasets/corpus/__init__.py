"""The Dart/Flutter corpus (``data/dart/``): 100 original Flutter samples in five bands, a manifest of their metrics,
and the round-trip corpus the COON dialect is measured on.

One module per concern: ``metrics`` (what is measured on one Dart source, read from its syntax tree),
``manifest`` (the files, ``data/dart/manifest.json`` and the integrity-checked loader), ``sources`` (the
round-trip corpus: these files plus the upstream samples), ``cli`` (``python -m coonbench.datasets.corpus
--write-manifest | --check``). Every public name is importable from here.
"""

from coonbench.datasets.corpus.manifest import (
    BAND_SIZES,
    BANDS,
    CORPUS_DIR,
    MANIFEST_COMMAND,
    MANIFEST_NAME,
    MANIFEST_VERSION,
    CorpusError,
    CorpusSample,
    band_summary,
    build_manifest,
    corpus_files,
    load_corpus,
    write_manifest,
)
from coonbench.datasets.corpus.metrics import (
    COON_LOOKALIKES,
    FEATURES,
    GCI_SCALES,
    GCI_WEIGHTS,
    STATIC_HELPERS,
    WIDGET_BASES,
    count_loc,
    cyclomatic_complexity,
    detect_features,
    general_complexity_index,
    measure,
    widget_metrics,
)
from coonbench.datasets.corpus.sources import (
    REFERENCE_COON,
    SourceSample,
    iter_corpus,
    iter_data_dart,
    iter_reference_dart,
    split_file_markers,
)

__all__ = [
    "BANDS", "BAND_SIZES", "COON_LOOKALIKES", "CORPUS_DIR", "FEATURES", "GCI_SCALES", "GCI_WEIGHTS",
    "MANIFEST_COMMAND", "MANIFEST_NAME", "MANIFEST_VERSION", "REFERENCE_COON", "STATIC_HELPERS", "WIDGET_BASES",
    "CorpusError", "CorpusSample", "SourceSample", "band_summary", "build_manifest", "corpus_files", "count_loc",
    "cyclomatic_complexity", "detect_features", "general_complexity_index", "iter_corpus", "iter_data_dart",
    "iter_reference_dart", "load_corpus", "measure", "split_file_markers", "widget_metrics", "write_manifest",
]
