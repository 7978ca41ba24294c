"""Every sample of every task, in every mode that matters, hashed: the check that a refactor changed no sample.

``python tests/sample_hashes.py --write`` builds each mode's task (the ``@task`` function called as ``inspect eval``
would, with the model under test ``mockllm/model``), hashes each sample's JSON (id, input, target, choices,
metadata, files, setup…: ``Sample.model_dump``, less the random ids Inspect gives chat messages) and the task's own metadata, and writes, per mode, the number of
samples, a digest of the ids in order and a digest of the whole, to ``tests/sample_hashes.json``.
``tests/test_sample_hashes.py`` builds them again and compares. The checkout's own path is replaced by ``<repo>``
before hashing, so the digests do not depend on where the checkout lies. ``--dump DIR`` also writes one JSON line per
sample per mode (to diff two checkouts when a digest moves); ``--only NAME`` builds the modes whose name starts so.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HASHES_FILE = Path(__file__).with_name("sample_hashes.json")
VERSION = 1
MODEL = "mockllm/model"

# name → (task, -T arguments). Every task with its defaults; the code tasks also in the modes that change what a
# sample holds: every prompt template, other formats and primers, a directory of Dart as the corpus, bands, kinds,
# a tokenizer, a drawn subset, mined edits and multi-turn sessions. ``{dart_dir}`` is the repository's data/dart.
MODES: dict[str, tuple[str, dict[str, Any]]] = {
    "comprehension": ("comprehension", {}),
    "comprehension-prompts-all": ("comprehension", {"prompts": "all", "bands": "simple"}),
    "comprehension-full-legend": ("comprehension", {"formats": "coon:full,coon:legend,dart-minified", "primer": "full"}),
    "comprehension-primer-legend": ("comprehension", {"primer": "legend", "bands": "complex,edge"}),
    "comprehension-corpus": ("comprehension", {"corpus": "{dart_dir}/stateful"}),
    "comprehension-corpus-band": ("comprehension", {"corpus": "{dart_dir}", "bands": "gci-high"}),
    "comprehension-types": ("comprehension", {"question_types": "structure,semantic", "formats": "coon,dart"}),
    "comprehension-subset": ("comprehension", {"questions": 40, "seed": 3}),
    "comprehension-tokenizer": ("comprehension", {"tokenizer": "cl100k_base", "bands": "composed"}),
    "comprehension-upstream": ("comprehension", {"formats": "coon-upstream,dart", "bands": "simple"}),
    "generation": ("generation", {}),
    "generation-formats": ("generation", {"formats": "coon,coon:noprimer,dart-minified,dart"}),
    "generation-prompts-all": ("generation", {"prompts": "all", "bands": "stateful"}),
    "generation-corpus": ("generation", {"corpus": "{dart_dir}/complex", "primer": "legend"}),
    "generation-kinds": ("generation", {"kinds": "nl-to-coon", "bands": "simple,edge", "primer": "full"}),
    "modification": ("modification", {}),
    "modification-formats": ("modification", {"formats": "coon,dart-minified,dart", "bands": "composed"}),
    "modification-prompts-all": ("modification", {"prompts": "all", "bands": "simple"}),
    "modification-corpus": ("modification", {"corpus": "{dart_dir}/edge", "kinds": "fix-bug,refactor"}),
    "modification-turns": ("modification", {"turns": 3, "formats": "coon,dart"}),
    "modification-edits": ("modification", {"source": "edits", "formats": "coon,dart-minified,dart"}),
    "modification-edits-turns": ("modification", {"source": "edits", "turns": 2}),
    "modification-subset": ("modification", {"questions": 30, "seed": 7, "primer": "legend"}),
    "handoff": ("handoff", {}),
    "handoff-modes": ("handoff", {"modes": "comprehension,modification", "questions": 60, "seed": 2}),
    "structure": ("structure", {}),
    "structure-prompts-all": ("structure", {"prompts": "all", "primer": "short,full"}),
    "retrieval": ("retrieval", {}),
    "tools": ("tools", {}),
    "writing": ("writing", {}),
    "correction": ("correction", {}),
}


def _repo() -> Path:
    from coonbench.resources import REPO_ROOT

    return Path(REPO_ROOT)


def _arguments(args: dict[str, Any]) -> dict[str, Any]:
    dart_dir = str(_repo() / "data" / "dart")
    return {k: v.replace("{dart_dir}", dart_dir) if isinstance(v, str) else v for k, v in args.items()}


@contextmanager
def _model_under_test() -> Iterator[None]:
    """``mockllm/model`` as the model under test (what ``inspect eval --model mockllm/model`` makes of it)."""
    before = os.environ.get("INSPECT_EVAL_MODEL")
    os.environ["INSPECT_EVAL_MODEL"] = MODEL
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("INSPECT_EVAL_MODEL", None)
        else:
            os.environ["INSPECT_EVAL_MODEL"] = before


def _task_function(name: str) -> Callable[..., Any]:
    from inspect_ai._util.registry import registry_lookup  # noqa: PLC2701  (a test helper; the registry's lookup)

    import coonbench._registry  # noqa: F401 - registers every coonbench task

    found = registry_lookup("task", f"coonbench/{name}")
    if found is None:
        raise LookupError(f"task coonbench/{name} is not registered")
    return found  # type: ignore[no-any-return]


def _without_message_ids(value: Any) -> Any:
    """``value`` with every chat message's ``id`` left out (Inspect gives each message a random one)."""
    if isinstance(value, list):
        return [_without_message_ids(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_message_ids(v) for k, v in value.items() if not (k == "id" and "role" in value)}
    return value


def _text(value: Any, repo: str) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).replace(repo, "<repo>")


def sample_records(mode: str) -> list[tuple[str, str]]:
    """(id, JSON) of every sample of one mode, in dataset order, then ("<task metadata>", JSON)."""
    task_name, args = MODES[mode]
    repo = str(_repo())
    with _model_under_test():
        task = _task_function(task_name)(**_arguments(args))
    out = [(str(s.id), _text(_without_message_ids(s.model_dump(mode="json")), repo)) for s in task.dataset]
    out.append(("<task metadata>", _text(task.metadata, repo)))
    return out


def digest(records: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A mode's entry: sample count, digest of the ids in order, digest of every (id, JSON)."""
    ids = hashlib.sha256()
    whole = hashlib.sha256()
    for sid, text in records:
        ids.update(sid.encode() + b"\0")
        whole.update(sid.encode() + b"\0" + hashlib.sha256(text.encode()).digest())
    return {"samples": len(records) - 1, "ids": ids.hexdigest(), "sha256": whole.hexdigest()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {HASHES_FILE.name}")
    parser.add_argument("--dump", type=Path, help="also write every sample's JSON, one file per mode")
    parser.add_argument("--only", default="", help="only the modes whose name starts with this")
    opts = parser.parse_args(argv)
    stored = json.loads(HASHES_FILE.read_text(encoding="utf-8")) if HASHES_FILE.exists() else {}
    entries: dict[str, Any] = dict(stored.get("modes", {}))
    moved = 0
    print(f"building from {_repo()}", flush=True)
    for mode in MODES:
        if not mode.startswith(opts.only):
            continue
        records = sample_records(mode)
        entries[mode] = entry = {"task": MODES[mode][0], "arguments": MODES[mode][1], **digest(records)}
        same = stored.get("modes", {}).get(mode) == entry
        moved += not same
        print(f"{mode}: {entry['samples']} samples {entry['sha256'][:12]}{'' if same else ' (differs)'}", flush=True)
        if opts.dump:
            opts.dump.mkdir(parents=True, exist_ok=True)
            (opts.dump / f"{mode}.jsonl").write_text("".join(f"{t}\n" for _, t in records), encoding="utf-8")
    if opts.write:
        data = {"version": VERSION, "model": MODEL, "command": "python tests/sample_hashes.py --write",
                "modes": {m: entries[m] for m in MODES if m in entries}}
        HASHES_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 1 if moved and not opts.write else 0


if __name__ == "__main__":
    sys.exit(main())
