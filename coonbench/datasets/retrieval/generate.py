"""Seeded Faker datasets and their question specs (which collection, how to name a record, which fields).

Datasets are kept small so prompts fit a small local model: flat employees, nested orders, daily analytics, event
logs with optional nested errors, a deep configuration, keyed feature flags, contacts with nested groups, one
dataset per business domain (finance … legal), and two structural-validation bases.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from coonbench.datasets.retrieval.common import SEED

if TYPE_CHECKING:
    from faker import Faker


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
    from faker import Faker  # here, not at import: every `inspect` process loads the registry

    fake = Faker("en_US")
    fake.seed_instance(seed)
    return fake, random.Random(seed)


def make_employees(seed: int, n: int = 20) -> dict[str, Any]:
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


def dataset_specs() -> list[Spec]:
    """Every dataset with its question spec (data generated from fixed seeds)."""
    s = SEED
    specs = [
        Spec("employees", "Employee records (flat, uniform)", "uniform", "employees", "employee", "employees",
             "employee {name}", "name",
             [_F("email", "email address", "text"), _F("department", "department", "category"),
              _F("salary", "salary", "int"), _F("yearsExperience", "years of experience", "int"),
              _F("active", "active", "bool")], data=make_employees(s + 1)),
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


def validation_bases() -> list[tuple[str, dict[str, Any]]]:
    """Two valid 20-row bases; each gets the five structural-validation variants."""
    out = []
    for k in range(2):
        data = make_employees(SEED + 50 + k, n=20)
        for row in data["employees"]:
            row.pop("yearsExperience")
        out.append((f"validation-{k + 1}", data))
    return out
