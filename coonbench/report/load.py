"""Logs in, one tidy sample table out: Inspect's ``samples_df``/``evals_df`` with the dict scores parsed into columns.

The log is the report's whole interface (it never imports a task, solver or scorer), so everything here is read
generically: any format name, any score key, any metadata. One row per sample and epoch.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report.bounded import (
    MAX_DISTINCT,
    NUMBER_LIMIT,
    ReportInputError,
    check_distinct,
    check_log,
    check_names,
    first_line,
    log_size,
    number,
    read_seconds,
    time_limit,
)
from coonbench.tasks.samples import CLUSTER_KEYS  # the source item a question comes from: clustered on

# Metadata key naming the same question across formats (set by the tasks that compare formats).
PAIR_KEY = "pair_id"
# Metadata key naming the prompt template a sample was asked in (``-T prompts=``); absent: the task's default.
TEMPLATE_KEY = "prompt_template"
DEFAULT_TEMPLATE = "default"
BASE_COLUMNS = (
    "category", "task", "model", "solver", "system", "log", "id", "epoch", "format", "question_type",
    "complexity", "input_tokens", "usage_input_tokens", "usage_output_tokens", "total_time", "working_time",
    "cluster", "cluster_level", "pair", "primer", "primer_tokens", "error", "created", "sandbox", "reference",
    "tokenizer", "input_tokens_o200k", "usage_cache_read_tokens", "usage_cache_write_tokens", "batch",
    "prompt_template", "unscored",
)
REFERENCE_SOLVERS = ("coonbench/gold", "coonbench/baseline_")
"""Solvers that measure the benchmark, not a model: the oracle and the trivial floors (``solvers/baselines.py``)."""


def is_reference(system: str) -> bool:
    """Whether a system is a reference (``model [coonbench/gold]``, ``model [coonbench/baseline_…]``)."""
    return any(f"[{name}" in system for name in REFERENCE_SOLVERS)


def find_logs(paths: Sequence[str | Path]) -> list[Path]:
    """Every ``.eval``/``.json`` log under the given files or folders (sorted); raises when there is none."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise ReportInputError(f"{path}: no such file or directory")
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".eval", ".json") and p.is_file()))
        else:
            found.append(path)
    logs = [p for p in found if p.suffix == ".eval" or _is_json_log(p)]
    if not logs:
        raise ReportInputError(f"no Inspect logs (.eval or log .json) found in {', '.join(map(str, paths))}")
    return logs


def _is_json_log(path: Path) -> bool:
    if path.suffix != ".json":
        return False
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            head = fh.read(2048)
    except (OSError, ValueError):
        return False
    return '"eval"' in head and '"version"' in head


def _score_dict(raw: Any) -> dict[str, float]:
    """A ``score_*`` cell as {key: float}: dict values parsed from JSON, C/I as 1/0, numbers as they are."""
    if raw is None or (isinstance(raw, float) and math.isnan(raw)) or raw is pd.NA:
        return {}
    value: Any = raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):  # not JSON (e.g. "C"), or hostile: huge integers, deep nesting
            value = raw
    if isinstance(value, dict):
        return {str(k): _number(v) for k, v in value.items()}
    return {"correct": _number(value)}


def _number(value: Any) -> float:
    """A score value as a float: C/I/P/N as 1/0/0.5/0, a number within ``bounded.NUMBER_LIMIT``, else NaN."""
    if isinstance(value, str):
        letter = value.strip().upper()
        if letter in ("C", "I", "P", "N"):
            return {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}[letter]
    return number(value)


def _usage(raw: Any) -> tuple[float, float, float, float]:
    """(input, output, cache read, cache write) tokens the provider reported, summed over models; input counts
    every input token (Inspect's full-rate ``input_tokens`` plus its cache reads and writes); NaN when none."""
    none = (math.nan, math.nan, math.nan, math.nan)
    if not isinstance(raw, str) or not raw.strip():
        return none
    try:
        usage = json.loads(raw)
    except (ValueError, RecursionError):
        return none
    if not isinstance(usage, dict):
        return none
    rows = [u for u in usage.values() if isinstance(u, dict)]
    read = sum(number(u.get("cache_read") or 0) for u in rows)
    write = sum(number(u.get("cache_write") or 0) for u in rows)
    ins = [number(u.get("input_tokens") or 0) for u in rows]
    outs = [number(u.get("output_tokens") or 0) for u in rows]
    if not ins or not (sum(ins) or sum(outs) or read or write) or math.isnan(sum(ins) + sum(outs) + read + write):
        return none
    return sum(ins) + read + write, sum(outs), read, write


def _strip_suffix(sample_id: str, fmt: str) -> str:
    for sep in ("-", ":", "_", "/"):
        if fmt and sample_id.endswith(sep + fmt):
            return sample_id[: -len(fmt) - 1]
    return sample_id


def _numeric(values: pd.Series, limit: float = NUMBER_LIMIT) -> pd.Series:
    """Each value as a bounded float (``bounded.number``): lists, huge integers and infinities become NaN."""
    return pd.Series([number(v, limit) for v in values.tolist()], index=values.index, dtype=float)


def _meta(df: pd.DataFrame, key: str) -> pd.Series:
    col = f"metadata_{key}"
    if col in df.columns:
        return df[col]
    return pd.Series([pd.NA] * len(df), index=df.index, dtype="object")


# Metadata the report reads (the rest — gold answers, references, criteria — stays in the log: reading every key
# of every sample would dominate the time on 10,000 samples).
METADATA_KEYS = (
    "category", "format", "question_type", "complexity", "input_tokens", PAIR_KEY, "primer", "primer_tokens",
    "tokenizer", "input_tokens_o200k", TEMPLATE_KEY, *CLUSTER_KEYS,
)


def _columns() -> tuple[list[Any], list[Any]]:
    from inspect_ai.analysis import EvalColumn, SampleColumn

    eval_cols = [
        EvalColumn("eval_id", path="eval.eval_id", required=True),
        EvalColumn("task_name", path="eval.task", required=True),
        EvalColumn("model", path="eval.model", required=True),
        EvalColumn("solver", path="eval.solver"),
        EvalColumn("created", path="eval.created"),
        EvalColumn("sandbox", path=_sandbox),
        EvalColumn("provenance", path=_provenance),
        EvalColumn("batch", path=_batch),
        EvalColumn("status", path="status"),
        EvalColumn("planned", path=_planned),
    ]
    # One column computed in Python per sample (a callable path): one JSON path per key costs far more.
    sample_cols = [SampleColumn("record", path=_record, required=True)]
    return eval_cols, sample_cols


def _batch(log: Any) -> bool:
    """Whether the run sent its requests as a provider batch (``inspect eval --batch``: the generation config)."""
    configs = [getattr(getattr(log, "plan", None), "config", None),
               getattr(log.eval, "model_generate_config", None)]
    return any(bool(getattr(c, "batch", None)) for c in configs if c is not None)


def _planned(log: Any) -> str:
    """What the run meant to answer, as JSON {"ids": [...], "epochs": n}: the dataset's sample ids and the epochs
    (a log that stopped early holds fewer samples: the warnings count what is missing)."""
    dataset = getattr(log.eval, "dataset", None)
    ids = getattr(dataset, "sample_ids", None) or []
    epochs = getattr(getattr(log.eval, "config", None), "epochs", None) or 1
    return json.dumps({"ids": [str(i) for i in ids], "epochs": int(epochs) if isinstance(epochs, int) else 1})


def _sandbox(log: Any) -> str:
    """What the run's sandbox enforced: eval metadata ``sandbox`` (a string or a mapping), else the task's sandbox
    type (``docker``, ``local``), else ""."""
    meta = getattr(log.eval, "metadata", None) or {}
    value = meta.get("sandbox") if isinstance(meta, dict) else None
    if value is None:
        spec = getattr(log.eval, "sandbox", None)
        value = getattr(spec, "type", None) or ""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def _provenance(log: Any) -> str:
    """What made a run, as JSON: task arguments, packages, git revision, dataset, model arguments and generation
    settings, and where an imported log came from (the report's provenance block)."""
    spec = log.eval
    dataset = getattr(spec, "dataset", None)
    revision = getattr(spec, "revision", None)
    config = getattr(spec, "config", None)
    meta = getattr(spec, "metadata", None) or {}
    return json.dumps({
        "task": spec.task, "task_args": getattr(spec, "task_args", None) or {},
        "packages": getattr(spec, "packages", None) or {},
        "revision": getattr(revision, "commit", None),
        "dataset": {"name": getattr(dataset, "name", None), "location": getattr(dataset, "location", None),
                    "samples": getattr(dataset, "samples", None)},
        "config": config.model_dump(exclude_none=True) if config is not None else {},
        "model_args": getattr(spec, "model_args", None) or {},
        "imported_from": meta.get("imported_from") if isinstance(meta, dict) else None,
    }, default=str, sort_keys=True)


def _record(sample: Any) -> str:
    """What the report reads of one sample summary, as JSON text."""
    meta = sample.metadata or {}
    scores = {}
    for name, score in (sample.scores or {}).items():
        value = getattr(score, "value", None)
        scores[name] = value
    usage = {name: {"input_tokens": u.input_tokens, "output_tokens": u.output_tokens,
                    "cache_read": u.input_tokens_cache_read, "cache_write": u.input_tokens_cache_write}
             for name, u in (sample.model_usage or {}).items()}
    return json.dumps({
        "id": sample.id, "epoch": sample.epoch, "metadata": {k: meta.get(k) for k in METADATA_KEYS if k in meta},
        "scores": scores, "model_usage": usage, "total_time": sample.total_time,
        "working_time": sample.working_time, "error": sample.error or "",
    }, default=str)


def clean_text(value: Any) -> Any:
    """Strings as valid UTF-8 (a lone surrogate, which JSON can carry, becomes '?'); other values unchanged."""
    if not isinstance(value, str):
        return value
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "replace").decode("utf-8")


def _expand(samples: pd.DataFrame) -> pd.DataFrame:
    """The ``record`` column as the columns ``samples_df`` would give (metadata_*, score_*, model_usage, …)."""
    records = [json.loads(r) for r in samples["record"]]
    rows = []
    for rec in records:
        row = {"id": clean_text(str(rec["id"])), "epoch": rec["epoch"], "total_time": rec["total_time"],
               "working_time": rec["working_time"], "error": rec["error"], "model_usage": json.dumps(rec["model_usage"])}
        row.update({f"metadata_{k}": clean_text(v) for k, v in rec["metadata"].items()})
        row.update({f"score_{k}": v for k, v in rec["scores"].items()})
        rows.append(row)
    frame = pd.DataFrame(rows, index=samples.index)
    for col in ("eval_id", "log"):
        frame[col] = samples[col]
    return frame


def _read_frames(logs: list[Path]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """evals_df and the expanded samples of the logs, each log bounded first (``bounded.check_log``: size, depth,
    archive) and Inspect's reading bounded in time."""
    from inspect_ai.analysis import evals_df, samples_df

    size = sum(log_size(p) for p in logs)
    eval_cols, sample_cols = _columns()
    what = str(logs[0]) if len(logs) == 1 else f"the {len(logs)} logs in {logs[0].parent}"
    with time_limit(read_seconds(size), what):  # from the first byte read: the checks' scans count too
        for p in logs:
            check_log(p)
        try:
            evals = evals_df([str(p) for p in logs], columns=eval_cols, quiet=True)
            samples = _expand(samples_df([str(p) for p in logs], columns=sample_cols, quiet=True))
        except Exception as err:  # noqa: BLE001 - a corrupt or foreign file: name it in one line
            bad = _first_unreadable(logs)
            where = f"{bad}: " if bad else ""
            raise ReportInputError(f"{where}unreadable Inspect log ({type(err).__name__}: {first_line(err)})") \
                from None
    return evals, samples


def _first_unreadable(logs: list[Path]) -> Path | None:
    from inspect_ai.log import read_eval_log

    for path in logs:
        try:
            read_eval_log(str(path), header_only=True)
        except Exception:  # noqa: BLE001
            return path
    return None


def load_samples(paths: Sequence[str | Path]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(samples, evals): the tidy per-sample table (``BASE_COLUMNS`` + one column per score key) and evals_df."""
    logs = find_logs(paths)
    evals, raw = _read_frames(logs)
    if raw.empty:
        raise ReportInputError(f"the logs in {', '.join(map(str, paths))} hold no samples")
    check_names({k: evals[k].tolist() for k in ("task_name", "model", "solver") if k in evals.columns},
                ", ".join(map(str, paths)))
    info = evals.set_index("eval_id")
    solver = info["solver"] if "solver" in info.columns else pd.Series(dtype="object")
    out = pd.DataFrame(index=raw.index)
    out["log"] = raw["log"].astype(str)
    out["task"] = raw["eval_id"].map(info["task_name"]).astype(str)
    category = _meta(raw, "category").astype("object")
    out["category"] = category.where(category.notna(), out["task"]).astype(str)
    out["model"] = raw["eval_id"].map(info["model"]).astype(str)
    out["solver"] = raw["eval_id"].map(solver).astype("object").where(lambda s: s.notna(), "").astype(str)
    out["system"] = [m if not s or s == "<NA>" else f"{m} [{s}]" for m, s in zip(out["model"], out["solver"])]
    out["id"] = raw["id"].astype(str)
    out["epoch"] = [int(e) if math.isfinite(e) else 0 for e in _numeric(raw["epoch"], 1e9)]
    fmt = _meta(raw, "format").astype("object")
    out["format"] = fmt.where(fmt.notna(), "default").astype(str)
    for key in ("question_type", "complexity"):
        col = _meta(raw, key).astype("object")
        out[key] = col.where(col.notna(), "-").astype(str)
    out["input_tokens"] = _numeric(_meta(raw, "input_tokens"))
    out["input_tokens_o200k"] = _numeric(_meta(raw, "input_tokens_o200k"))
    tokenizer = _meta(raw, "tokenizer").astype("object")
    out["tokenizer"] = tokenizer.where(tokenizer.notna(), pd.NA)
    usage = [_usage(u) for u in (raw["model_usage"] if "model_usage" in raw.columns else [None] * len(raw))]
    out["usage_input_tokens"] = [u[0] for u in usage]
    out["usage_output_tokens"] = [u[1] for u in usage]
    out["usage_cache_read_tokens"] = [u[2] for u in usage]
    out["usage_cache_write_tokens"] = [u[3] for u in usage]
    out["batch"] = raw["eval_id"].map(info["batch"]).fillna(False).astype(bool) if "batch" in info.columns else False
    for key in ("total_time", "working_time"):
        out[key] = _numeric(raw[key]) if key in raw.columns else math.nan
    pair = _meta(raw, PAIR_KEY).astype("object")
    stripped = pd.Series([_strip_suffix(i, f) for i, f in zip(out["id"], out["format"])], index=raw.index)
    template = _meta(raw, TEMPLATE_KEY).astype("object")
    out["prompt_template"] = template.where(template.notna(), DEFAULT_TEMPLATE).astype(str)
    out["pair"] = pair.where(pair.notna(), stripped).astype(str)
    out["cluster"], out["cluster_level"] = _clusters(raw, out)  # a question's templates: one cluster at least
    out["pair"] = _paired_within_template(out["pair"], out["prompt_template"])
    primer = _meta(raw, "primer").astype("object")
    out["primer"] = primer.where(primer.notna(), pd.NA)
    out["primer_tokens"] = _numeric(_meta(raw, "primer_tokens"))
    err = raw["error"].astype("object") if "error" in raw.columns else pd.Series([""] * len(raw), index=raw.index)
    out["error"] = err.where(err.notna(), "").astype(str)
    out["created"] = raw["eval_id"].map(info["created"]).astype(str) if "created" in info.columns else ""
    sandbox = raw["eval_id"].map(info["sandbox"]) if "sandbox" in info.columns else pd.Series("", index=raw.index)
    out["sandbox"] = sandbox.astype("object").where(sandbox.notna(), "").astype(str)
    out["reference"] = out["system"].map(is_reference).astype(bool)
    scores = _score_columns(raw)
    out["unscored"] = scores.isna().all(axis=1).to_numpy() if len(scores.columns) else True
    scores = scores.drop(columns=[c for c in scores.columns if c in out.columns])  # e.g. input_tokens: same figure
    samples = pd.concat([out.reset_index(drop=True), scores.reset_index(drop=True)], axis=1)
    check_names({k: samples[k].tolist() for k in ("category", "format", "question_type", "id")},
                ", ".join(map(str, paths)))
    check_distinct({k: samples[k].tolist() for k in MAX_DISTINCT}, ", ".join(map(str, paths)))
    samples, warnings = drop_reruns(samples)
    from coonbench.report.dropped import dropped_warnings  # beside load: what the logs lack, in words

    samples.attrs["warnings"] = dropped_warnings(samples, evals) + warnings
    return samples, evals


def _paired_within_template(pair: pd.Series, template: pd.Series) -> pd.Series:
    """The question a sample is paired on across formats: under a template other than the default, the question
    and its template (``q@reworded``), so the paired comparisons pair each question's formats in one wording."""
    other = template != DEFAULT_TEMPLATE
    return pair.where(~other, pair + "@" + template)


RUN_KEY = ["task", "system", "format", "id", "epoch"]


def drop_reruns(samples: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """One run per (task, system, format, sample, epoch): the newest log's (by ``eval.created``), with a warning
    naming what was dropped — two runs of one question in one folder would count it twice in accuracies and
    once in the paired comparisons."""
    dup = samples.duplicated(RUN_KEY, keep=False)
    if not dup.any():
        return samples, []
    ordered = samples.assign(_row=range(len(samples))).sort_values(["created", "log"], ascending=False, kind="stable")
    kept = ordered.drop_duplicates(RUN_KEY, keep="first")
    warnings = []
    dropped = ordered.loc[~ordered.index.isin(kept.index)]
    for (task, system), g in dropped.groupby(["task", "system"], sort=True):
        newest = kept[(kept["task"] == task) & (kept["system"] == system) & kept.index.isin(samples.index[dup])]
        warnings.append(
            f"{len(g)} sample(s) of task {task} for {system} appear in more than one run "
            f"({', '.join(sorted(set(Path(p).name for p in g['log'])))} and "
            f"{', '.join(sorted(set(Path(p).name for p in newest['log'])))}): the newest run is kept, the older "
            "dropped, in every table")
    kept = kept.sort_values("_row").drop(columns="_row").reset_index(drop=True)
    return kept, warnings


def _clusters(raw: pd.DataFrame, out: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(cluster, level) per sample: the first of ``CLUSTER_KEYS`` present (``key:value``, the same source item in
    every task and run) and the key's name, else the task's question and "question"."""
    keys = [k for k in CLUSTER_KEYS if f"metadata_{k}" in raw.columns]
    clusters: list[str] = []
    levels: list[str] = []
    columns = [raw[f"metadata_{k}"].astype("object").tolist() for k in keys]
    for i, (task, sid) in enumerate(zip(out["task"], out["pair"])):
        found = next(((k, c[i]) for k, c in zip(keys, columns)
                      if c[i] is not None and c[i] is not pd.NA and c[i] == c[i]), None)
        # a source item is one cluster whichever task or run asks about it; a bare question is its task's own
        clusters.append(f"{found[0]}:{found[1]}" if found else f"{task}:{sid}")
        levels.append(found[0] if found else "question")
    return clusters, levels


def _score_columns(raw: pd.DataFrame) -> pd.DataFrame:
    """One float column per score key; keys of several scorers that collide are prefixed ``<scorer>:``."""
    score_cols = [c for c in raw.columns if c.startswith("score_")]
    parsed = {c.removeprefix("score_"): [_score_dict(v) for v in raw[c].tolist()] for c in score_cols}
    owners: dict[str, list[str]] = {}
    for scorer, rows in parsed.items():
        for key in sorted({k for row in rows for k in row}):
            owners.setdefault(key, []).append(scorer)
    columns: dict[str, list[float]] = {}
    for key, scorers in owners.items():
        if len(scorers) == 1:
            columns[key] = [row.get(key, math.nan) for row in parsed[scorers[0]]]
            continue
        merged = [math.nan] * len(raw)  # the same key from scorers of different tasks: one column
        clash = False
        for scorer in scorers:
            for i, row in enumerate(parsed[scorer]):
                if key in row:
                    clash = clash or not math.isnan(merged[i])
                    merged[i] = row[key]
        if not clash:
            columns[key] = merged
        else:  # two scorers on the same sample: keep both apart
            for scorer in scorers:
                columns[f"{scorer}:{key}"] = [row.get(key, math.nan) for row in parsed[scorer]]
    return pd.DataFrame(columns, index=raw.index, dtype=float)
