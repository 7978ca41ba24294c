"""The embedded GGUF models behind an OpenAI-compatible HTTP server on loopback (llama-cpp-python's server).

Why: vLLM, SGLang and hosted engines are all reached through the OpenAI chat API, which Inspect drives with its
``openai-api/<service>/<model>`` provider. Serving SmolLM2 the same way runs that path offline, on a CPU.

    python -m coonbench.providers.serve --port 8000 --api-key local-key      # serves until Ctrl-C
    python -m coonbench.providers.serve -- inspect eval evals/comprehension.py --model openai-api/local/smollm2 ...

With a command after ``--`` the server takes a free port, the command runs with ``LOCAL_BASE_URL`` and
``LOCAL_API_KEY`` set for it (``--service`` names the prefix), and the server stops when the command ends; the exit
status is the command's. Weights are found as for ``--model gguf/<name>`` (``coonbench.providers.gguf``), and on a
CPU whose llama.cpp build uses AMX they load into plain buffers, as there. Needs ``pip install -e ".[serve]"``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from coonbench.providers.gguf import (
    KNOWN_CHAT_FORMATS,
    GGUFProviderError,
    _plain_weight_buffers,
    context_length,
    import_llama_cpp,
    resolve_model_path,
    usable_cores,
)
from coonbench.tokens import pip_install

HOST = "127.0.0.1"
DEFAULT_SERVICE = "local"
READY_SECONDS = 60.0
"""How long the wrapper waits for the HTTP server to accept requests once the model is loaded."""
STOP_SECONDS = 10.0
INSTALL_SERVER = f'{pip_install("serve")}  (or: pip install "llama-cpp-python[server]==0.3.36")'


def env_names(service: str) -> tuple[str, str]:
    """The variables Inspect's ``openai-api/<service>/…`` provider reads: ``<SERVICE>_BASE_URL``, ``_API_KEY``."""
    prefix = service.upper().replace("-", "_")
    return f"{prefix}_BASE_URL", f"{prefix}_API_KEY"


def build_app(model: str, model_path: str | None, n_ctx: int | None, n_threads: int | None, api_key: str) -> Any:
    """llama-cpp-python's FastAPI app with the model loaded (under the AMX workaround), named ``model``."""
    path = resolve_model_path(model, model_path).resolve()
    llama_cpp = import_llama_cpp()
    try:
        from llama_cpp.server.app import create_app
        from llama_cpp.server.settings import ModelSettings, ServerSettings
    except ImportError as ex:
        raise GGUFProviderError(f"serving needs llama-cpp-python's server extra ({ex}). Install: {INSTALL_SERVER}")
    threads = n_threads or usable_cores()
    settings = ModelSettings(
        model=str(path),
        model_alias=model,
        n_ctx=context_length(path, n_ctx),
        n_threads=threads,
        n_threads_batch=threads,
        chat_format=KNOWN_CHAT_FORMATS.get(model.lower()) if model_path is None else None,
        seed=0,
        verbose=False,
    )
    with _plain_weight_buffers(llama_cpp):
        return create_app(server_settings=ServerSettings(host=HOST, api_key=api_key), model_settings=[settings])


def bind(port: int) -> socket.socket:
    """A listening socket on loopback (port 0: a free one), bound before the server starts, so no other process can
    take the port in between."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(64)
    return sock


def make_server(app: Any) -> Any:
    """A quiet uvicorn server for ``app`` (warnings and errors only, no access log)."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))


@contextlib.contextmanager
def running(server: Any, sock: socket.socket) -> Iterator[None]:
    """``server`` answering on ``sock`` in a thread for the duration of the block; stopped (and joined) after."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="coonbench-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + READY_SECONDS
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        if not server.started:
            raise GGUFProviderError(f"the HTTP server did not start within {READY_SECONDS:.0f} s")
        yield
    finally:
        server.should_exit = True
        thread.join(STOP_SECONDS)
        sock.close()


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Options before ``--``; the command to run after it (empty: serve until interrupted)."""
    command: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, command = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(prog="python -m coonbench.providers.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="smollm2", help="a gguf/ model name (smollm2, gemma3-270m) or a label")
    parser.add_argument("--model-path", help="any GGUF file (then --model is only the name it is served under)")
    parser.add_argument("--port", type=int, default=None, help="default: 8000, or a free port when a command runs")
    parser.add_argument("--api-key", help="the key clients must send (default: a random one)")
    parser.add_argument("--service", default=DEFAULT_SERVICE, help="prefix of the variables set for the command")
    parser.add_argument("--n-ctx", type=int, default=None)
    parser.add_argument("--n-threads", type=int, default=None)
    args = parser.parse_args(argv)
    if args.port is None:
        args.port = 0 if command else 8000
    return args, command


def main(argv: list[str] | None = None) -> int:
    args, command = parse_args(sys.argv[1:] if argv is None else argv)
    api_key = args.api_key or secrets.token_hex(16)
    try:
        app = build_app(args.model, args.model_path, args.n_ctx, args.n_threads, api_key)
        sock = bind(args.port)
    except (GGUFProviderError, OSError) as ex:
        print(f"coonbench serve: {ex}", file=sys.stderr)
        return 2
    url = f"http://{HOST}:{sock.getsockname()[1]}/v1"
    base_var, key_var = env_names(args.service)
    server = make_server(app)
    if not command:
        print(f"serving {args.model} at {url} (Ctrl-C stops it); for --model openai-api/{args.service}/{args.model}:")
        print(f"export {base_var}={url} {key_var}={api_key}", flush=True)
        server.run(sockets=[sock])
        return 0
    with running(server, sock):
        print(f"serving {args.model} at {url} for: {' '.join(command)}", file=sys.stderr, flush=True)
        try:
            return subprocess.run(command, env={**os.environ, base_var: url, key_var: api_key}).returncode
        except FileNotFoundError as ex:
            print(f"coonbench serve: cannot run {command[0]!r}: {ex.strerror}", file=sys.stderr)
            return 127
        except KeyboardInterrupt:
            return 130


if __name__ == "__main__":
    raise SystemExit(main())
