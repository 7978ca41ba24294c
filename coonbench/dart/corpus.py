"""Re-export of the round-trip corpus, which now lives in ``coonbench.datasets.corpus``.

Kept only for importers not yet moved (``benchmarks/coon_tokens.py``, ``tests/test_coon_roundtrip.py``); it breaks
the layer rule (``coonbench/dart/`` must not import ``coonbench/datasets/``), so delete it once they import
``coonbench.datasets.corpus`` directly.
"""

from coonbench.datasets.corpus import (
    REFERENCE_COON,
    SourceSample,
    iter_corpus,
    iter_data_dart,
    iter_reference_dart,
    split_file_markers,
)

Sample = SourceSample

__all__ = ["REFERENCE_COON", "Sample", "iter_corpus", "iter_data_dart", "iter_reference_dart", "split_file_markers"]
