"""The memory guard measures the child, not the process that started it: a pytest grown large in a long run must
not make every bounded-memory check fail (CI's 4.6 GiB pytest did, with ``ru_maxrss``)."""

from __future__ import annotations

from tests.memguard import run_guarded


def test_a_large_parent_does_not_inflate_the_childs_peak() -> None:
    ballast = bytearray(1024 << 20)  # 1 GiB, touched so that it is resident when the child is forked
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    run = run_guarded("x = 1", limit_mib=1024, timeout=60)
    del ballast
    assert run.returncode == 0, run.stderr
    assert 0 < run.peak_mib < 300, run.peak_mib


def test_the_childs_own_allocation_is_seen() -> None:
    run = run_guarded("b = bytearray(300 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1", limit_mib=1024,
                      timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.peak_mib >= 300, run.peak_mib
