"""``coonbench mine-edits --companions / --min-chain / --append``: the options the shipped sessions were mined with,
on a repository built here, so what each keeps is known by construction."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from coonbench.cli import main
from coonbench.datasets.edits.mine import candidates, follows, link_chains, mine_repo, version_bump, why_not
from coonbench.datasets.edits.store import MinedEdit
from coonbench.datasets.edits.samples import chains, mined_sessions
from coonbench.datasets.edits.store import read_edits

MIT = (Path(__file__).resolve().parent.parent / "LICENSE").read_text(encoding="utf-8")
BASE = """import 'package:flutter/material.dart';

class Home extends StatelessWidget {
  const Home({super.key});

  @override
  Widget build(BuildContext context) {
    return Column(children: [Text('Hello'), Text('World')]);
  }
}
"""
S1 = BASE.replace("Text('Hello')", "Text('Hello', textAlign: TextAlign.center)")
S2 = S1.replace("Text('World')", "Text('World', maxLines: 2)")
S3 = S2.replace("maxLines: 2", "maxLines: 3")
S4 = S3.replace("Column(", "Row(")
LONE = BASE.replace("Text('World')", "Text('Earth')")


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env=None if env is None else {**os.environ, **env})


def _commit(repo: Path, subject: str, files: dict[str, str]) -> None:
    """A commit one day after the previous one (``--append`` merges two sets by commit date)."""
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    day = len(subprocess.run(["git", "-C", str(repo), "log", "--oneline"], capture_output=True, text=True).stdout.splitlines())
    date = f"2024-01-{day + 1:02d}T12:00:00+00:00"
    _git(repo, "commit", "-q", "-m", subject, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """home.dart edited four times: with a changelog, alone, with the pubspec, then with another Dart file."""
    repo = tmp_path_factory.mktemp("companions")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    _commit(repo, "initial", {"LICENSE": MIT, "lib/home.dart": BASE, "lib/other.dart": BASE,
                              "CHANGELOG.md": "# 1\n", "pubspec.yaml": "name: x\n"})
    _commit(repo, "one", {"lib/home.dart": S1, "CHANGELOG.md": "# 2\n"})  # a companion: the changelog
    _commit(repo, "two", {"lib/home.dart": S2})  # Dart alone
    _commit(repo, "three", {"lib/home.dart": S3, "pubspec.yaml": "name: x\nversion: 2.0.0\n"})  # the pubspec
    _commit(repo, "four", {"lib/home.dart": S4, "lib/other.dart": S1})  # two Dart files: never a candidate
    _commit(repo, "lone", {"lib/other.dart": LONE, "README.md": "x\n"})  # a chain of one
    return repo


def test_companions_admit_a_changelog_or_pubspec_beside_the_dart_file(history: Path) -> None:
    strict, _, _ = mine_repo(history)
    assert [e.after for e in strict] == [S2]
    kept, _, _ = mine_repo(history, companions=True)
    assert [e.after for e in reversed(kept)] == [S1, S2, S3, LONE]


def test_min_run_screens_commits_that_no_chain_can_hold(history: Path) -> None:
    """Only candidates in a run of N commits of one file that no other commit touching it interrupts are read."""
    everything = list(candidates(history, companions=True))
    assert [c.subject for c in everything] == ["lone", "three", "two", "one"]
    assert [c.subject for c in candidates(history, companions=True, min_run=3)] == ["three", "two", "one"]
    assert list(candidates(history, companions=True, min_run=4)) == []
    assert [c.subject for c in candidates(history, min_run=1)] == ["two"]


def test_min_chain_keeps_whole_chains_that_make_sessions(history: Path, tmp_path: Path) -> None:
    assert main(["mine-edits", str(history), "-o", str(tmp_path / "all"), "--companions"]) == 0
    assert len(read_edits(tmp_path / "all")) == 4
    assert main(["mine-edits", str(history), "-o", str(tmp_path / "long"), "--companions", "--min-chain", "3"]) == 0
    edits = read_edits(tmp_path / "long")
    assert [e.after for e in edits] == [S1, S2, S3] and [len(c) for c in chains(edits)] == [3]
    [session] = mined_sessions(edits, 3)
    assert session.start == BASE and [after for _, after in session.turns] == [S1, S2, S3]


def test_append_adds_to_a_set_and_relinks_its_chains(history: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    assert main(["mine-edits", str(history), "-o", str(out)]) == 0  # the strict rules: S2 alone
    first = read_edits(out)
    assert main(["mine-edits", str(history), "-o", str(out), "--append", "--companions", "--min-chain", "3"]) == 0
    assert "duplicate: 1" in capsys.readouterr().err  # S2 is already there: not mined twice
    edits = read_edits(out)
    assert first[0] in [e.with_previous(None) for e in edits]
    assert sorted(e.after for e in edits) == sorted([S1, S2, S3])
    [chain] = chains(edits)
    assert [e.after for e in chain] == [S1, S2, S3] and chain[0].previous is None


def test_a_version_bump_is_no_edit() -> None:
    """A release commit that only moves a version string (devtools' ``const version``) is left out; a change of
    any other string, or of a version string and code, is an edit."""
    before = "const version = '2.60.0';\nconst name = 'DevTools';\n"
    bump = before.replace("'2.60.0'", "'2.61.0-dev.0'")
    assert version_bump(before, bump) and why_not(before, bump, "lib/devtools.dart", 12000) == "version bump"
    assert not version_bump(before, before.replace("'DevTools'", "'Dev Tools'"))
    assert not version_bump(before, bump.replace("const name", "final name"))
    assert why_not(before, before.replace("'DevTools'", "'Dev Tools'"), "lib/devtools.dart", 12000) is None


def _edit(name: str, before: str, after: str, path: str = "lib/home.dart") -> MinedEdit:
    return MinedEdit(id=name, repo="o/r", commit=name, date="2024-01-01T00:00:00+00:00", licence="MIT",
                     licence_file="LICENSE", path=path, subject=name, instruction=name, instruction_source="derived",
                     before=before, after=after)


def test_a_chain_goes_on_across_a_reformatting_but_not_across_a_change() -> None:
    """A commit between two kept edits that only reformatted the file (or its comments) keeps them one chain: the
    next turn starts from the same program; one that changed the code breaks it."""
    reformatted = S1.replace("return Column(", "return Column(\n      ") + "// moved\n"
    assert follows(S1, S1) and follows(S1, reformatted) and not follows(S1, S2) and not follows(S1, "class {")
    one, two = _edit("one", BASE, S1), _edit("two", reformatted, S2)
    assert [e.previous for e in link_chains([two, one])] == [None, "one"]  # mine_repo's order: newest first
    assert [e.previous for e in link_chains([_edit("two", S2, S3), one])] == [None, None]
    assert [e.previous for e in link_chains([_edit("two", S1, S2, "lib/other.dart"), one])] == [None, None]
