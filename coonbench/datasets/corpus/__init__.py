"""A language's built-in corpus (Dart's: ``data/dart/``, 100 original Flutter samples in five bands), a manifest of
their metrics, and the round-trip corpus the COON dialect is measured on.

One module per concern: ``manifest`` (the files, ``manifest.json`` and the integrity-checked loader; the metrics
are the language's, ``Language.measure``), ``sources`` (the round-trip corpus: the Dart files plus the upstream
samples), ``cli`` (``python -m coonbench.datasets.corpus --write-manifest | --check``). Every public name is
importable from here.
"""

from coonbench.datasets.corpus.manifest import (
    MANIFEST_COMMAND,
    MANIFEST_NAME,
    MANIFEST_VERSION,
    CorpusError,
    CorpusSample,
    band_summary,
    build_manifest,
    corpus_files,
    corpus_of,
    corpus_sample,
    load_corpus,
    write_manifest,
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
    "MANIFEST_COMMAND", "MANIFEST_NAME", "MANIFEST_VERSION", "REFERENCE_COON", "CorpusError", "CorpusSample",
    "SourceSample", "band_summary", "build_manifest", "corpus_files", "corpus_of", "corpus_sample",
    "iter_corpus", "iter_data_dart", "iter_reference_dart", "load_corpus", "split_file_markers",
    "write_manifest",
]
