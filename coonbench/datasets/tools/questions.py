"""Which retrieval questions a tool-using agent must make two or more calls for, and the calls a perfect agent makes.

The questions are the retrieval task's (``data/retrieval/questions.v1.jsonl``, over the seeded datasets of
``coonbench.datasets.retrieval.generate``); each is matched, by the exact text its generator writes, to what it
asks (one record's field, a figure over every record, a filtered count). Under the tools of ``server`` (a page of
``PAGE_SIZE`` full records per ``list_records`` call; ``find_records`` returns identifiers, not field values;
``get_record`` needs the opaque ref that ``find_records`` returns) the fewest calls that answer a question are
computed by code, and only questions that need two or more are kept:

* ``field``      — a field of one record past the first page: find it (1), get it (2);
* ``all``        — a total, average or maximum over every record: every page (more records than one page holds);
* ``filter_cn``  — a count by category and threshold: the category's finds and gets, or every page (kept unless
                   no record has the category: one empty find would answer 0);
* ``filter_bc``  — a count by flag and category: two finds to intersect (kept when both match something).

Counts answerable by one ``find_records`` call and questions about the whole file's shape are left out, and so are
the deep configuration (no record collection) and the structural-validation questions (corrupted encodings).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from coonbench.datasets.retrieval.generate import Spec, dataset_specs
from coonbench.datasets.retrieval.load import read_questions
from coonbench.datasets.retrieval.common import QUESTIONS_FILE, RETRIEVAL_DIR
from coonbench.datasets.retrieval.questions import _get, _ref

PAGE_SIZE = 5
"""Records per ``list_records`` page (fewer than any dataset holds, so no figure over all records fits one call)."""
KEY_FIELD = "key"
"""The identifier field of a keyed collection's records (``{"flag_x": {…}}`` is listed as
``{"key": "flag_x", …}``)."""
MIN_CALLS = 2


@dataclass(frozen=True)
class Collection:
    """A dataset as the tool server sees it: its rows (identifier first for keyed maps) and how to name them."""

    name: str
    description: str
    collection: str
    entity: str
    entities: str
    id_field: str
    rows: tuple[dict[str, Any], ...]
    spec: Spec = field(compare=False, repr=False)

    @property
    def idents(self) -> list[str]:
        return [str(row[self.id_field]) for row in self.rows]

    def ref(self, ident: str) -> str:
        """The opaque handle ``get_record`` takes (stable: a hash of the dataset and the identifier)."""
        return "rec-" + hashlib.sha256(f"{self.name}\0{ident}".encode()).hexdigest()[:8]

    def pages(self) -> int:
        return -(-len(self.rows) // PAGE_SIZE)


def collection_of(spec: Spec, data: Any) -> Collection | None:
    """The records of ``data`` (the dataset ``spec`` describes) as rows, or None for a dataset without a record
    collection (the configuration)."""
    if not spec.collection:
        return None
    raw = data[spec.collection]
    if spec.keyed:
        rows = tuple({KEY_FIELD: key, **value} for key, value in raw.items())
        id_field = KEY_FIELD
    else:
        rows, id_field = tuple(raw), spec.id_field
    return Collection(spec.name, spec.description, spec.collection, spec.entity, spec.entities, id_field, rows, spec)


@lru_cache(maxsize=1)
def collections() -> dict[str, Collection]:
    """Every dataset with a record collection, by name: the shipped files the questions' answers were computed
    over (``data/retrieval/datasets/<name>.json``), named as their generator's spec names them."""
    out = {}
    for spec in dataset_specs():
        path = RETRIEVAL_DIR / "datasets" / f"{spec.name}.json"
        coll = collection_of(spec, json.loads(path.read_text(encoding="utf-8")))
        if coll is not None:
            out[spec.name] = coll
    return out


def _text(value: Any) -> str:
    """A field value as ``find_records`` compares it: JSON's spelling of booleans, case-folded text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().casefold()


def matching(coll: Collection, path: str, value: Any) -> list[str]:
    """Identifiers of the rows whose ``path`` equals ``value`` (``find_records``'s rule)."""
    want = _text(value)
    return [str(row[coll.id_field]) for row in coll.rows
            if _get(row, path) is not None and _text(_get(row, path)) == want]


def _templates(coll: Collection) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every question text the retrieval generator can write about this collection that this task keeps or
    recognises, mapped to (kind, parameters); kinds ``find_count``/``structure`` are recognised and left out."""
    spec, out = coll.spec, {}
    records = [(str(row[coll.id_field]), row) for row in coll.rows]
    for ident, row in records:
        ref = _ref(spec, ident, {k: v for k, v in row.items() if k != KEY_FIELD} if spec.keyed else row)
        for fld in spec.fields:
            for text in (f"Is {ref} {fld.label}?", f"How many {fld.label} does {ref} have?",
                         f"What is the {fld.label} of {ref}?"):
                out[text] = ("field", {"ident": ident, "path": fld.path})
    cats = [f for f in spec.fields if f.kind == "category"]
    nums = [f for f in spec.fields if f.kind in ("int", "money", "rate")]
    bools = [f for f in spec.fields if f.kind == "bool"]
    values = {f.path: sorted({str(_get(r, f.path)) for _, r in records if _get(r, f.path) is not None}) for f in cats}
    for fld in nums:
        for how in ("total", "average"):
            out[f"What is the {how} {fld.label} across all {spec.entities}?"] = ("all", {"path": fld.path, "how": how})
        out[f"Which {spec.entity} has the highest {fld.label}? Answer with its {spec.id_field}."] = (
            "all", {"path": fld.path, "how": "highest"})
    for fld in bools:
        out[f"How many {spec.entities} are {fld.label}?"] = ("find_count", {})
    for fc in cats:
        for cat in values[fc.path]:
            out[f"How many {spec.entities} have {fc.label} {cat}?"] = ("find_count", {})
            for fn in nums:
                for row in coll.rows:
                    t = _get(row, fn.path)
                    out[f"How many {spec.entities} have {fc.label} {cat} and {fn.label} greater than {t}?"] = (
                        "filter_cn", {"path": fc.path, "value": cat})
            for fb in bools:
                out[f"How many {spec.entities} are {fb.label} and have {fc.label} {cat}?"] = (
                    "filter_bc", {"flag": fb.path, "path": fc.path, "value": cat})
    out[f"How many {spec.entities} are in the dataset?"] = ("structure", {})
    return out


def classify(coll: Collection, question: str) -> tuple[str, dict[str, Any]] | None:
    """(kind, parameters) of a retrieval question about ``coll``, or None for a text no template writes."""
    return _templates_cached(coll.name).get(question) or (
        ("structure", {}) if question.startswith("List the field names") else None)


@lru_cache(maxsize=64)
def _templates_cached(name: str) -> dict[str, tuple[str, dict[str, Any]]]:
    return _templates(collections()[name])


def _call(function: str, **arguments: Any) -> dict[str, Any]:
    return {"function": function, "arguments": arguments}


def _all_pages(coll: Collection) -> list[dict[str, Any]]:
    return [_call("list_records", offset=page * PAGE_SIZE) for page in range(coll.pages())]


def plan(coll: Collection, kind: str, params: dict[str, Any]) -> tuple[int, list[dict[str, Any]], dict[str, list[str]]]:
    """(fewest calls that answer, the perfect agent's calls, the evidence an answer needs: identifiers whose full
    record must have been returned (``full``), or that must have been named by some result (``any``))."""
    idents = coll.idents
    if kind == "field":
        ident = params["ident"]
        fewest = 1 if idents.index(ident) < PAGE_SIZE else 2
        calls = [_call("find_records", field=coll.id_field, value=ident), _call("get_record", ref=coll.ref(ident))]
        return fewest, calls, {"full": [ident], "any": []}
    if kind == "all":
        return coll.pages(), _all_pages(coll), {"full": idents, "any": []}
    if kind == "filter_cn":
        found = matching(coll, params["path"], params["value"])
        fewest = 1 if not found else min(1 + len(found), coll.pages())
        return fewest, _all_pages(coll), {"full": found, "any": []}
    if kind == "filter_bc":
        flagged, found = matching(coll, params["flag"], True), matching(coll, params["path"], params["value"])
        fewest = 1 if not (flagged and found) else 2
        calls = [_call("find_records", field=params["flag"], value="true"),
                 _call("find_records", field=params["path"], value=params["value"])]
        return fewest, calls, {"full": [], "any": sorted(set(flagged) | set(found))}
    return 1, [], {"full": [], "any": []}


def tool_questions() -> list[dict[str, Any]]:
    """The retrieval questions kept for the tool task, each with ``kind``, ``plan``, ``evidence``, ``min_calls``
    and ``collection`` (dataset name). ValueError for a question about a collection that no template matches (the
    generator and this module disagree)."""
    colls = collections()
    out = []
    for rec in read_questions(QUESTIONS_FILE):
        name = rec["dataset"].removeprefix("datasets/").removesuffix(".json")
        if name not in colls or rec.get("corruption", "none") != "none":
            continue
        matched = classify(colls[name], rec["question"])
        if matched is None:
            raise ValueError(f"{QUESTIONS_FILE}:{rec['_line']}: question {rec['question']!r} matches no template")
        kind, params = matched
        fewest, calls, evidence = plan(colls[name], kind, params)
        if fewest >= MIN_CALLS:
            out.append({**rec, "kind": kind, "params": params, "plan": calls, "evidence": evidence,
                        "min_calls": fewest, "collection": name})
    return out
