"""``coonbench mine-edits`` on hostile repositories: their configuration is data, never instructions; a huge blob
is refused by its size before it is read; one commit git dates oddly is skipped, naming repository and commit.

Each repository is built here, and a control shows each trap is live: plain git, run on it, starts the program the
configuration names (the marker file appears), so the miner leaving no marker is the defence, not a dead trap."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from coonbench.datasets.edits.git import read_bounded
from coonbench.datasets.edits.mine import mine_repo, repo_name, why_not
from tests.memguard import run_guarded
from tests.test_edits_mining import BASE, MIT, S1, S2

BIG_MIB = 200


def _git(repo: Path, *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, input=stdin, timeout=60,
                          env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, **(env or {})})
    return done.stdout.decode().strip()


def _repo(root: Path, after: bytes | str = S1) -> Path:
    """LICENSE and lib/home.dart, then one commit that edits lib/home.dart (the miner's one candidate)."""
    repo = root / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "LICENSE").write_text(MIT, encoding="utf-8")
    (repo / "lib").mkdir()
    (repo / "lib" / "home.dart").write_text(BASE, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "initial")
    target = repo / "lib" / "home.dart"
    target.write_bytes(after) if isinstance(after, bytes) else target.write_text(after, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Center the greeting")
    return repo


def _signed_commit(repo: Path, subject: str, committer: str = "1700000000 +0000") -> str:
    """A commit object on HEAD's tree and parent with a (fake) PGP signature and the given committer date, made
    HEAD: ``log.showSignature`` hands such a commit to ``gpg.program``."""
    tree, parent = _git(repo, "rev-parse", "HEAD^{tree}"), _git(repo, "rev-parse", "HEAD^")
    body = (f"tree {tree}\nparent {parent}\nauthor t <t@example.com> 1700000000 +0000\n"
            f"committer t <t@example.com> {committer}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAd\n"
            f" -----END PGP SIGNATURE-----\n\n{subject}\n")
    commit = _git(repo, "hash-object", "-t", "commit", "-w", "--literally", "--stdin", stdin=body.encode())
    _git(repo, "update-ref", "HEAD", commit)
    return commit


def _program(marks: Path, name: str) -> str:
    """A program that leaves the marker ``name`` (and fails: git gets nothing from it)."""
    script = marks.parent / "bin" / name
    script.parent.mkdir(exist_ok=True)
    script.write_text(f'#!/bin/sh\ntouch "{marks}/{name}"\nexit 1\n', encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def _arm(repo: Path, marks: Path) -> None:
    """Every configuration key of the repository that names a program, set to one that leaves a marker."""
    marks.mkdir()
    hooks = repo.parent / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "post-commit", "pre-commit", "post-index-change", "reference-transaction",
                 "fsmonitor-watchman", "pre-auto-gc"):
        Path(_program(marks, f"hook-{hook}")).rename(hooks / hook)
    keys = ("core.pager", "pager.log", "pager.show", "gpg.program", "gpg.ssh.program", "gpg.x509.program",
            "core.fsmonitor", "filter.evil.smudge", "filter.evil.clean", "filter.evil.process", "diff.evil.textconv",
            "diff.evil.command", "diff.external", "core.sshCommand", "remote.origin.uploadpack", "core.askPass")
    settings = {key: _program(marks, key) for key in keys}
    settings.update({"log.showSignature": "true", "core.hooksPath": str(hooks),
                     "credential.helper": "!" + _program(marks, "credential.helper"),
                     "remote.origin.url": "file:///nonexistent/owner/name.git",
                     "core.attributesFile": str(repo.parent / "attributes")})
    for key, value in settings.items():
        _git(repo, "config", key, value)
    attributes = "* filter=evil diff=evil\n"
    (repo.parent / "attributes").write_text(attributes, encoding="utf-8")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text(attributes, encoding="utf-8")


def test_a_repository_configuration_starts_nothing_the_miner_runs(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    marks = tmp_path / "marks"
    commit = _signed_commit(repo, "Center the greeting")
    _arm(repo, marks)
    # the control: plain git obeys the repository (its signature program, fsmonitor, filter process)
    for control in (["log", "-1"], ["show", commit], ["log", "-p", "--no-ext-diff", "-1"], ["status"]):
        try:
            subprocess.run(["git", "-C", str(repo), *control], capture_output=True, stdin=subprocess.DEVNULL,
                           timeout=20, env={**os.environ, "GIT_PAGER": ""})
        except subprocess.TimeoutExpired:  # a filter that stops answering stalls git: its marker is there
            pass
    assert {"gpg.program", "core.fsmonitor", "filter.evil.process"} <= {p.name for p in marks.iterdir()}, sorted(p.name for p in marks.iterdir())
    for mark in list(marks.iterdir()):
        mark.unlink()
    kept, dropped, _ = mine_repo(repo)
    assert [e.after for e in kept] == [S1] and [e.commit for e in kept] == [commit], dropped
    assert kept[0].repo == "owner/name"  # the origin URL is data, read (never fetched)
    assert sorted(p.name for p in marks.iterdir()) == []
    # the configuration overrides alone, without the miner's flags and plumbing, stop the programs named by key
    # (the signature program, fsmonitor, a promisor's upload-pack). Filter and textconv drivers are named through
    # attributes, which .git/info/attributes gives and git 2.39 cannot switch off: hence the miner's plumbing.
    for control in (["log", "-1"], ["status"], ["fetch", "origin"]):
        read_bounded(repo, tuple(control))
    by_key = {"gpg.program", "core.fsmonitor", "remote.origin.uploadpack", "core.sshCommand", "core.pager"}
    assert sorted(p.name for p in marks.iterdir() if p.name in by_key) == []


def test_the_environment_s_git_variables_do_not_steer_the_miner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    repo = _repo(tmp_path)
    marks = tmp_path / "marks"
    marks.mkdir()
    script = tmp_path / "evil.sh"
    script.write_text(f'#!/bin/sh\ntouch "{marks}/$1"\nexit 1\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", f"{script} external-diff")
    monkeypatch.setenv("GIT_PAGER", f"{script} pager")
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))  # would point git at another repository
    kept, _, _ = mine_repo(repo)
    assert [e.after for e in kept] == [S1]
    assert sorted(p.name for p in marks.iterdir()) == []


def test_a_200_mib_blob_is_refused_by_its_size_never_read(tmp_path: Path) -> None:
    big = b"// " + b"x" * (BIG_MIB << 20) + b"\n"
    repo = _repo(tmp_path, after=big)
    del big
    code = f"""
import json
from coonbench.datasets.edits.git import read_bounded
from coonbench.datasets.edits.mine import mine_repo
kept, dropped, _ = mine_repo({str(repo)!r})
print(json.dumps({{"kept": len(kept), "dropped": dropped}}))
"""
    run = run_guarded(code, limit_mib=1024, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {"kept": 0, "dropped": {"too large": 1}}
    # a Python process with the miner imported is ~110 MiB; the blob would add 200 MiB (twice, decoded)
    assert run.peak_mib < 180, run.peak_mib
    assert run.children_peak_mib < 100, run.children_peak_mib  # git itself never inflated the blob


def test_a_file_over_max_bytes_is_too_large() -> None:
    assert why_not(BASE, S1, "lib/home.dart", max_bytes=len(S1.encode())) is None
    assert why_not(BASE, S1, "lib/home.dart", max_bytes=len(S1.encode()) - 1) == "too large"


def test_an_unparseable_commit_date_skips_that_commit_naming_repo_and_commit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, after=S1)
    bad = _signed_commit(repo, "Center the greeting", committer="1700000000 +9959")  # "+99:59": no datetime
    (repo / "lib" / "home.dart").write_text(S2, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Allow two lines")
    from coonbench.cli import main

    assert main(["mine-edits", str(repo), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert f"{repo_name(repo)}: commit {bad}: unparseable commit date '2023-11-19T02:12:20+99:59'; skipped" in err
    rows = [json.loads(line) for line in (tmp_path / "out" / "edits.jsonl").read_text().splitlines() if line]
    assert [r["after"] for r in rows] == [S2]
