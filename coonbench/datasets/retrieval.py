"""Retrieval over data formats: seeded Faker datasets, code-generated exact-answer questions, and the loader.

``python -m coonbench.datasets.retrieval --write`` regenerates ``data/retrieval/datasets/*.json`` and
``data/retrieval/questions.v1.jsonl`` (byte-identical on every run; a test checks it). Each JSONL line is
``{id, dataset, question, answer, answer_type, question_type, complexity[, normalize_options][, corruption]}``
with ``dataset`` a JSON file path relative to the JSONL file — the same shape a user's ``questions_file`` uses
(only the first five keys are required there).

Datasets (kept small so prompts fit a small local model): flat employees, nested orders, daily analytics, event
logs with optional nested errors, a deep configuration, keyed feature flags, contacts with nested groups, one
dataset per business domain (finance … legal), and two structural-validation bases.

Question types: field-retrieval, aggregation, filtering (multi-condition), structure-awareness, and
structural-validation ("Is this data complete and valid?"; ground truth = NO when a corruption was applied).
Ambiguous questions (ties for a maximum, non-unique identifiers) are not emitted.

Structural corruption is applied to the ENCODED TEXT, per format (``corrupt_encoded``), as TOON's benchmark does:
* row formats — ``toon``, ``csv``, ``tealeaf``, ``tealeaf-compact`` (one line per record):
  - truncated: the last 3 row lines are removed (TOON's header still declares ``[20]``);
  - extra-rows: 3 row lines are appended (TOON's header keeps the original ``[20]``);
  - width-mismatch: one cell (``salary``) is deleted from row 10, so the row is narrower than its header/struct;
  - missing-fields: the ``email`` cell is deleted from every 5th row.
* every other format (json, json-compact, yaml, xml, user plug-ins): the lossy-pipeline outcome — the data with
  the rows removed/added or the keys deleted is encoded as usual (a schema-level signal only, or none).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from faker import Faker
from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.formats import FormatError, get_format
from coonbench.paths import DATA_DIR
from coonbench.samples import sample_metadata, split_param

logger = logging.getLogger(__name__)

DATASET_VERSION = 1
RETRIEVAL_DIR = DATA_DIR / "retrieval"
QUESTIONS_FILE = RETRIEVAL_DIR / f"questions.v{DATASET_VERSION}.jsonl"
SEED = 20261121
DEFAULT_FORMATS = ("json", "json-compact", "toon", "tealeaf-compact", "yaml", "xml", "csv")
CATEGORY = "retrieval"

# TOON-style prompt (benchmarks/src/evaluate.ts): primer, fenced data, question, answer-format rules.
PROMPT = """{primer}

Given the following data in {format_label} format:

```{fence}
{data}
```

Question: {question}

Answer format requirements:
- Provide only the value itself, no explanation
- For numbers: output digits only (no commas, currency symbols, or units)
- For dates/field names: use the exact string from the data
- For lists: output comma-separated values with no spaces
- For yes/no questions: answer YES or NO

Answer:"""

FORMAT_LABELS: dict[str, str] = {
    "json": "JSON",
    "json-compact": "JSON compact",
    "toon": "TOON",
    "tealeaf": "TeaLeaf",
    "tealeaf-compact": "TeaLeaf",
    "yaml": "YAML",
    "xml": "XML",
    "csv": "CSV",
}
VALIDATION_QUESTION = "Is this data complete and valid? Answer YES or NO."
CORRUPTIONS = ("none", "truncated", "extra-rows", "width-mismatch", "missing-fields")
ROW_FORMATS = ("toon", "csv", "tealeaf", "tealeaf-compact")
REQUIRED_FIELDS = ("id", "dataset", "question", "answer", "answer_type")


def format_label(name: str) -> str:
    """Display name of a format in prompts (TeaLeaf's ``{format_name}`` style)."""
    return FORMAT_LABELS.get(name, name.upper())


# --- dataset specs ----------------------------------------------------------------------------------------


@dataclass
class Field:
    """A record field the generic questions may ask about (``path`` may be dotted for nested objects)."""

    path: str
    label: str
    kind: str  # category | int | money | rate | bool | date | text | list


@dataclass
class Spec:
    """How to ask about a dataset: where its records are, how to name one, which fields to use."""

    name: str
    description: str
    structure: str  # uniform | nested | semi-uniform | deep | keyed
    collection: str  # key of the record list (or keyed map) in the data
    entity: str  # singular noun
    entities: str  # plural noun
    ref: str  # how a record is named in a question, e.g. "employee {name}"
    id_field: str  # identifier used for "which …" answers ("" for keyed maps: the key)
    fields: list[Field]
    keyed: bool = False
    data: Any = None
    extra_questions: Callable[[Spec, random.Random], list[dict[str, Any]]] | None = None


def _money(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def _unique_names(fake: Faker, n: int, make: Callable[[], str]) -> list[str]:
    seen: list[str] = []
    while len(seen) < n:
        value = make()
        if value not in seen and "," not in value:
            seen.append(value)
    return seen


def _dates(rng: random.Random, n: int, year: int = 2025) -> list[str]:
    days = sorted(rng.sample(range(1, 360), n))
    return [(_date_of(year, d)) for d in days]


def _date_of(year: int, day_of_year: int) -> str:
    import datetime as dt

    return (dt.date(year, 1, 1) + dt.timedelta(days=day_of_year - 1)).isoformat()


def _fake(seed: int) -> tuple[Faker, random.Random]:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    return fake, random.Random(seed)


def _employees(seed: int, n: int = 20) -> dict[str, Any]:
    fake, rng = _fake(seed)
    names = _unique_names(fake, n, fake.name)
    depts = ["Engineering", "Sales", "Marketing", "Operations", "Finance"]
    rows = []
    for i, name in enumerate(names):
        rows.append({
            "id": i + 1,
            "name": name,
            "email": fake.unique.email(),
            "department": rng.choice(depts),
            "salary": rng.randrange(45_000, 160_000, 500),
            "yearsExperience": rng.randint(1, 25),
            "active": rng.random() < 0.75,
        })
    return {"employees": rows}


def _orders(seed: int, n: int = 10) -> dict[str, Any]:
    fake, rng = _fake(seed)
    products = [("Widget", 19.99), ("Gadget", 34.5), ("Cable", 7.25), ("Lamp", 42.0), ("Mug", 12.75), ("Desk", 189.0)]
    orders = []
    for i in range(n):
        items = []
        for sku, (pname, price) in enumerate(rng.sample(products, rng.randint(1, 4))):
            items.append({"sku": f"SKU-{products.index((pname, price)) + 100}", "name": pname,
                          "quantity": rng.randint(1, 5), "price": price})
        total = float(Decimal(str(sum(it["quantity"] * it["price"] for it in items))).quantize(Decimal("0.01")))
        orders.append({
            "orderId": f"ORD-{1001 + i}",
            "customer": {"id": 500 + i, "name": fake.name(), "email": fake.email()},
            "items": items,
            "total": total,
            "status": rng.choice(["pending", "shipped", "delivered", "cancelled"]),
            "orderDate": _date_of(2025, rng.randint(1, 300)),
        })
    return {"orders": orders}


def _analytics(seed: int, n: int = 21) -> dict[str, Any]:
    _, rng = _fake(seed)
    rows = []
    for d in range(n):
        views = rng.randint(800, 6000)
        clicks = rng.randint(50, views // 5)
        rows.append({
            "date": _date_of(2025, 60 + d),
            "views": views,
            "clicks": clicks,
            "conversions": rng.randint(0, clicks // 4),
            "revenue": _money(rng, 100, 9000),
            "bounceRate": round(rng.uniform(0.2, 0.8), 2),
        })
    return {"metrics": rows}


def _events(seed: int, n: int = 18) -> dict[str, Any]:
    fake, rng = _fake(seed)
    endpoints = ["/api/users", "/api/orders", "/api/login", "/api/search", "/api/cart"]
    logs = []
    for i in range(n):
        level = rng.choice(["info", "info", "warn", "error"])
        status = 500 if level == "error" else rng.choice([200, 200, 201, 404])
        entry: dict[str, Any] = {
            "timestamp": f"2025-03-{1 + i // 6:02d}T{8 + i % 12:02d}:{rng.randint(0, 59):02d}:00Z",
            "level": level,
            "endpoint": rng.choice(endpoints),
            "statusCode": status,
            "responseTime": rng.randint(20, 2500),
            "userId": rng.randint(1000, 1100),
        }
        if level == "error":
            entry["error"] = {"message": rng.choice(["Database timeout", "Null reference", "Upstream unavailable"]),
                              "code": rng.choice(["E_DB", "E_NULL", "E_UPSTREAM"]),
                              "retryable": rng.random() < 0.5}
        logs.append(entry)
    return {"logs": logs}


def _config(seed: int) -> dict[str, Any]:
    fake, rng = _fake(seed)
    return {
        "environment": "production",
        "version": f"{rng.randint(1, 4)}.{rng.randint(0, 9)}.{rng.randint(0, 20)}",
        "server": {
            "host": fake.domain_name(),
            "port": rng.choice([8080, 8443, 9000]),
            "tls": {"enabled": True, "minVersion": "1.2", "certificate": {"issuer": fake.company().replace(",", ""),
                                                                         "expiresAt": _date_of(2026, rng.randint(1, 360))}},
            "limits": {"maxConnections": rng.randint(100, 2000), "timeoutSeconds": rng.randint(5, 120)},
        },
        "database": {
            "engine": "postgres",
            "primary": {"host": fake.ipv4_private(), "port": 5432, "pool": {"min": rng.randint(1, 5), "max": rng.randint(10, 50)}},
            "replicas": [{"host": fake.ipv4_private(), "lagSeconds": rng.randint(0, 30)} for _ in range(rng.randint(2, 4))],
        },
        "features": {"enabled": sorted(rng.sample(["search", "export", "billing", "sso", "audit", "beta-ui"], 3)),
                     "rolloutPercent": rng.randint(5, 95)},
        "logging": {"level": rng.choice(["debug", "info", "warn"]), "retentionDays": rng.randint(7, 90),
                    "sinks": {"file": {"path": "/var/log/app.log", "rotate": True}, "remote": {"url": f"https://{fake.domain_name()}/ingest", "batchSize": rng.randint(10, 500)}}},
    }


def _flags(seed: int, n: int = 14) -> dict[str, Any]:
    fake, rng = _fake(seed)
    words = _unique_names(fake, n, lambda: f"{fake.word()}_{fake.word()}")
    return {"flags": {f"flag_{w}": {
        "enabled": rng.random() < 0.6,
        "rollout": rng.choice([0, 10, 25, 50, 75, 100]),
        "owner": rng.choice(["platform", "growth", "payments", "search"]),
        "updatedAt": _date_of(2025, rng.randint(1, 330)),
    } for w in words}}


def _contacts(seed: int, n: int = 14) -> dict[str, Any]:
    fake, rng = _fake(seed)
    names = _unique_names(fake, n, fake.name)
    plans = [("Basic", 9.99), ("Pro", 29.0), ("Team", 79.0)]
    return {"contacts": [{
        "name": name,
        "age": rng.randint(19, 75),
        "email": fake.email(),
        "address": {"city": fake.city(), "country": rng.choice(["US", "CA", "DE", "FR", "JP"])},
        "plan": dict(zip(("name", "price"), rng.choice(plans))),
    } for name in names]}


def _domain(seed: int, domain: str) -> dict[str, Any]:
    """One small dataset per TeaLeaf business domain."""
    fake, rng = _fake(seed)
    n = 12
    if domain == "finance":
        ids = [f"TX-{7000 + i}" for i in range(n)]
        return {"transactions": [{"txId": t, "account": rng.choice(["Checking", "Savings", "Brokerage"]),
                                  "type": rng.choice(["debit", "credit"]), "amount": _money(rng, 20, 5000),
                                  "date": d, "flagged": rng.random() < 0.2}
                                 for t, d in zip(ids, _dates(rng, n))]}
    if domain == "retail":
        names = _unique_names(fake, n, lambda: f"{fake.color_name()} {rng.choice(['Shirt', 'Mug', 'Lamp', 'Chair', 'Bag'])}")
        return {"products": [{"sku": f"RT-{300 + i}", "name": nm, "category": rng.choice(["Apparel", "Home", "Office"]),
                              "price": _money(rng, 5, 250), "stock": rng.randint(0, 400), "onSale": rng.random() < 0.3}
                             for i, nm in enumerate(names)]}
    if domain == "healthcare":
        names = _unique_names(fake, n, fake.name)
        return {"patients": [{"patientId": f"P-{200 + i}", "name": nm, "age": rng.randint(18, 90),
                              "ward": rng.choice(["Cardiology", "Oncology", "Pediatrics", "Surgery"]),
                              "vitals": {"heartRate": rng.randint(55, 120), "systolic": rng.randint(95, 170)},
                              "admitted": d} for i, (nm, d) in enumerate(zip(names, _dates(rng, n)))]}
    if domain == "technology":
        return {"servers": [{"hostname": f"srv-{fake.unique.word()}-{i + 1:02d}", "region": rng.choice(["us-east", "eu-west", "ap-south"]),
                             "cpuPercent": rng.randint(3, 98), "memoryGb": rng.choice([8, 16, 32, 64]),
                             "uptimeDays": rng.randint(1, 400), "healthy": rng.random() < 0.8} for i in range(n)]}
    if domain == "marketing":
        names = _unique_names(fake, n, lambda: f"{fake.word().title()} {rng.choice(['Launch', 'Promo', 'Retarget', 'Webinar'])}")
        return {"campaigns": [{"campaign": nm, "channel": rng.choice(["email", "social", "search", "display"]),
                               "budget": rng.randrange(1000, 50000, 250), "clicks": rng.randint(100, 20000),
                               "ctr": round(rng.uniform(0.01, 0.12), 2), "active": rng.random() < 0.5}
                              for nm in names]}
    if domain == "logistics":
        return {"shipments": [{"trackingNo": f"TRK{880000 + i * 37}", "carrier": rng.choice(["UPS", "FedEx", "DHL"]),
                               "origin": {"city": fake.city(), "country": "US"},
                               "destination": {"city": fake.city(), "country": rng.choice(["US", "CA", "MX"])},
                               "weightKg": round(rng.uniform(0.5, 80), 2), "status": rng.choice(["in_transit", "delivered", "delayed"]),
                               "shippedOn": d} for i, d in enumerate(_dates(rng, n))]}
    if domain == "hr":
        names = _unique_names(fake, n, fake.name)
        return {"reviews": [{"employee": nm, "team": rng.choice(["Platform", "Support", "Design"]),
                             "rating": rng.randint(1, 5), "bonus": rng.randrange(0, 12000, 100),
                             "promoted": rng.random() < 0.25, "reviewDate": d}
                            for nm, d in zip(names, _dates(rng, n))]}
    if domain == "manufacturing":
        return {"batches": [{"batchId": f"B-{4100 + i}", "line": rng.choice(["Line A", "Line B", "Line C"]),
                             "unitsProduced": rng.randint(200, 5000), "defects": rng.randint(0, 90),
                             "yieldRate": round(rng.uniform(0.85, 0.999), 2), "passedQa": rng.random() < 0.8}
                            for i in range(n)]}
    if domain == "real_estate":
        return {"properties": [{"listingId": f"L-{900 + i}", "address": {"street": fake.street_address(), "city": fake.city()},
                                "type": rng.choice(["Condo", "House", "Townhouse"]), "bedrooms": rng.randint(1, 6),
                                "price": rng.randrange(150_000, 2_000_000, 1000), "listed": d}
                               for i, d in enumerate(_dates(rng, n))]}
    if domain == "legal":
        return {"contracts": [{"contractId": f"C-{2024}-{i + 10}", "counterparty": fake.company().replace(",", ""),
                               "kind": rng.choice(["NDA", "MSA", "Lease", "License"]),
                               "valueUsd": rng.randrange(5_000, 900_000, 500),
                               "parties": [fake.name() for _ in range(rng.randint(2, 4))],
                               "signed": d, "autoRenew": rng.random() < 0.4}
                              for i, d in enumerate(_dates(rng, n))]}
    raise ValueError(domain)


DOMAINS = ("finance", "retail", "healthcare", "technology", "marketing", "logistics", "hr", "manufacturing",
           "real_estate", "legal")


def _F(path: str, label: str, kind: str) -> Field:
    return Field(path, label, kind)


def _specs() -> list[Spec]:
    """Every dataset with its question spec (data generated from fixed seeds)."""
    s = SEED
    specs = [
        Spec("employees", "Employee records (flat, uniform)", "uniform", "employees", "employee", "employees",
             "employee {name}", "name",
             [_F("email", "email address", "text"), _F("department", "department", "category"),
              _F("salary", "salary", "int"), _F("yearsExperience", "years of experience", "int"),
              _F("active", "active", "bool")], data=_employees(s + 1)),
        Spec("orders", "E-commerce orders with nested customers and items", "nested", "orders", "order", "orders",
             "order {orderId}", "orderId",
             [_F("customer.name", "customer name", "text"), _F("total", "total", "money"),
              _F("status", "status", "category"), _F("orderDate", "order date", "date"),
              _F("items", "line items", "list")], data=_orders(s + 2)),
        Spec("analytics", "Daily web analytics (time series)", "uniform", "metrics", "day", "days",
             "the day {date}", "date",
             [_F("views", "views", "int"), _F("clicks", "clicks", "int"), _F("conversions", "conversions", "int"),
              _F("revenue", "revenue", "money"), _F("bounceRate", "bounce rate", "rate")], data=_analytics(s + 3)),
        Spec("events", "Event logs, errors carry a nested error object", "semi-uniform", "logs", "log entry",
             "log entries", "the log entry at {timestamp}", "timestamp",
             [_F("level", "level", "category"), _F("endpoint", "endpoint", "category"),
              _F("statusCode", "status code", "int"), _F("responseTime", "response time", "int"),
              _F("error.code", "error code", "text")], data=_events(s + 4)),
        Spec("config", "Deeply nested service configuration", "deep", "", "", "", "", "", [], data=_config(s + 5)),
        Spec("flags", "Feature flags keyed by name", "keyed", "flags", "flag", "flags", "flag {key}", "",
             [_F("enabled", "enabled", "bool"), _F("rollout", "rollout percentage", "int"),
              _F("owner", "owner", "category"), _F("updatedAt", "last update date", "date")], keyed=True,
             data=_flags(s + 6)),
        Spec("contacts", "Contacts with nested address and plan groups", "nested", "contacts", "contact", "contacts",
             "contact {name}", "name",
             [_F("age", "age", "int"), _F("address.city", "city", "text"), _F("address.country", "country", "category"),
              _F("plan.name", "plan name", "category"), _F("plan.price", "plan price", "money")], data=_contacts(s + 7)),
    ]
    domain_fields: dict[str, tuple[str, str, str, str, str, list[Field]]] = {
        "finance": ("transactions", "transaction", "transactions", "transaction {txId}", "txId",
                    [_F("account", "account", "category"), _F("type", "type", "category"), _F("amount", "amount", "money"),
                     _F("date", "date", "date"), _F("flagged", "flagged", "bool")]),
        "retail": ("products", "product", "products", "product {name}", "name",
                   [_F("category", "category", "category"), _F("price", "price", "money"), _F("stock", "stock", "int"),
                    _F("onSale", "on sale", "bool")]),
        "healthcare": ("patients", "patient", "patients", "patient {name}", "name",
                       [_F("age", "age", "int"), _F("ward", "ward", "category"), _F("vitals.heartRate", "heart rate", "int"),
                        _F("vitals.systolic", "systolic blood pressure", "int"), _F("admitted", "admission date", "date")]),
        "technology": ("servers", "server", "servers", "server {hostname}", "hostname",
                       [_F("region", "region", "category"), _F("cpuPercent", "CPU percentage", "int"),
                        _F("memoryGb", "memory in GB", "int"), _F("uptimeDays", "uptime in days", "int"),
                        _F("healthy", "healthy", "bool")]),
        "marketing": ("campaigns", "campaign", "campaigns", "campaign {campaign}", "campaign",
                      [_F("channel", "channel", "category"), _F("budget", "budget", "int"), _F("clicks", "clicks", "int"),
                       _F("ctr", "click-through rate", "rate"), _F("active", "active", "bool")]),
        "logistics": ("shipments", "shipment", "shipments", "shipment {trackingNo}", "trackingNo",
                      [_F("carrier", "carrier", "category"), _F("destination.city", "destination city", "text"),
                       _F("destination.country", "destination country", "category"),
                       _F("weightKg", "weight in kg", "money"), _F("status", "status", "category"),
                       _F("shippedOn", "ship date", "date")]),
        "hr": ("reviews", "review", "reviews", "the review of {employee}", "employee",
               [_F("team", "team", "category"), _F("rating", "rating", "int"), _F("bonus", "bonus", "int"),
                _F("promoted", "promoted", "bool"), _F("reviewDate", "review date", "date")]),
        "manufacturing": ("batches", "batch", "batches", "batch {batchId}", "batchId",
                          [_F("line", "production line", "category"), _F("unitsProduced", "units produced", "int"),
                           _F("defects", "defects", "int"), _F("yieldRate", "yield rate", "rate"),
                           _F("passedQa", "passed QA", "bool")]),
        "real_estate": ("properties", "property", "properties", "listing {listingId}", "listingId",
                        [_F("address.city", "city", "text"), _F("type", "property type", "category"),
                         _F("bedrooms", "number of bedrooms", "int"), _F("price", "price", "int"),
                         _F("listed", "listing date", "date")]),
        "legal": ("contracts", "contract", "contracts", "contract {contractId}", "contractId",
                  [_F("counterparty", "counterparty", "text"), _F("kind", "contract kind", "category"),
                   _F("valueUsd", "value in USD", "int"), _F("parties", "parties", "list"),
                   _F("signed", "signing date", "date"), _F("autoRenew", "auto-renewing", "bool")]),
    }
    for i, domain in enumerate(DOMAINS):
        coll, ent, ents, ref, idf, flds = domain_fields[domain]
        data = _domain(s + 100 + i, domain)
        structure = "uniform" if all(f.kind != "list" and "." not in f.path for f in flds) else "nested"
        specs.append(Spec(f"{domain}", f"{domain.replace('_', ' ').title()} domain data", structure, coll, ent, ents,
                          ref, idf, flds, data=data))
    return specs


def _validation_bases() -> list[tuple[str, dict[str, Any]]]:
    """Two valid 20-row bases; each gets the five structural-validation variants."""
    out = []
    for k in range(2):
        data = _employees(SEED + 50 + k, n=20)
        for row in data["employees"]:
            row.pop("yearsExperience")
        out.append((f"validation-{k + 1}", data))
    return out


# --- question generation ----------------------------------------------------------------------------------


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
    for spec in _specs():
        rng = random.Random(f"{SEED}-{spec.name}")
        datasets[spec.name] = spec.data
        qs = _config_questions(spec, rng) if spec.name == "config" else _generic_questions(spec, rng)
        for n, q in enumerate(qs, start=1):
            records.append({"id": f"{spec.name}-q{n:02d}", "dataset": f"datasets/{spec.name}.json",
                            "complexity": spec.structure, **q})
    for name, data in _validation_bases():
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


# --- structural corruption of encoded text ----------------------------------------------------------------


def _row_indices(lines: list[str], fmt: str) -> list[int]:
    if fmt == "csv":
        return [i for i, line in enumerate(lines) if i > 0 and line.strip()]
    if fmt == "toon":
        return [i for i, line in enumerate(lines) if line.startswith("  ")]
    return [i for i, line in enumerate(lines) if line.lstrip().startswith("(")]


def _drop_cell(line: str, column: int, fmt: str) -> str:
    if fmt in ("tealeaf", "tealeaf-compact"):
        m = re.match(r"^(\s*\()(.*)(\)\s*,?\s*)$", line)
        if not m:
            raise FormatError(f"unexpected TeaLeaf row line {line!r}")
        head, body, tail = m.groups()
    else:
        head, body, tail = re.match(r"^(\s*)(.*?)(\s*)$", line).groups()  # type: ignore[union-attr]
    cells = body.split(",")
    del cells[column]
    return head + ",".join(cells) + tail


def corrupt_encoded(data: dict[str, Any], fmt: str, corruption: str, extra_seed: int = SEED) -> str:
    """The text shown for ``data`` in ``fmt`` after ``corruption`` (see the module docstring for the rules)."""
    encoder = get_format(fmt)
    key = next(iter(data))
    rows: list[dict[str, Any]] = data[key]
    if corruption == "none":
        return encoder.encode(data)
    extra = _employees(extra_seed + 999, n=3)["employees"]
    for i, row in enumerate(extra):
        row["id"] = len(rows) + i + 1
        row.pop("yearsExperience", None)
    fields = list(rows[0].keys())
    drop = {"width-mismatch": ("salary", [9]), "missing-fields": ("email", list(range(4, len(rows), 5)))}
    if fmt not in ROW_FORMATS:
        if corruption == "truncated":
            return encoder.encode({key: rows[:-3]})
        if corruption == "extra-rows":
            return encoder.encode({key: rows + extra})
        name, where = drop[corruption]
        changed = [{k: v for k, v in r.items() if not (i in where and k == name)} for i, r in enumerate(rows)]
        return encoder.encode({key: changed})
    if corruption == "truncated":
        if fmt == "toon":
            lines = encoder.encode(data).split("\n")
            idx = _row_indices(lines, fmt)
            return "\n".join(line for i, line in enumerate(lines) if i not in idx[-3:])
        return encoder.encode({key: rows[:-3]})
    if corruption == "extra-rows":
        text = encoder.encode({key: rows + extra})
        if fmt == "toon":
            text = text.replace(f"{key}[{len(rows) + 3}]", f"{key}[{len(rows)}]", 1)
        return text
    name, where = drop[corruption]
    lines = encoder.encode(data).split("\n")
    idx = _row_indices(lines, fmt)
    if len(idx) != len(rows):
        raise FormatError(f"{fmt}: found {len(idx)} row lines for {len(rows)} rows")
    for r in where:
        lines[idx[r]] = _drop_cell(lines[idx[r]], fields.index(name), fmt)
    return "\n".join(lines)


# --- loading ----------------------------------------------------------------------------------------------


class QuestionsFileError(ValueError):
    """A malformed questions JSONL: names file, line and field."""


def read_questions(path: str | Path) -> list[dict[str, Any]]:
    """Validated question records of a JSONL file; ``dataset`` resolved against the file's folder."""
    source = Path(path)
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise QuestionsFileError(f"{source}: cannot read questions file: {err}") from err
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuestionsFileError(f"{source}:{lineno}: not valid JSON: {err.msg}") from err
        if not isinstance(rec, dict):
            raise QuestionsFileError(f"{source}:{lineno}: expected a JSON object")
        for name in REQUIRED_FIELDS:
            if name not in rec or rec[name] is None or (isinstance(rec[name], str) and not rec[name].strip()):
                raise QuestionsFileError(f"{source}:{lineno}: field '{name}' is missing or empty")
        for name in ("id", "dataset", "question", "answer_type"):
            if not isinstance(rec[name], str):
                raise QuestionsFileError(f"{source}:{lineno}: field '{name}' must be a string")
        from coonbench.normalize import ANSWER_TYPES, NormalizeOptions

        if rec["answer_type"] not in ANSWER_TYPES:
            raise QuestionsFileError(f"{source}:{lineno}: field 'answer_type': unknown type {rec['answer_type']!r} "
                                     f"(expected one of {', '.join(ANSWER_TYPES)})")
        try:
            NormalizeOptions.coerce(rec.get("normalize_options"))
        except (TypeError, ValueError) as err:
            raise QuestionsFileError(f"{source}:{lineno}: field 'normalize_options': {err}") from err
        if rec.get("corruption", "none") not in CORRUPTIONS:
            raise QuestionsFileError(f"{source}:{lineno}: field 'corruption': expected one of {', '.join(CORRUPTIONS)}")
        if rec["id"] in seen:
            raise QuestionsFileError(f"{source}:{lineno}: field 'id': duplicate id {rec['id']!r}")
        seen.add(rec["id"])
        data_path = (source.parent / rec["dataset"]).resolve()
        if not data_path.is_file():
            raise QuestionsFileError(f"{source}:{lineno}: field 'dataset': file {data_path} not found")
        out.append({**rec, "_data_path": str(data_path), "_line": lineno})
    return out


def parse_formats(formats: str | Sequence[str] | None) -> list[str]:
    """``-T formats=a,b`` or a list → names, each checked against the registry (FormatError naming unknown)."""
    names = list(DEFAULT_FORMATS) if formats is None else split_param(formats) or []
    for name in names:
        get_format(name)
    if not names:
        raise ValueError("formats: at least one format is needed")
    return names


def _load_json(path: str, cache: dict[str, Any]) -> Any:
    if path not in cache:
        try:
            cache[path] = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise QuestionsFileError(f"{path}:{err.lineno}: dataset is not valid JSON: {err.msg}") from err
    return cache[path]


def build_prompt(fmt: str, data_text: str, question: str) -> str:
    """The full prompt for one question in one format (TOON's layout)."""
    f = get_format(fmt)
    return PROMPT.format(primer=f.primer("short"), format_label=format_label(fmt), fence=f.fence,
                         data=data_text.rstrip("\n"), question=question)


def retrieval_samples(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None
) -> tuple[list[Sample], dict[str, list[str]]]:
    """Samples for every question in every format, and the (format → question ids) skipped because the
    format cannot hold the data (CSV on nested data)."""
    names = parse_formats(formats)
    records = read_questions(questions_file or QUESTIONS_FILE)
    cache: dict[str, Any] = {}
    encoded: dict[tuple[str, str, str], str | None] = {}
    samples: list[Sample] = []
    skipped: dict[str, list[str]] = {}
    for rec in records:
        data = _load_json(rec["_data_path"], cache)
        corruption = rec.get("corruption", "none")
        for fmt in names:
            key = (rec["_data_path"], fmt, corruption)
            if key not in encoded:
                try:
                    encoded[key] = corrupt_encoded(data, fmt, corruption) if corruption != "none" else get_format(fmt).encode(data)
                except FormatError:
                    encoded[key] = None
            text = encoded[key]
            if text is None:
                skipped.setdefault(fmt, []).append(rec["id"])
                continue
            prompt = build_prompt(fmt, text, rec["question"])
            meta = sample_metadata(
                format=fmt, category=CATEGORY, question_type=rec.get("question_type", "custom"),
                complexity=rec.get("complexity", "custom"), input_text=prompt,
                answer_type=rec["answer_type"], normalize_options=rec.get("normalize_options"),
                pair_id=rec["id"], dataset=rec["dataset"], corruption=corruption,
            )
            samples.append(Sample(id=f"{CATEGORY}-{rec['id']}-{fmt}", input=prompt, target=str(rec["answer"]),
                                  metadata=meta))
    for fmt, ids in skipped.items():
        logger.warning("retrieval: format %s cannot hold the data of %d questions (skipped)", fmt, len(ids))
    return samples, skipped


def retrieval_dataset(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None
) -> MemoryDataset:
    """The Inspect dataset (skipped questions are recorded in the log's dataset name and a warning)."""
    samples, skipped = retrieval_samples(formats, questions_file)
    note = "; ".join(f"{fmt} skips {len(ids)}" for fmt, ids in sorted(skipped.items()))
    return MemoryDataset(samples, name=f"retrieval{' (' + note + ')' if note else ''}")


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


if __name__ == "__main__":
    raise SystemExit(main())


# --- TeaLeaf-compatible analysis mode ---------------------------------------------------------------------

TEALEAF_HINT_KEYS = {"tealeaf": "tl", "tealeaf-compact": "tl", "json": "json", "json-compact": "json", "toon": "toon"}


def _judge_criteria(elements: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Criteria for the swappable LLM judge, derived from the expected elements (None if unavailable)."""
    try:
        from coonbench.criteria import sample_criteria
    except ImportError:  # pragma: no cover - the judge module is optional
        return None
    completeness = [f"Verify the answer addresses: {e['description']}" for e in elements]
    accuracy = [f"Verify the answer states {e['description']} correctly from the data" for e in elements
                if e.get("validation_pattern")] or ["Verify every figure the answer quotes agrees with the data"]
    try:
        return sample_criteria(accuracy=accuracy, completeness=completeness or ["Verify the answer addresses the task"])
    except ValueError:
        return None


def analysis_samples(
    tasks_file: str | Path, formats: str | Sequence[str] | None = None
) -> tuple[list[Sample], list[str]]:
    """Every runnable TeaLeaf task rendered in every chosen format, and the rejection messages."""
    from coonbench.tealeaf_tasks import available_tasks, load_task_file

    names = parse_formats(formats)
    loaded, rejected = available_tasks(load_task_file(tasks_file))
    if not loaded:
        raise ValueError(f"{tasks_file}: no runnable tasks ({'; '.join(rejected) or 'the file lists none'})")
    samples: list[Sample] = []
    for item in loaded:
        task = item.task
        data = item.load_data()
        elements = [e.model_dump(exclude_none=False) for e in task.expected_elements]
        for fmt in names:
            try:
                text = get_format(fmt).encode(data) if data is not None else ""
            except FormatError as err:
                message = f"{item.source}: task '{task.id}': format {fmt} cannot hold its data ({err.message})"
                logger.warning(message)
                rejected.append(message)
                continue
            prompt = item.render(text.rstrip("\n"), format_label(fmt), TEALEAF_HINT_KEYS.get(fmt))
            extra: dict[str, Any] = {}
            criteria = _judge_criteria(elements)
            if criteria is not None:
                extra["criteria"] = criteria
            meta = sample_metadata(
                format=fmt, category=task.category, question_type=task.output_type, complexity=task.complexity,
                input_text=prompt, pair_id=task.id, task_id=task.id, output_type=task.output_type,
                expected_elements=elements,
                generate_config={"max_tokens": task.max_tokens, "temperature": task.temperature}, **extra,
            )
            samples.append(Sample(id=f"analysis-{task.id}-{fmt}", input=prompt, target="", metadata=meta))
    return samples, rejected
