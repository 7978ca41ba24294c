"""Every size bound of ``coonbench.report.bounded`` met past its limit, each under a memory guard where a file is
read: the figures come from the spec (docs/report.md, "Anyone's logs"), never from the module under test, so a bound
switched off or loosened fails here.

The hostile files of the fourth red team: a small ``.eval`` whose summaries are padded with whitespace (refused from
the zip directory, before a byte is decompressed), archives whose entries add up past the bounds, a 4 MiB model
name, a log with more categories than the report lays out."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tests.hostile_logs import write_log
from tests.memguard import run_guarded

GIB = 1024**3
MIB = 1024**2
# docs/report.md: an .eval of at most 4 GiB, a .json log or an archive entry of at most 1 GiB; an entry over 1 MiB
# may expand at most 250 times; at most 1 GiB of header and summaries read; names of at most 1,000 characters;
# at most 100 categories, 200 systems, 200 formats; plans and price tables of at most 64 MiB.
SPEC = {"eval": 4 * GIB, "entry": GIB, "ratio": 250, "ratio_floor": MIB, "scanned": GIB, "name": 1000,
        "category": 100, "system": 200, "format": 200, "file": 64 * MIB}
PLAIN = {"task": "t", "model": "p/m", "category": "retrieval", "format": "toon", "question_type": "lookup",
         "sample_id": "s"}

_CHECK = """
import json, sys, time
from pathlib import Path
from coonbench.report.bounded import ReportInputError, check_log
start = time.monotonic()
try:
    check_log(Path({path!r}))
    said = "accepted"
except ReportInputError as err:
    said = str(err)
print(json.dumps({{"said": said, "seconds": time.monotonic() - start}}))
"""


def _checked(path: Path) -> tuple[str, float, int]:
    run = run_guarded(_CHECK.format(path=str(path)), limit_mib=1024, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    return seen["said"], seen["seconds"], run.peak_mib


def _padded(path: Path, entry: str, mib: int, valid: Path) -> Path:
    """``valid``'s entries, with ``entry`` replaced by a JSON array padded with ``mib`` MiB of blanks (deflated:
    a thousand times smaller), written chunk by chunk (never held whole)."""
    with zipfile.ZipFile(valid) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename != entry:
                out.writestr(info.filename, src.read(info))
        with out.open(entry, "w", force_zip64=True) as fh:
            fh.write(b"[")
            for _ in range(mib):
                fh.write(b" " * MIB)
            fh.write(b"]")
    return path


def test_whitespace_padded_summaries_are_refused_from_the_directory(tmp_path: Path) -> None:
    valid = write_log(tmp_path / "logs", PLAIN, tmp_path)
    path = _padded(tmp_path / "padded.eval", "summaries.json", 350, valid)
    assert path.stat().st_size < 2 * MIB  # the 349 KB attack's shape: small on disk, 350 MiB inside
    said, seconds, peak = _checked(path)
    assert "summaries.json" in said and f"at most {SPEC['ratio']} times" in said, said
    assert seconds < 5 and peak < 300, (seconds, peak)  # nothing decompressed: the checker's own size
    said, _, _ = _checked(valid)
    assert said == "accepted"


def test_an_entry_below_the_ratio_floor_may_expand_further(tmp_path: Path) -> None:
    valid = write_log(tmp_path / "logs", PLAIN, tmp_path)
    path = tmp_path / "small.eval"
    with zipfile.ZipFile(valid) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "header.json":
                data = data[:-1] + b" " * (SPEC["ratio_floor"] - len(data)) + data[-1:]  # exactly the floor
            out.writestr(info.filename, data)
    said, _, _ = _checked(path)
    assert said == "accepted"


def _info(name: str, size: int, compressed: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.file_size, info.compress_size = size, compressed
    return info


@pytest.mark.parametrize("entries, read, why", [
    ([_info("samples/x.json", SPEC["entry"] + 1, SPEC["entry"])], [], "entry of"),
    ([_info("summaries.json", SPEC["ratio"] * MIB + 1, MIB)], [], "at most 250 times"),
    ([_info(f"samples/{i}.json", SPEC["entry"], SPEC["entry"] // 8) for i in range(4)]
     + [_info("header.json", 1, 1)], [], "entries of"),
    ([], [_info("summaries.json", SPEC["scanned"] // 2 + 1, SPEC["scanned"] // 8)] * 2, "header and summaries"),
])
def test_each_directory_bound(entries: list[zipfile.ZipInfo], read: list[zipfile.ZipInfo], why: str) -> None:
    """Declared sizes only (no data: the check never reads any); each case just past one bound of the spec."""
    from coonbench.report.bounded import ReportInputError, _check_directory

    with pytest.raises(ReportInputError, match=why):
        _check_directory(Path("x.eval"), entries + read, read)
    at_limit = [_info(i.filename, i.file_size - 1 if i.file_size > 1 else 1, i.compress_size) for i in entries + read]
    _check_directory(Path("x.eval"), at_limit, [i for i in at_limit if i.filename == "summaries.json"])


def test_files_past_their_size_are_refused_by_size_alone(tmp_path: Path) -> None:
    """Sparse files: the size is there, no byte is (a read would take the memory the test guards)."""
    from coonbench.report.bounded import ReportInputError, log_size, read_text

    for name, size in (("big.eval", SPEC["eval"] + 1), ("big.json", SPEC["entry"] + 1), ("plan.json", SPEC["file"] + 1)):
        with (tmp_path / name).open("wb") as fh:
            fh.truncate(size)
    for name in ("big.eval", "big.json"):
        with pytest.raises(ReportInputError, match="log too large"):
            log_size(tmp_path / name)
    with pytest.raises(ReportInputError, match="too large"):
        read_text(tmp_path / "plan.json", "plan")
    with (tmp_path / "ok.json").open("wb") as fh:
        fh.truncate(SPEC["entry"])
    assert log_size(tmp_path / "ok.json") == SPEC["entry"]


_REPORT = """
import io, json, sys
from contextlib import redirect_stderr, redirect_stdout
from coonbench.cli import main
err = io.StringIO()
with redirect_stderr(err), redirect_stdout(io.StringIO()):
    code = main(["report", {logs!r}, "-o", {out!r}])
print(json.dumps({{"code": code, "err": err.getvalue()}}))
"""


def _report(logs: Path, out: Path) -> tuple[int, str, int]:
    run = run_guarded(_REPORT.format(logs=str(logs), out=str(out)), limit_mib=1536, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    return seen["code"], seen["err"], run.peak_mib


def test_a_4_mib_model_name_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    import random

    logs = tmp_path / "logs"
    rng = random.Random(56)  # seeded; random letters: a repeated name would be refused already by its ratio
    write_log(logs, {**PLAIN, "model": "p/" + "".join(rng.choices("abcdefghij", k=4 * MIB))}, tmp_path)
    code, err, peak = _report(logs, tmp_path / "out")
    assert code == 2 and f"a model name of {4 * MIB + 2:,} characters" in err, err[-2000:]
    assert peak < 700, peak
    logs2 = tmp_path / "logs2"
    write_log(logs2, {**PLAIN, "model": "p/" + "m" * (SPEC["name"] - 2)}, tmp_path)
    code, err, _ = _report(logs2, tmp_path / "out2")
    assert code == 0, err[-2000:]


def test_more_categories_than_the_report_lays_out_are_refused(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    logs = tmp_path / "logs"
    path = write_log(logs, PLAIN, tmp_path)
    log = read_eval_log(str(path))
    template = (log.samples or [])[0]
    log.samples = [template.model_copy(update={"id": f"s{n}", "metadata": {**template.metadata, "category": f"c{n}"}})
                   for n in range(SPEC["category"] + 1)]
    write_eval_log(log, str(path))
    code, err, _ = _report(logs, tmp_path / "out")
    assert code == 2 and f"{SPEC['category'] + 1:,} distinct category names" in err, err[-2000:]


def test_the_distinct_bounds_at_their_limits() -> None:
    from coonbench.report.bounded import ReportInputError, check_distinct

    for key in ("category", "system", "format"):
        check_distinct({key: [f"v{i}" for i in range(SPEC[key])]}, "x")
        with pytest.raises(ReportInputError, match=f"distinct {key} names"):
            check_distinct({key: [f"v{i}" for i in range(SPEC[key] + 1)]}, "x")
