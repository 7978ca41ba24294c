"""A peer's retrieval suite run unchanged: a folder in TOON's published layout → Inspect Samples.

Layout (``../shared/reference/toon/generated``): ``questions.json`` (``id, prompt, groundTruth, type, dataset,
answerType?, normalizationOptions?``), ``datasets.json`` (``name, description, metadata{structureClass,
supportsCSV}, corruption, data``), ``encoded.json`` (``{dataset: {format: text}}``, the exact text the peer showed
its models, corruption included) and ``formats.json`` (``{format: {name, displayName, fence, primer}}``).

What is kept exactly: the encoded texts, the primers and fences, the prompt layout of TOON's
``benchmarks/src/evaluate.ts`` (which names the format by its id, e.g. "in json-pretty format", and has no yes/no
line), the ground truths, and the per-question normalisation options (TOON's camelCase keys map onto
``coonbench.answers.normalize.NormalizeOptions``). A format the suite has no text for in a dataset (TOON's CSV on nested
data) is skipped for it, with the reason recorded.

Our own formats run beside them, computed from the same ``data`` (structural corruptions applied as the dataset's
``corruption`` entry declares, through ``corrupt_encoded``); they are labelled ``coonbench-<name>`` so they never
collide with the suite's names. Sample ids are ``<question id>-<format>`` so results join with the peer's
per-call rows (``questionId``, ``format``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.datasets.retrieval.common import SUITE_PROMPT
from coonbench.datasets.retrieval.conditions import DataCondition
from coonbench.datasets.retrieval.corrupt import corrupt_encoded
from coonbench.formats import FormatError, get_format
from coonbench.answers.normalize import NormalizeOptions, answer_types
from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import sample_metadata
from coonbench.tasks.subset import Pending

CATEGORY = "retrieval"
OURS_PREFIX = "coonbench-"
SUITE_BASELINE = "json-pretty"  # token change is reported against the suite's pretty JSON
SUITE_FILES = ("questions.json", "datasets.json", "encoded.json", "formats.json")

# TOON's corruption kinds → ours (``CORRUPTIONS``).
_CORRUPTION_KINDS = {"control": "none", "truncated": "truncated", "extra-rows": "extra-rows",
                     "width-mismatch": "width-mismatch", "missing-fields": "missing-fields"}


class SuiteError(ValueError):
    """A malformed suite file: names the file, the entry and the field."""


@dataclass(frozen=True)
class SuiteFormat:
    name: str
    display_name: str
    fence: str
    primer: str


@dataclass(frozen=True)
class SuiteDataset:
    name: str
    structure: str
    data: Any
    corruption: dict[str, Any] | None


@dataclass(frozen=True)
class SuiteQuestion:
    id: str
    prompt: str
    ground_truth: str
    type: str
    dataset: str
    answer_type: str
    options: dict[str, Any] | None


@dataclass
class Suite:
    """A loaded, validated suite folder."""

    root: Path
    questions: list[SuiteQuestion]
    datasets: dict[str, SuiteDataset]
    encoded: dict[str, dict[str, str]]
    formats: dict[str, SuiteFormat]


def _read(root: Path, name: str) -> Any:
    path = root / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SuiteError(f"{path}: suite file missing (a suite folder holds {', '.join(SUITE_FILES)})") from None
    except json.JSONDecodeError as err:
        raise SuiteError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from None
    except OSError as err:
        raise SuiteError(f"{path}: cannot read: {err}") from None


def _field(path: Path, entry: str, rec: Any, name: str, kind: type | tuple[type, ...], required: bool = True) -> Any:
    """``rec[name]`` checked for type; SuiteError naming file, entry and field otherwise."""
    if not isinstance(rec, dict):
        raise SuiteError(f"{path}: entry {entry}: expected a JSON object, got {type(rec).__name__}")
    if name not in rec or rec[name] is None:
        if required:
            raise SuiteError(f"{path}: entry {entry}: field '{name}' is missing")
        return None
    value = rec[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        want = " or ".join(k.__name__ for k in kinds)
        raise SuiteError(f"{path}: entry {entry}: field '{name}' must be {want}, got {type(value).__name__}")
    if isinstance(value, str) and required and not value.strip():
        raise SuiteError(f"{path}: entry {entry}: field '{name}' is empty")
    return value


def _load_formats(root: Path) -> dict[str, SuiteFormat]:
    fpath = root / "formats.json"
    raw_formats = _read(root, "formats.json")
    if not isinstance(raw_formats, dict) or not raw_formats:
        raise SuiteError(f"{fpath}: expected a non-empty object {{format: {{name, displayName, fence, primer}}}}")
    formats: dict[str, SuiteFormat] = {}
    for key, rec in raw_formats.items():
        entry = repr(key)
        formats[key] = SuiteFormat(
            name=_field(fpath, entry, rec, "name", str), display_name=_field(fpath, entry, rec, "displayName", str),
            fence=_field(fpath, entry, rec, "fence", str), primer=_field(fpath, entry, rec, "primer", str))
        if formats[key].name != key:
            raise SuiteError(f"{fpath}: entry {entry}: field 'name' is {formats[key].name!r}, not the key {key!r}")
    return formats


def _load_datasets(root: Path) -> dict[str, SuiteDataset]:
    dpath = root / "datasets.json"
    raw_datasets = _read(root, "datasets.json")
    if not isinstance(raw_datasets, list):
        raise SuiteError(f"{dpath}: expected a list of datasets")
    datasets: dict[str, SuiteDataset] = {}
    for i, rec in enumerate(raw_datasets):
        name = _field(dpath, f"#{i}", rec, "name", str)
        entry = f"#{i} ({name!r})"
        meta = _field(dpath, entry, rec, "metadata", dict, required=False) or {}
        structure = meta.get("structureClass", "custom")
        if not isinstance(structure, str):
            raise SuiteError(f"{dpath}: entry {entry}: field 'metadata.structureClass' must be str")
        if "data" not in rec:
            raise SuiteError(f"{dpath}: entry {entry}: field 'data' is missing")
        corruption = _field(dpath, entry, rec, "corruption", dict, required=False)
        if corruption is not None and corruption.get("kind") not in _CORRUPTION_KINDS:
            raise SuiteError(f"{dpath}: entry {entry}: field 'corruption.kind' must be one of "
                             f"{', '.join(_CORRUPTION_KINDS)}, got {corruption.get('kind')!r}")
        if name in datasets:
            raise SuiteError(f"{dpath}: entry {entry}: field 'name': duplicate dataset {name!r}")
        datasets[name] = SuiteDataset(name, structure, rec["data"], corruption)
    return datasets


def _load_encoded(
    root: Path, datasets: dict[str, SuiteDataset], formats: dict[str, SuiteFormat]
) -> dict[str, dict[str, str]]:
    epath = root / "encoded.json"
    raw_encoded = _read(root, "encoded.json")
    if not isinstance(raw_encoded, dict):
        raise SuiteError(f"{epath}: expected an object {{dataset: {{format: text}}}}")
    encoded: dict[str, dict[str, str]] = {}
    for dname, texts in raw_encoded.items():
        if dname not in datasets:
            raise SuiteError(f"{epath}: entry {dname!r}: no dataset of that name in datasets.json")
        if not isinstance(texts, dict):
            raise SuiteError(f"{epath}: entry {dname!r}: expected an object {{format: text}}")
        for fname, text in texts.items():
            if fname not in formats:
                raise SuiteError(f"{epath}: entry {dname!r}: field {fname!r}: no format of that name in formats.json")
            if not isinstance(text, str):
                raise SuiteError(f"{epath}: entry {dname!r}: field {fname!r} must be a string")
        encoded[dname] = dict(texts)
    return encoded


def _question(qpath: Path, i: int, rec: Any, datasets: dict[str, SuiteDataset], seen: set[str]) -> SuiteQuestion:
    qid = _field(qpath, f"#{i}", rec, "id", str)
    entry = f"#{i} ({qid!r})"
    if qid in seen:
        raise SuiteError(f"{qpath}: entry {entry}: field 'id': duplicate id")
    seen.add(qid)
    truth = _field(qpath, entry, rec, "groundTruth", (str, int, float, bool))
    dname = _field(qpath, entry, rec, "dataset", str)
    if dname not in datasets:
        raise SuiteError(f"{qpath}: entry {entry}: field 'dataset': no dataset {dname!r} in datasets.json")
    answer_type = _field(qpath, entry, rec, "answerType", str, required=False) or "string"
    if answer_type not in answer_types():
        raise SuiteError(f"{qpath}: entry {entry}: field 'answerType': unknown type {answer_type!r} "
                         f"(expected one of {', '.join(answer_types())})")
    options = _field(qpath, entry, rec, "normalizationOptions", dict, required=False)
    try:
        NormalizeOptions.coerce(options)
    except (TypeError, ValueError) as err:
        raise SuiteError(f"{qpath}: entry {entry}: field 'normalizationOptions': {err}") from None
    return SuiteQuestion(
        id=qid, prompt=_field(qpath, entry, rec, "prompt", str), ground_truth=str(truth),
        type=_field(qpath, entry, rec, "type", str, required=False) or "custom", dataset=dname,
        answer_type=answer_type, options=options or None)


def _load_questions(root: Path, datasets: dict[str, SuiteDataset]) -> list[SuiteQuestion]:
    qpath = root / "questions.json"
    raw_questions = _read(root, "questions.json")
    if not isinstance(raw_questions, list):
        raise SuiteError(f"{qpath}: expected a list of questions")
    questions: list[SuiteQuestion] = []
    seen: set[str] = set()
    for i, rec in enumerate(raw_questions):
        questions.append(_question(qpath, i, rec, datasets, seen))
    if not questions:
        raise SuiteError(f"{qpath}: the suite has no questions")
    return questions


def load_suite(root: str | Path) -> Suite:
    """Read and validate the four files of a suite folder (every reference between them is checked)."""
    root = Path(root)
    if not root.is_dir():
        raise SuiteError(f"{root}: suite folder not found")
    formats = _load_formats(root)
    datasets = _load_datasets(root)
    encoded = _load_encoded(root, datasets, formats)
    return Suite(root, _load_questions(root, datasets), datasets, encoded, formats)


def suite_prompt(fmt: SuiteFormat, data_text: str, question: str) -> str:
    """The exact prompt the peer showed its model."""
    return SUITE_PROMPT.format(primer=fmt.primer, name=fmt.name, fence=fmt.fence, data=data_text, question=question)


def _ours_text(ds: SuiteDataset, fmt: str) -> str:
    """Our format's text for a suite dataset, corrupted as the dataset declares."""
    if ds.corruption is None:
        return get_format(fmt).encode(ds.data)
    c = ds.corruption
    kind = _CORRUPTION_KINDS[c["kind"]]
    if not isinstance(ds.data, dict) or len(ds.data) != 1 or not isinstance(next(iter(ds.data.values())), list):
        raise FormatError(f"dataset {ds.name}: a corruption needs an object holding one list of rows")
    return corrupt_encoded(ds.data, fmt, kind, remove_count=int(c.get("removeRecordCount", 3)),
                           append_records=c.get("appendRecords"), field=c.get("targetFieldName"),
                           indices=c.get("targetRecordIndices"))


def suite_samples(
    suite: Suite, suite_formats: Sequence[str] | None = None, formats: Sequence[str | DataCondition] = (),
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], dict[str, list[dict[str, str]]]]:
    """Samples of every question in the suite's formats (texts as published) and in ours (computed), for ``ctx``
    (the default context when None), and (format → skip reasons) for the pairs that have no text."""
    pending, skipped = suite_pending(suite, suite_formats, formats)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skipped


def suite_pending(
    suite: Suite, suite_formats: Sequence[str] | None = None, formats: Sequence[str | DataCondition] = ()
) -> tuple[list[Pending], dict[str, list[dict[str, str]]]]:
    """``suite_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: the prompt and its token
    counts wait for the draw), and the skips: our formats' texts are computed for every dataset, since a format
    that cannot hold one keeps its questions out of the draw (the suite's own texts are read as published)."""
    chosen = list(suite.formats) if suite_formats is None else list(suite_formats)
    for name in chosen:
        if name not in suite.formats:
            raise SuiteError(f"{suite.root / 'formats.json'}: no format {name!r} "
                             f"(the suite has {', '.join(suite.formats)})")
    conditions = [c if isinstance(c, DataCondition) else DataCondition(c) for c in formats]
    pending: list[Pending] = []
    skipped: dict[str, list[dict[str, str]]] = {}
    ours: dict[tuple[str, str], str | FormatError] = {}
    for q in suite.questions:
        ds = suite.datasets[q.dataset]
        stratum = (str(ds.structure), str(q.type))  # complexity, question_type: as ``_sample`` writes them
        for name in chosen:
            text = suite.encoded.get(q.dataset, {}).get(name)
            if text is None:
                skipped.setdefault(name, []).append({"id": q.id, "dataset": q.dataset,
                                                     "reason": f"the suite has no {name} text for this dataset"})
                continue
            build = partial(_suite_sample, q, ds, name, suite.formats[name], text)
            pending.append(Pending(q.id, stratum, name, build))
        for cond in conditions:
            name, label = cond.format, OURS_PREFIX + cond.label
            key = (q.dataset, name)
            if key not in ours:
                try:
                    ours[key] = _ours_text(ds, name)
                except FormatError as err:
                    ours[key] = err
            text_or_err = ours[key]
            if isinstance(text_or_err, FormatError):
                skipped.setdefault(label, []).append({"id": q.id, "dataset": q.dataset, "reason": text_or_err.message})
                continue
            pending.append(Pending(q.id, stratum, label, partial(_our_sample, q, ds, cond, text_or_err)))
    return pending, skipped


def _suite_sample(q: SuiteQuestion, ds: SuiteDataset, name: str, fmt: SuiteFormat, text: str,
                  ctx: BuildContext) -> Sample:
    """A question in the suite's format ``name``, with the text the suite published."""
    return _sample(q, ds, name, suite_prompt(fmt, text, q.prompt), "suite", ctx)


def _our_sample(q: SuiteQuestion, ds: SuiteDataset, cond: DataCondition, text: str, ctx: BuildContext) -> Sample:
    """A question in one of our formats (``text``: its dataset in that format, corrupted as the suite declares)."""
    name = cond.format
    prompt = SUITE_PROMPT.format(primer=cond.primer_text() or "", name=name, fence=get_format(name).fence,
                                 data=text.rstrip("\n"), question=q.prompt).removeprefix("\n\n")
    return _sample(q, ds, OURS_PREFIX + cond.label, prompt, "coonbench", ctx)


def _sample(q: SuiteQuestion, ds: SuiteDataset, fmt: str, prompt: str, source: str, ctx: BuildContext) -> Sample:
    meta = sample_metadata(
        format=fmt, category=CATEGORY, question_type=q.type, complexity=ds.structure, input_text=prompt,
        tokenizer=ctx.tokenizer,
        answer_type=q.answer_type, normalize_options=q.options, pair_id=q.id, dataset=q.dataset,
        corruption=_CORRUPTION_KINDS[ds.corruption["kind"]] if ds.corruption else "none", text_source=source,
    )
    return Sample(id=f"{q.id}-{fmt}", input=prompt, target=q.ground_truth, metadata=meta)
