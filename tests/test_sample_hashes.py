"""Every sample of every task and mode is byte-for-byte what it was when ``tests/sample_hashes.json`` was written
(``python tests/sample_hashes.py --write``, from the commit before the language seam): refactors move code, never
samples. A mode that differs names itself; ``python tests/sample_hashes.py --only MODE --dump DIR`` on both
checkouts shows which sample moved."""

from __future__ import annotations

import importlib.util
import json

import pytest

from sample_hashes import HASHES_FILE, MODES, digest, sample_records

STORED = json.loads(HASHES_FILE.read_text(encoding="utf-8"))


def test_every_mode_is_stored() -> None:
    assert set(STORED["modes"]) == set(MODES)
    for mode, entry in STORED["modes"].items():
        assert entry["task"] == MODES[mode][0] and entry["arguments"] == MODES[mode][1], mode
        assert entry["samples"] > 0, mode


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_samples_hash_as_before(mode: str) -> None:
    if "upstream" in mode and importlib.util.find_spec("coon") is not None:
        pytest.skip("stored without the optional package 'coon' (coon-upstream refuses every file then)")
    entry = STORED["modes"][mode]
    now = digest(sample_records(mode))
    assert now["samples"] == entry["samples"], f"{mode}: {now['samples']} samples, stored {entry['samples']}"
    assert now["ids"] == entry["ids"], f"{mode}: the sample ids (or their order) changed"
    assert now["sha256"] == entry["sha256"], f"{mode}: a sample's content changed"
