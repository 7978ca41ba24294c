"""Build upstream's Goth interpreter offline, so the Goth target runs on the real language.

Why a build and not a copy: upstream (``sigilante/goth``, MIT) is not on any registry we can reach, and its
source stays in ``../shared/reference/goth/upstream/crates`` (or a user's own checkout); nothing of it enters
this repository. At build time its four library crates (``goth-ast``, ``goth-parse``, ``goth-eval``,
``goth-check``: parser, resolver, type checker, evaluator, unchanged) are copied into a build folder under
``$COONBENCH_CACHE`` (default ``~/.cache/coonbench``) with two files of ours: ``lexer.rs`` in place of
upstream's ``logos``-derived lexer (no reachable registry carries ``logos``) and ``main.rs``, a command line
with upstream's output conventions and no REPL library. Dependencies come from Debian's ``librust-*-dev``
packages (``/usr/share/cargo/registry``) as a cargo directory source, with upstream's version requirements
relaxed to Debian's (``thiserror 1``, ``ordered-float 2``); cargo runs ``--offline``.

The result is ``<cache>/goth/bin/goth`` beside a stamp of everything that went into it; a second build with the
same inputs does nothing. The binary links only the C library (``/lib``, which the correction jail exposes) and
is world-readable and executable, so the sandbox runs it in every identity.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from coonbench.resources import SHARED_DIR

HERE = Path(__file__).resolve().parent
OURS = ("lexer.rs", "main.rs")
"""Our Rust files (beside this module): the lexer and the command line."""
LIBRARY_CRATES = ("goth-ast", "goth-parse", "goth-eval", "goth-check")
DEBIAN_REGISTRY = Path("/usr/share/cargo/registry")
DEBIAN_PACKAGES = (
    "librust-serde-dev", "librust-serde-derive-dev", "librust-serde-json-dev", "librust-bincode-dev",
    "librust-thiserror-dev", "librust-ordered-float-dev", "librust-libc-dev",
)
"""The Debian packages whose crates the build needs (``.ci/run`` installs them)."""
BUILD_VERSION = "2"
"""Bumped when the generated manifests change, so an old binary is rebuilt."""

# Each crate's manifest, ours: upstream's requirements relaxed to the Debian versions, no dev-dependencies
# (pretty_assertions is not packaged), no logos.
_PACKAGE = '[package]\nname = "{name}"\nversion = "0.2.0"\nedition = "2021"\nlicense = "MIT"\n\n'
MANIFESTS = {
    "goth-ast": '[dependencies]\nserde = { version = "1", features = ["derive", "rc"] }\nserde_json = "1"\n'
                'bincode = "1.3"\nthiserror = "1"\n',
    "goth-parse": '[dependencies]\ngoth-ast = { path = "../goth-ast" }\nthiserror = "1"\nserde_json = "1"\n'
                  'bincode = "1.3"\n',
    "goth-eval": '[dependencies]\ngoth-ast = { path = "../goth-ast" }\nthiserror = "1"\n'
                 'ordered-float = { version = "2", features = ["serde"] }\n\n'
                 "[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n",
    "goth-check": '[dependencies]\ngoth-ast = { path = "../goth-ast" }\nthiserror = "1"\n',
    "goth-cli": '[[bin]]\nname = "goth"\npath = "src/main.rs"\n\n[dependencies]\n'
                'goth-ast = { path = "../goth-ast" }\ngoth-eval = { path = "../goth-eval" }\n'
                'goth-parse = { path = "../goth-parse" }\ngoth-check = { path = "../goth-check" }\n',
}
WORKSPACE = ('[workspace]\nresolver = "2"\nmembers = ["goth-ast", "goth-parse", "goth-eval", "goth-check", '
             '"goth-cli"]\n\n[profile.release]\nopt-level = 2\n')
CARGO_CONFIG = ('[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "{registry}"\n\n'
                '[net]\noffline = true\n')


class GothBuildError(RuntimeError):
    """The interpreter could not be built; the message says what is missing and how to get it."""


def cache_dir() -> Path:
    """``$COONBENCH_CACHE/goth`` (default ``~/.cache/coonbench/goth``)."""
    return Path(os.environ.get("COONBENCH_CACHE") or Path.home() / ".cache" / "coonbench") / "goth"


def binary_path() -> Path:
    """Where the built interpreter is put."""
    return cache_dir() / "bin" / "goth"


def source_record() -> Path:
    """Where ``ensure_binary`` notes the source it was given (the Goth checkout the correction task reads the seed's
    prompts and battery from: ``coonbench.datasets.goth_seed``)."""
    return cache_dir() / "source"


def recorded_source() -> Path | None:
    """The source the last ``coonbench goth-setup`` was given, when one was recorded."""
    record = source_record()
    text = record.read_text(encoding="utf-8").strip() if record.is_file() else ""
    return Path(text) if text else None


def _record_source(given: Path) -> None:
    """Note ``given``; a cache this user cannot write keeps its record (the task then says where it looked)."""
    try:
        source_record().parent.mkdir(parents=True, exist_ok=True)
        source_record().write_text(str(given.resolve()) + "\n", encoding="utf-8")
    except OSError:
        pass


def default_source() -> Path:
    """Upstream's crates in the reference data beside the checkout."""
    return SHARED_DIR / "reference" / "goth" / "upstream" / "crates"


def crates_dir(given: Path) -> Path:
    """The folder holding the ``goth-*`` crates, for a user's checkout (its root or its ``crates/``)."""
    for candidate in (given, given / "crates"):
        if all((candidate / c / "src" / "lib.rs").is_file() for c in LIBRARY_CRATES):
            return candidate
    raise GothBuildError(f"{given}: not a Goth checkout (expected {', '.join(LIBRARY_CRATES)} under it or under "
                         "its crates/); the reference copy is ../shared/reference/goth/upstream/crates")


def _inputs(crates: Path) -> list[Path]:
    """Every file the build reads from the source tree, in a stable order."""
    files = [p for c in LIBRARY_CRATES for p in sorted((crates / c / "src").rglob("*")) if p.is_file()]
    return files + [HERE / name for name in OURS]


def stamp(crates: Path) -> str:
    """A digest of the inputs (upstream's source, our two files, the manifests): equal stamps, equal binaries."""
    digest = hashlib.sha256(BUILD_VERSION.encode())
    for text in (*MANIFESTS.values(), WORKSPACE):
        digest.update(text.encode())
    for path in _inputs(crates):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def up_to_date(crates: Path) -> bool:
    """Whether the built binary exists and was built from exactly these inputs."""
    stamp_file = binary_path().with_suffix(".stamp")
    return binary_path().is_file() and stamp_file.is_file() and stamp_file.read_text().strip() == stamp(crates)


def _check_tools() -> str:
    cargo = shutil.which("cargo") or (str(Path.home() / ".cargo/bin/cargo")
                                      if (Path.home() / ".cargo/bin/cargo").is_file() else None)
    if cargo is None:
        raise GothBuildError("building the Goth interpreter needs cargo (rustc >= 1.70); none found on PATH")
    missing = [c for c in ("serde-", "serde_json-", "bincode-", "thiserror-", "ordered-float-", "libc-")
               if not any(p.name.startswith(c) for p in DEBIAN_REGISTRY.glob("*"))]
    if missing:
        raise GothBuildError(f"the Debian crates are missing from {DEBIAN_REGISTRY} ({', '.join(missing)}): "
                             f"apt-get install {' '.join(DEBIAN_PACKAGES)}")
    return cargo


def _lay_out(crates: Path, build: Path) -> None:
    """The build folder: upstream's library sources, our lexer and command line, our manifests."""
    if build.exists():
        for name in (*LIBRARY_CRATES, "goth-cli"):
            shutil.rmtree(build / name, ignore_errors=True)
    build.mkdir(parents=True, exist_ok=True)
    for name in LIBRARY_CRATES:
        shutil.copytree(crates / name / "src", build / name / "src")
    (build / "goth-cli" / "src").mkdir(parents=True)
    lexer = (HERE / "lexer.rs").read_text(encoding="utf-8") + upstream_lexer_tests(crates)
    (build / "goth-parse" / "src" / "lexer.rs").write_text(lexer, encoding="utf-8")
    shutil.copyfile(HERE / "main.rs", build / "goth-cli" / "src" / "main.rs")
    for name, deps in MANIFESTS.items():
        (build / name / "Cargo.toml").write_text(_PACKAGE.format(name=name) + deps)
    (build / "Cargo.toml").write_text(WORKSPACE)
    (build / ".cargo").mkdir(exist_ok=True)
    (build / ".cargo" / "config.toml").write_text(CARGO_CONFIG.format(registry=DEBIAN_REGISTRY))
    (build / "Cargo.lock").unlink(missing_ok=True)


UPSTREAM_TESTS_MARK = "#[cfg(test)]\nmod tests {"


def upstream_lexer_tests(crates: Path) -> str:
    """Upstream's own lexer tests (the test module of its ``lexer.rs``), to run against our lexer in the build
    folder (``cargo test``; they are compiled only for tests, so the binary is the same); empty when absent."""
    text = (crates / "goth-parse" / "src" / "lexer.rs").read_text(encoding="utf-8", errors="replace")
    at = text.find(UPSTREAM_TESTS_MARK)
    if at < 0:
        return ""
    return "\n// Upstream's lexer tests, run against this lexer (build folder only)\n#[cfg(test)]\nmod upstream_tests {" + \
        text[at + len(UPSTREAM_TESTS_MARK):]


def run_parser_tests(log: Path | None = None) -> tuple[bool, str]:
    """``cargo test -p goth-parse`` in the build folder: upstream's parser and loader tests and upstream's lexer
    tests, all on our lexer. Returns (all passed, the ``test result`` lines or the failure's tail)."""
    cargo = _check_tools()
    build = cache_dir() / "build"
    env = {**os.environ, "CARGO_TARGET_DIR": str(build / "target"), "CARGO_NET_OFFLINE": "true"}
    out = subprocess.run([cargo, "test", "--release", "--offline", "-p", "goth-parse"], cwd=build, env=env,
                         capture_output=True, text=True)
    text = out.stdout + out.stderr
    if log is not None:
        log.write_text(text)
    lines = [ln for ln in text.splitlines() if ln.startswith("test result:") or " FAILED" in ln or "panicked" in ln]
    return out.returncode == 0, "\n".join(lines or text.strip().splitlines()[-20:])


@dataclass(frozen=True)
class Setup:
    """What ``ensure_binary`` did."""

    binary: Path
    built: bool
    source: Path


def ensure_binary(source: Path | None = None, log: Path | None = None) -> Setup:
    """The interpreter built from ``source`` (default: the reference copy), building it only when its inputs
    changed. Raises ``GothBuildError`` with the reason when it cannot be built."""
    given = source or default_source()
    if not given.exists():
        raise GothBuildError(f"{given}: no such folder; the Goth source is ../shared/reference/goth/upstream/crates "
                             "(README, 'Reference data') or the path of your own Goth checkout")
    crates = crates_dir(given)
    if up_to_date(crates):
        _record_source(given)
        return Setup(binary_path(), False, crates)
    cache_dir().mkdir(parents=True, exist_ok=True)
    with open(cache_dir() / "build.lock", "w") as lock:  # two processes building at once tear one build folder
        fcntl.flock(lock, fcntl.LOCK_EX)
        if up_to_date(crates):  # the other process built it while this one waited
            _record_source(given)
            return Setup(binary_path(), False, crates)
        return _build(given, crates, log)


def _build(given: Path, crates: Path, log: Path | None) -> Setup:
    """Lay out the build folder and run cargo (under ``ensure_binary``'s lock)."""
    cargo = _check_tools()
    build = cache_dir() / "build"
    _lay_out(crates, build)
    env = {**os.environ, "CARGO_TARGET_DIR": str(build / "target"), "CARGO_NET_OFFLINE": "true"}
    out = subprocess.run([cargo, "build", "--release", "--offline", "-p", "goth-cli"], cwd=build, env=env,
                         capture_output=True, text=True)
    if log is not None:
        log.write_text(out.stdout + out.stderr)
    if out.returncode != 0:
        tail = "\n".join((out.stdout + out.stderr).strip().splitlines()[-25:])
        raise GothBuildError(f"cargo build failed in {build}:\n{tail}")
    target = binary_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".new")
    shutil.copyfile(build / "target" / "release" / "goth", tmp)
    tmp.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    os.replace(tmp, target)
    target.with_suffix(".stamp").write_text(stamp(crates) + "\n")
    _record_source(given)
    return Setup(target, True, crates)


def find_binary() -> str | None:
    """The interpreter to run: ``$COONBENCH_GOTH`` if set, else the built one, else ``goth`` on PATH."""
    env = os.environ.get("COONBENCH_GOTH")
    if env:
        return env if os.access(env, os.X_OK) else None
    built = binary_path()
    if built.is_file() and os.access(built, os.X_OK):
        return str(built)
    return shutil.which("goth")
