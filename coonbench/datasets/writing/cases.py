"""Seeded cases of the writing task: the data a model must write, in the shapes that matter, at several sizes.

Why these shapes: TOON's own claims and the third-party generation benchmark split on them (flat uniform rows are
TOON's best case, invoices and nested companies its worst). Each case is plain JSON data built by code from a
seeded generator (``random.Random`` of the shape, size and seed), so the same arguments give the same cases
everywhere; every string reads back as a string in every format (no number-like, boolean-like or empty strings),
so a difference a scorer finds is the model's, not the format's.
Invoices carry computed fields (``computed``: path -> the rule), which the description states as rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

SHAPES = ("flat", "nested", "arrays", "irregular", "invoice", "config")
SIZES = {"small": 3, "medium": 8, "large": 20}
"""Records per case (for ``config``: nesting depth 2, 3, 5 with the same names)."""
CONFIG_DEPTH = {"small": 2, "medium": 3, "large": 5}

_FIRST = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Niklaus", "Radia",
          "Tim", "Hedy", "John", "Leslie", "Sophie", "Linus", "Guido", "Anita", "Dennis")
_LAST = ("Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Wirth",
         "Perlman", "Lee", "Lamarr", "Backus", "Lamport", "Wilson", "Torvalds", "Rossum", "Borg", "Ritchie")
_CITIES = ("Oslo", "Lyon", "Porto", "Graz", "Turku", "Ghent", "Bergen", "Leeds", "Malmo", "Basel")
_STREETS = ("Elm Street", "Harbour Road", "Mill Lane", "Station Avenue", "Park Row", "Bridge Street")
_DEPARTMENTS = ("Research", "Sales", "Support", "Finance", "Legal", "Design", "Operations", "Marketing")
_TAGS = ("urgent", "gift", "fragile", "bulk", "express", "returned", "priority", "sample")
_PRODUCTS = ("keyboard", "monitor stand", "desk lamp", "usb cable", "notebook", "headset", "webcam", "mouse pad",
             "chair mat", "laptop sleeve", "power strip", "whiteboard")
_EVENTS = ("login", "logout", "upload", "download", "share", "delete", "rename")
_LEVELS = ("debug", "info", "warning", "error")
_SECTIONS = ("server", "database", "cache", "logging", "auth", "metrics", "queue", "storage")
_SETTINGS = ("host", "mode", "region", "driver", "scheme", "codec")


@dataclass
class Case:
    """One writing case: its stable id, shape, size band, the exact data, and the fields computed by rule."""

    id: str
    shape: str
    size: str
    data: Any
    computed: dict[str, str] = field(default_factory=dict)


def _price(rng: random.Random, low: int, high: int) -> float:
    """A price with non-zero cents (never a whole number, so no format may turn it into an int)."""
    return (rng.randrange(low * 100, high * 100) // 10 * 10 + rng.randrange(1, 10)) / 100


def _name(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


def _email(name: str, n: int) -> str:
    return f"{name.split()[0].lower()}.{name.split()[1].lower()}{n}@example.org"


def _flat(rng: random.Random, n: int) -> dict[str, Any]:
    users = []
    for i in range(n):
        name = _name(rng)
        users.append({"id": 100 + i, "name": name, "email": _email(name, i), "city": rng.choice(_CITIES),
                      "age": rng.randrange(21, 70), "score": _price(rng, 1, 99), "active": rng.random() < 0.6})
    return {"users": users}


def _nested(rng: random.Random, n: int) -> dict[str, Any]:
    departments = []
    for i in range(n):
        head = _name(rng)
        departments.append({"name": f"{_DEPARTMENTS[i % len(_DEPARTMENTS)]} {i + 1}",
                            "head": {"name": head, "email": _email(head, i)},
                            "budget": _price(rng, 1000, 90000),
                            "office": {"city": rng.choice(_CITIES), "floor": rng.randrange(1, 12)}})
    return {"company": {"name": f"{rng.choice(_LAST)} Systems",
                        "founded": rng.randrange(1950, 2020),
                        "address": {"street": rng.choice(_STREETS), "number": rng.randrange(1, 200),
                                    "city": rng.choice(_CITIES)},
                        "departments": departments}}


def _arrays(rng: random.Random, n: int) -> dict[str, Any]:
    orders = []
    for i in range(n):
        k = rng.randrange(0, 4)
        orders.append({"id": f"ORD-{1000 + i}", "customer": _name(rng), "tags": rng.sample(_TAGS, k),
                       "quantities": [rng.randrange(1, 9) for _ in range(rng.randrange(1, 4))],
                       "paid": rng.random() < 0.5})
    return {"orders": orders}


def _irregular(rng: random.Random, n: int) -> dict[str, Any]:
    events = []
    for i in range(n):
        event: dict[str, Any] = {"id": i + 1, "kind": rng.choice(_EVENTS)}
        if rng.random() < 0.6:
            event["user"] = _name(rng)
        if rng.random() < 0.4:
            event["level"] = rng.choice(_LEVELS)
        if rng.random() < 0.3:
            event["error"] = {"code": rng.randrange(400, 600), "retry": rng.random() < 0.5}
        if rng.random() < 0.3:
            event["note"] = None
        if rng.random() < 0.3:
            event["duration"] = _price(rng, 0, 30)
        events.append(event)
    return {"events": events}


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _money(value: Decimal) -> float:
    """A computed amount as JSON (a number: scorers compare numbers by value, so 12.0 and 12 are the same)."""
    return float(value)


INVOICE_RULES = {
    "line_total": "quantity times unit_price, rounded to 2 decimal places",
    "subtotal": "the sum of every item's line_total",
    "tax": "subtotal times tax_rate, rounded to 2 decimal places (halves round up)",
    "total": "subtotal plus tax",
}
"""The computed fields of an invoice, as the description states them (and as ``_invoice`` computes them)."""


def _invoice(rng: random.Random, n: int) -> tuple[dict[str, Any], dict[str, str]]:
    items, computed, subtotal = [], {}, Decimal(0)
    for i in range(n):
        quantity, unit = rng.randrange(1, 6), _price(rng, 2, 400)
        line = _cents(Decimal(quantity) * Decimal(str(unit)))
        subtotal += line
        items.append({"sku": f"SKU-{rng.randrange(10000, 99999)}", "description": rng.choice(_PRODUCTS),
                      "quantity": quantity, "unit_price": unit, "line_total": _money(line)})
        computed[f"$.invoice.items[{i}].line_total"] = INVOICE_RULES["line_total"]
    rate = Decimal(rng.choice(("0.07", "0.19", "0.21", "0.085")))
    tax = _cents(subtotal * rate)
    data = {"invoice": {"number": f"INV-{rng.randrange(2020, 2030)}-{rng.randrange(100, 999)}",
                        "customer": {"name": _name(rng), "city": rng.choice(_CITIES)},
                        "items": items, "subtotal": _money(subtotal), "tax_rate": float(rate),
                        "tax": _money(tax), "total": _money(subtotal + tax)}}
    computed.update({f"$.invoice.{key}": INVOICE_RULES[key] for key in ("subtotal", "tax", "total")})
    return data, computed


def _config(rng: random.Random, depth: int) -> dict[str, Any]:
    """Nested sections ``depth`` levels deep (built level by level, no recursion), scalars of every type."""
    root: dict[str, Any] = {"version": f"v{rng.randrange(1, 5)}.{rng.randrange(0, 10)}", "debug": rng.random() < 0.5}
    level = [root]
    for d in range(depth):
        nxt = []
        for parent in level:
            for name in rng.sample(_SECTIONS, 2 if d < 2 else 1):
                section: dict[str, Any] = {"enabled": rng.random() < 0.7,
                                           rng.choice(_SETTINGS): f"{rng.choice(_CITIES).lower()}-{d}",
                                           "limit": rng.randrange(1, 5000)}
                if rng.random() < 0.4:
                    section["ratio"] = _price(rng, 0, 1)
                if rng.random() < 0.3:
                    section["ports"] = [rng.randrange(1024, 9999) for _ in range(2)]
                parent[name] = section
                nxt.append(section)
        level = nxt
    return root


def make_case(shape: str, size: str, seed: int = 0) -> Case:
    """The case of ``shape`` at ``size``, drawn from ``seed`` (same arguments, same case)."""
    rng = random.Random(f"writing/{shape}/{size}/{seed}")
    computed: dict[str, str] = {}
    if shape == "invoice":
        data, computed = _invoice(rng, SIZES[size])
    elif shape == "config":
        data = _config(rng, CONFIG_DEPTH[size])
    else:
        data = {"flat": _flat, "nested": _nested, "arrays": _arrays, "irregular": _irregular}[shape](rng, SIZES[size])
    suffix = "" if seed == 0 else f"-s{seed}"
    return Case(id=f"{shape}-{size}{suffix}", shape=shape, size=size, data=data, computed=computed)


def all_cases(shapes: list[str], sizes: list[str], seed: int = 0) -> list[Case]:
    """Every case of the given shapes and sizes, in a stable order (shape, then size)."""
    return [make_case(shape, size, seed) for shape in shapes for size in sizes]
