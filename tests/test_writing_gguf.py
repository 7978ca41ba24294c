"""``json-structured`` on the embedded model: the case's JSON schema becomes a llama.cpp grammar, so every document
the model writes under it parses. Fast: every case's schema converts to a grammar (the provider would otherwise
warn and decode unconstrained). Slow: Qwen2.5-Coder-0.5B in-process writes three cases under the grammar, and
each whole reply is one JSON value of the schema (no fence, no prose: what only a constrained decode guarantees)."""

from __future__ import annotations

import importlib.util
import json
import warnings
from pathlib import Path

import jsonschema
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig

from coonbench.answers.document import NO_DOCUMENT, PARSE_ERROR
from coonbench.datasets.writing import STRUCTURED
from coonbench.datasets.writing.cases import SHAPES, SIZES
from coonbench.evals.writing import writing
from coonbench.providers.catalog import QWEN_05B
from coonbench.solvers.writing import response_config

needs_llama = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                                 reason="needs llama-cpp-python (pip install -e '.[local]')")
needs_qwen = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or any(importlib.util.find_spec(package) is None
                                                         for package, _ in QWEN_05B.parts),
    reason=f"needs llama-cpp-python and the Qwen2.5-Coder-0.5B parts ({QWEN_05B.install})",
)


@needs_llama
@pytest.mark.parametrize("seed", [0, 1])
def test_every_cases_schema_becomes_a_llama_cpp_grammar(seed: int) -> None:
    from coonbench.providers.gguf import structured_output

    samples = list(writing(formats=STRUCTURED, sources="description", seed=seed).dataset)
    assert len(samples) == len(SHAPES) * len(SIZES)
    for sample in samples:
        config = GenerateConfig(**response_config(sample.metadata or {}))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "has no llama.cpp grammar; replying unconstrained" fails the test
            grammar = structured_output(config)
        assert grammar is not None and grammar["type"] == "json_object", sample.id
        assert grammar["schema"] == (sample.metadata or {})["response_schema"]


@pytest.mark.slow
@needs_qwen
def test_structured_documents_of_the_embedded_model_always_parse(tmp_path: Path) -> None:
    task = writing(formats=STRUCTURED, shapes="flat,irregular,invoice", sizes="small", sources="description",
                   repairs=0)
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
        document = json.loads(sample.output.completion)  # the whole reply is the document: no fence, no prose
        jsonschema.validate(document, sample.metadata["response_schema"])
