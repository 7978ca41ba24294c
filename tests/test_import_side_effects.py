"""Importing coonbench changes nothing: no file written (tiktoken's BPE files are installed when a task or command
runs), no import hook installed; and a format plug-in installed beside coonbench leaves the tools task's default
dataset as it was. Each check runs in a fresh interpreter, so what an earlier test imported cannot hide it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_IMPORT = """
import json, os, sys
from pathlib import Path
def files():
    return sorted(str(p) for p in Path(os.environ["SCRATCH"]).rglob("*"))
before = [type(f).__module__ for f in sys.meta_path]
path_hooks = list(sys.path_hooks)
import coonbench
import coonbench._registry  # what Inspect loads for every task, others' too
from coonbench.formats import list_formats
list_formats()  # every format plug-in imported
after_import = sorted(os.listdir(os.environ["TIKTOKEN_CACHE_DIR"]))
written = files()
hooks = [type(f).__module__ for f in sys.meta_path] + (["path_hooks changed"] if sys.path_hooks != path_hooks else [])
from coonbench.cli import main
main(["formats"])
after_command = sorted(os.listdir(os.environ["TIKTOKEN_CACHE_DIR"]))
print(json.dumps({"before": before, "hooks": hooks, "after_import": after_import, "after_command": after_command,
                  "written": written}))
"""

_TASK = """
import json, os
from coonbench.evals.tools import tools
tools(formats="json", questions=1)
print(json.dumps(sorted(os.listdir(os.environ["TIKTOKEN_CACHE_DIR"]))))
"""

_PLUGIN = """
import json
from coonbench.datasets.tools import tools_pending
from coonbench.formats.base import register
from coonbench.formats.json import JsonFormat

def ids(formats=None):
    pending = tools_pending() if formats is None else tools_pending(formats)
    return [f"{p.key}-{p.format}" for p in pending[0]]  # the sample ids: tools-<question>-<format>

first = ids()

class PluginJson(JsonFormat):
    name = "plugin-json"
    description = "someone's plug-in format"

register(PluginJson())
from coonbench.datasets.retrieval.conditions import data_format_names
then = ids()
every = ids("all")
print(json.dumps({"first": first, "then": then, "registered": data_format_names(), "every": every}))
"""


def _child(code: str, cache: Path) -> str:
    """``code`` in a fresh interpreter whose home, temporary folder, caches and working folder are empty folders
    beside ``cache`` (``SCRATCH``: their parent), so that a file written anywhere a library would write shows."""
    scratch = cache.parent
    for name in ("home", "tmp", "cwd"):
        (scratch / name).mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TIKTOKEN_CACHE_DIR": str(cache), "HOME": str(scratch / "home"),
           "TMPDIR": str(scratch / "tmp"), "XDG_CACHE_HOME": str(scratch / "home" / ".cache"),
           "SCRATCH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
    for name in ("DATA_GYM_CACHE_DIR", "HF_HOME", "INSPECT_LOG_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          cwd=scratch / "cwd")
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_importing_coonbench_writes_nothing_and_installs_no_hook(tmp_path: Path) -> None:
    from coonbench.tokens import ENCODINGS

    cache = tmp_path / "tiktoken"
    cache.mkdir()
    seen = json.loads(_child(_IMPORT, cache))
    assert seen["after_import"] == []
    assert seen["written"] == [str(tmp_path / name) for name in ("cwd", "home", "tiktoken", "tmp")], seen["written"]
    assert [m for m in seen["hooks"] if m.startswith("coonbench")] == []  # (libraries, e.g. six, add their own)
    assert len(seen["after_command"]) == len(ENCODINGS)  # a command installs them: tiktoken works offline


def test_a_task_installs_the_bpe_files_it_needs(tmp_path: Path) -> None:
    from coonbench.tokens import ENCODINGS

    cache = tmp_path / "tiktoken"
    cache.mkdir()
    assert len(json.loads(_child(_TASK, cache))) == len(ENCODINGS)


def test_a_format_plug_in_leaves_the_tools_default_dataset_unchanged(tmp_path: Path) -> None:
    seen = json.loads(_child(_PLUGIN, tmp_path))
    assert "plugin-json" in seen["registered"]  # the plug-in is registered ...
    assert any(i.endswith("-plugin-json") for i in seen["every"])  # ... and `-T formats=all` shows it
    assert seen["then"] == seen["first"] and seen["first"]
    assert not any(i.endswith("-plugin-json") for i in seen["then"])
