"""Code-generated exact-answer questions over the generated datasets, and the files they are written to.

``python -m coonbench.datasets.retrieval --write`` regenerates ``data/retrieval/datasets/*.json`` and
``data/retrieval/questions.v1.jsonl`` (byte-identical on every run; a test checks it; ``--check`` fails when the
checkout differs).

Question types: field-retrieval, aggregation, filtering (multi-condition), structure-awareness, and
structural-validation ("Is this data complete and valid?"; ground truth = NO when a corruption was applied).
Ambiguous questions (ties for a maximum, non-unique identifiers) are not emitted.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from coonbench.datasets.retrieval.common import (
    CORRUPTIONS,
    QUESTIONS_FILE,
    RETRIEVAL_DIR,
    SEED,
    VALIDATION_QUESTION,
)
from coonbench.datasets.retrieval.generate import Spec, dataset_specs, validation_bases

def _get(record: Any, path: str) -> Any:
    cur = record
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def _records(spec: Spec) -> list[tuple[str, dict[str, Any]]]:
    """(identifier, record) pairs of a spec's collection."""
    coll = spec.data[spec.collection]
    if spec.keyed:
        return list(coll.items())
    return [(str(r[spec.id_field]), r) for r in coll]


def _ref(spec: Spec, ident: str, record: dict[str, Any]) -> str:
    return spec.ref.format(key=ident, **{k: v for k, v in record.items() if not isinstance(v, (dict, list))})


def _q2(value: Decimal | float | int) -> str:
    return str(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _answer_of(value: Any, kind: str) -> tuple[str, str, dict[str, Any] | None]:
    """(answer text, answer type, normalize options) for a field value."""
    if kind == "bool":
        return ("YES" if value else "NO"), "boolean", None
    if kind == "int":
        return str(value), "integer", None
    if kind in ("money", "rate"):
        return _q2(value), "number", {"decimalPlaces": 2}
    if kind == "date":
        return str(value), "date", None
    if kind == "list":
        return str(len(value)), "integer", None
    return str(value), "string", None


def _q(qtype: str, question: str, answer: str, answer_type: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"question": question, "answer": answer, "answer_type": answer_type, "question_type": qtype}
    if options:
        out["normalize_options"] = options
    return out


def _generic_questions(spec: Spec, rng: random.Random) -> list[dict[str, Any]]:
    records = _records(spec)
    idents = [i for i, _ in records]
    unique = {i for i, c in Counter(idents).items() if c == 1}
    qs: list[dict[str, Any]] = []
    # field retrieval: 6 (record, field) pairs with a present value and a unique identifier
    pairs = [(i, r, f) for i, r in records if i in unique for f in spec.fields if _get(r, f.path) is not None]
    for ident, rec, fld in rng.sample(pairs, min(6, len(pairs))):
        value = _get(rec, fld.path)
        ref = _ref(spec, ident, rec)
        if fld.kind == "bool":
            question = f"Is {ref} {fld.label}?"
        elif fld.kind == "list":
            question = f"How many {fld.label} does {ref} have?"
        else:
            question = f"What is the {fld.label} of {ref}?"
        qs.append(_q("field-retrieval", question, *_answer_of(value, fld.kind)))
    # aggregation
    cats = [f for f in spec.fields if f.kind == "category"]
    nums = [f for f in spec.fields if f.kind in ("int", "money", "rate")]
    bools = [f for f in spec.fields if f.kind == "bool"]
    for fld in cats[:2]:
        values = sorted({str(_get(r, fld.path)) for _, r in records if _get(r, fld.path) is not None})
        value = rng.choice(values)
        count = sum(str(_get(r, fld.path)) == value for _, r in records)
        qs.append(_q("aggregation", f"How many {spec.entities} have {fld.label} {value}?", str(count), "integer"))
    for fld in nums[:2]:
        vals = [_get(r, fld.path) for _, r in records if _get(r, fld.path) is not None]
        if fld.kind == "int":
            qs.append(_q("aggregation", f"What is the total {fld.label} across all {spec.entities}?",
                         str(sum(vals)), "integer"))
        else:
            avg = sum(Decimal(str(v)) for v in vals) / len(vals)
            qs.append(_q("aggregation", f"What is the average {fld.label} across all {spec.entities}?",
                         _q2(avg), "number", {"decimalPlaces": 2}))
    if nums and spec.id_field:
        fld = nums[-1]
        vals = [(_get(r, fld.path), i) for i, r in records if _get(r, fld.path) is not None]
        best = max(v for v, _ in vals)
        winners = [i for v, i in vals if v == best]
        if len(winners) == 1 and winners[0] in unique:  # ties are ambiguous: not emitted
            qs.append(_q("aggregation", f"Which {spec.entity} has the highest {fld.label}? Answer with its "
                         f"{spec.id_field}.", winners[0], "string"))
    for fld in bools[:1]:
        count = sum(bool(_get(r, fld.path)) for _, r in records)
        qs.append(_q("aggregation", f"How many {spec.entities} are {fld.label}?", str(count), "integer"))
    # filtering: multi-condition counts
    for fld_c in cats[:2]:
        for fld_n in nums[:1]:
            values = sorted({str(_get(r, fld_c.path)) for _, r in records if _get(r, fld_c.path) is not None})
            cat = rng.choice(values)
            nvals = sorted(_get(r, fld_n.path) for _, r in records if _get(r, fld_n.path) is not None)
            threshold = nvals[len(nvals) // 2]
            count = sum(str(_get(r, fld_c.path)) == cat and (_get(r, fld_n.path) or 0) > threshold for _, r in records)
            qs.append(_q("filtering", f"How many {spec.entities} have {fld_c.label} {cat} and {fld_n.label} greater "
                         f"than {threshold}?", str(count), "integer"))
    if bools and cats:
        fb, fc = bools[0], cats[0]
        values = sorted({str(_get(r, fc.path)) for _, r in records if _get(r, fc.path) is not None})
        cat = rng.choice(values)
        count = sum(bool(_get(r, fb.path)) and str(_get(r, fc.path)) == cat for _, r in records)
        qs.append(_q("filtering", f"How many {spec.entities} are {fb.label} and have {fc.label} {cat}?",
                     str(count), "integer"))
    # structure awareness
    qs.append(_q("structure-awareness", f"How many {spec.entities} are in the dataset?", str(len(records)), "integer"))
    first = records[0][1]
    qs.append(_q("structure-awareness", f"List the field names of each {spec.entity} record, in order.",
                 ",".join(first.keys()), "csv-list-ordered"))
    nested = [k for k, v in first.items() if isinstance(v, dict)]
    if nested and all(isinstance(r.get(nested[0]), dict) for _, r in records):
        qs.append(_q("structure-awareness", f"List the field names inside {nested[0]} of each {spec.entity}, in order.",
                     ",".join(first[nested[0]].keys()), "csv-list-ordered"))
    return qs


def _leaves(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{prefix}.{k}" if prefix else k)]
    if isinstance(value, list):
        return [] if any(isinstance(v, (dict, list)) for v in value) else [(prefix, value)]
    return [(prefix, value)]


def _config_questions(spec: Spec, rng: random.Random) -> list[dict[str, Any]]:
    data = spec.data
    qs = []
    leaves = [(p, v) for p, v in _leaves(data) if not isinstance(v, list)]
    for path, value in rng.sample(leaves, 10):
        if isinstance(value, bool):
            qs.append(_q("field-retrieval", f"In the configuration, is {path} true?", "YES" if value else "NO", "boolean"))
        elif isinstance(value, int):
            qs.append(_q("field-retrieval", f"In the configuration, what is the value of {path}?", str(value), "integer"))
        else:
            qs.append(_q("field-retrieval", f"In the configuration, what is the value of {path}?", str(value), "string"))
    replicas = data["database"]["replicas"]
    qs.append(_q("aggregation", "How many database replicas are configured?", str(len(replicas)), "integer"))
    qs.append(_q("aggregation", "What is the total lagSeconds across all database replicas?",
                 str(sum(r["lagSeconds"] for r in replicas)), "integer"))
    qs.append(_q("filtering", "How many database replicas have lagSeconds greater than 10?",
                 str(sum(r["lagSeconds"] > 10 for r in replicas)), "integer"))
    qs.append(_q("structure-awareness", "List the top-level keys of the configuration, in order.",
                 ",".join(data.keys()), "csv-list-ordered"))
    qs.append(_q("structure-awareness", "List the keys inside server, in order.", ",".join(data["server"].keys()),
                 "csv-list-ordered"))
    qs.append(_q("structure-awareness", "Which features are enabled? List them.",
                 ",".join(data["features"]["enabled"]), "csv-list-unordered"))
    return qs


def generate_questions() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(dataset name → data, question records) — deterministic for a given Faker version."""
    datasets: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    for spec in dataset_specs():
        rng = random.Random(f"{SEED}-{spec.name}")
        datasets[spec.name] = spec.data
        qs = _config_questions(spec, rng) if spec.name == "config" else _generic_questions(spec, rng)
        for n, q in enumerate(qs, start=1):
            records.append({"id": f"{spec.name}-q{n:02d}", "dataset": f"datasets/{spec.name}.json",
                            "complexity": spec.structure, **q})
    for name, data in validation_bases():
        datasets[name] = data
        for corruption in CORRUPTIONS:
            records.append({"id": f"{name}-{corruption}", "dataset": f"datasets/{name}.json",
                            "complexity": "uniform",
                            **_q("structural-validation", VALIDATION_QUESTION, "YES" if corruption == "none" else "NO",
                                 "boolean"),
                            "corruption": corruption})
    _check_unique(records)
    return datasets, records


def _check_unique(records: list[dict[str, Any]]) -> None:
    ids = Counter(r["id"] for r in records)
    dupes = [i for i, c in ids.items() if c > 1]
    if dupes:
        raise ValueError(f"duplicate question ids: {dupes}")


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render_files() -> dict[str, str]:
    """Relative path (under data/retrieval) → file text, for writing or for comparing with the checkout."""
    datasets, records = generate_questions()
    files = {f"datasets/{name}.json": _dump(data) for name, data in datasets.items()}
    files[QUESTIONS_FILE.name] = "".join(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in records)
    return files


def write(root: Path = RETRIEVAL_DIR) -> dict[str, str]:
    """Write every generated file under ``root``."""
    files = render_files()
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return files


def main(argv: Sequence[str] | None = None) -> int:
    """``--write`` regenerates data/retrieval; ``--check`` fails when the checkout differs."""
    parser = argparse.ArgumentParser(prog="python -m coonbench.datasets.retrieval")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.write:
        files = write()
        _, records = generate_questions()
        print(f"wrote {len(files)} files, {len(records)} questions to {RETRIEVAL_DIR}")
        for qtype, n in sorted(Counter(r["question_type"] for r in records).items()):
            print(f"  {qtype}: {n}")
        return 0
    if args.check:
        bad = [rel for rel, text in render_files().items()
               if not (RETRIEVAL_DIR / rel).exists() or (RETRIEVAL_DIR / rel).read_text(encoding="utf-8") != text]
        print("up to date" if not bad else f"stale: {bad}")
        return 1 if bad else 0
    parser.print_help()
    return 2
