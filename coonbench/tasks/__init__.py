"""What every task shares below its solvers and scorers: the metadata each Sample carries (``samples``), the
per-sample state solvers write and scorers read (``state``), the format conditions a task runs (``conditions``) and
task files brought from other benchmarks (``tealeaf_files``)."""
