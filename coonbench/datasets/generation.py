"""The generation dataset: write COON from Dart, fill a hole in COON, or write COON from a description.

Every task comes from one corpus sample (``data/dart/``) and is computed by code, so the ground truth follows the
source:

- ``dart-to-coon``: the model sees the Dart source; the answer must decode to a program AST-equivalent to it.
- ``coon-completion``: the model sees the COON encoding of the source with one widget subtree replaced by the hole
  marker ``⟨HOLE⟩`` and an English description of the missing subtree, generated from the subtree itself (type,
  shown text, every argument in source order), so it determines the subtree. The answer must decode to a program
  AST-equivalent to the whole source: this implies that it validates and contains the removed subtree in its
  place. The score explanation says whether the subtree was at least present somewhere.
- ``nl-to-coon``: the model sees a list of requirements read off the source's tree (class and superclass, widgets
  with their texts, literal properties and an ancestor, ``setState`` in callbacks). The answer must decode and
  satisfy every requirement (``coonbench.dart.requirements``); the source itself is one right answer (the gold).

The gold reply (``metadata["gold"]``) is the encoded source in a code fence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, TypeVar

import tree_sitter
from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.dart.requirements import (
    CallbackCallRequirement,
    ClassRequirement,
    PropertyCheck,
    Requirement,
    WidgetRequirement,
    article,
    call_span,
    check_requirements,
    dump_requirements,
    expression_tokens,
    parse_requirements,
    widget_text,
)
from coonbench.tasks.conditions import LABEL_SUFFIX, Condition, Skip, parse_conditions, refusal
from coonbench.judging.criteria import sample_criteria
from coonbench.datasets.corpus import CorpusSample
from coonbench.datasets.user_corpus import select_corpus
from coonbench.tokens import count_tokens, tokenizer_in_use
from coonbench.dart.query import node_text
from coonbench.dart.widgets import WidgetCall, WidgetClass, value_nodes, widget_classes
from coonbench.formats import FormatError, get_format
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, Rendered, render, template_set
from coonbench.tasks.samples import FORMAT_LABELS, choose, sample_metadata, split_param
from coonbench.tasks.subset import Pending

GENERATION_KINDS: tuple[str, ...] = ("dart-to-coon", "coon-completion", "nl-to-coon")
HOLE = "⟨HOLE⟩"
_PLACEHOLDER = "coonbenchHole"  # a Dart identifier standing for the hole while the program is encoded
MAX_HOLE_WIDGETS = 4
MAX_NL_REQUIREMENTS = 6

T = TypeVar("T")

DART_TO_COON_PROMPT = """Convert this Flutter/Dart code to {format_label}.

```dart
{code}
```

Reply with the complete program in {format_name}, in one ```{fence} code block."""

COMPLETION_PROMPT = """Below is a program in {format_label} with one part missing, marked {hole}.
The missing part is {description}.

```{fence}
{code}
```

Reply with the complete program, with the hole filled in, in one ```{fence} code block."""

NL_PROMPT = """Write a Flutter widget in {format_label} that meets every requirement below.

{requirements}

Reply with the complete program in {format_name}, in one ```{fence} code block."""

# Equivalent wordings of each kind's prompt (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
DART_TO_COON_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, DART_TO_COON_PROMPT),
    PromptTemplate("reworded", """Rewrite the Flutter/Dart program below in {format_label}.

```dart
{code}
```

Give back the whole program in {format_name}, inside a single ```{fence} code block."""),
    PromptTemplate("question-first", """Convert the Flutter/Dart code at the end of this message to {format_label}. Reply with the complete \
program in {format_name}, in one ```{fence} code block.

```dart
{code}
```"""),
    PromptTemplate("system", system="""You convert Flutter/Dart code to {format_label}. Reply with the complete program in \
{format_name}, in one ```{fence} code block.""", user="""```dart
{code}
```"""),
)
COMPLETION_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, COMPLETION_PROMPT),
    PromptTemplate("reworded", """This program, written in {format_label}, has a gap marked {hole}.
What belongs in the gap is {description}.

```{fence}
{code}
```

Fill the gap and give back the whole program, in a single ```{fence} code block."""),
    PromptTemplate("question-first", """Fill in the part marked {hole} in the program below: the missing part is {description}.
Reply with the complete program, with the hole filled in, in one ```{fence} code block.

The program, in {format_label}:

```{fence}
{code}
```"""),
    PromptTemplate("system", system="""You complete programs written in {format_label}. The user's program has one part missing, \
marked {hole}. Reply with the complete program, with the hole filled in, in one ```{fence} code block.""",
                   user="""The missing part is {description}.

```{fence}
{code}
```"""),
)
NL_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, NL_PROMPT),
    PromptTemplate("reworded", """Requirements for a Flutter widget, to be written in {format_label}:

{requirements}

Give back the whole program in {format_name}, inside a single ```{fence} code block, meeting every requirement."""),
    PromptTemplate("question-first", """Reply with a complete Flutter program in {format_name}, in one ```{fence} code block: a widget in \
{format_label} that meets every requirement below.

{requirements}"""),
    PromptTemplate("system", system="""You write Flutter widgets in {format_label}. Meet every requirement the user lists, and reply \
with the complete program in {format_name}, in one ```{fence} code block.""", user="""{requirements}"""),
)


@dataclass(frozen=True)
class GenerationTask:
    """One generation task: what the model sees and how its answer is judged."""

    id: str
    sample_id: str
    kind: str
    band: str
    prompt: str  # the user message, under the template current when the task was built (``coonbench.tasks.prompts``)
    gold_program: str  # Dart source of a right answer
    check: str  # "ast" (AST-equivalent to reference) or "requirements"
    reference: str | None = None  # Dart source an "ast" answer must equal
    requirements: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    system: str | None = None  # the template's system message, if it has one


def stable_pick(items: Sequence[T], *key: str) -> T:
    """The item a stable hash of ``key`` chooses (Python's hash() is salted per process)."""
    return items[int(hashlib.sha256("\x1f".join(key).encode()).hexdigest()[:12], 16) % len(items)]


def fenced(text: str, fence: str) -> str:
    """A reply containing ``text`` in one code fence."""
    return f"```{fence}\n{text.strip(chr(10))}\n```"


def main_class(source: str) -> WidgetClass | None:
    """The first class with a single build root (the sample's widget), or None."""
    return next((c for c in widget_classes(source) if c.build_root is not None), None)


# ----------------------------------------------------------------------------------------------- describing


def simple_value(nodes: list[tree_sitter.Node]) -> bool:
    """A value expression that names nothing local: literals, ``Colors.red``, ``EdgeInsets.all(8)``."""
    tokens = expression_tokens(nodes)
    if not tokens or len(tokens) > 12:
        return False
    for i, tok in enumerate(tokens):
        if (tok[:1].isalpha() or tok[:1] == "_") and not tok[:1].isupper():
            if tok in ("true", "false", "null"):
                continue
            if i > 0 and tokens[i - 1] == ".":
                continue  # member of a capitalised name (Icons.add, FontWeight.bold)
            if i + 1 < len(tokens) and tokens[i + 1] == ":":
                continue  # a label inside a value constructor
            return False
    return True


def _value_text(nodes: list[tree_sitter.Node], source_bytes: bytes) -> str:
    return source_bytes[nodes[0].start_byte : nodes[-1].end_byte].decode("utf-8")


def _is_const(w: WidgetCall) -> bool:
    return w.node.type == "const_object_expression"


def describe_subtree(w: WidgetCall, source_bytes: bytes) -> str | None:
    """English that determines the subtree rooted at ``w`` (None when some argument cannot be described)."""
    parts: list[str] = []
    head = ("a const " if _is_const(w) else article(w.name) + " ") + f"`{w.name}`"
    pos = w.positional_args()
    for arg in pos:
        nodes = arg.named_children
        if not nodes:
            return None
        if w.type_name == "Text" and len(nodes) == 1 and nodes[0].type == "string_literal":
            content = widget_text(w)
            if content is None:
                return None
            parts.append(f"showing the text '{content}'")
        elif simple_value(nodes):
            parts.append(f"with the positional argument `{_value_text(nodes, source_bytes)}`")
        else:
            return None
    children = {c.node.id: c for c in w.children}
    for label, arg in w.named_args().items():
        nodes = value_nodes(arg)
        if not nodes:
            return None
        kids = [c for c in w.children if c.slot == label]
        if len(kids) == 1 and not kids[0].in_list and not kids[0].dynamic and kids[0].node.id == nodes[0].id:
            inner = describe_subtree(kids[0], source_bytes)
            if inner is None:
                return None
            parts.append(f"whose `{label}` is {inner}")
        elif len(nodes) == 1 and nodes[0].type == "list_literal" and kids:
            elems = [n for n in nodes[0].named_children]
            if any(k.dynamic or not k.in_list for k in kids) or len(elems) != len(kids):
                return None
            inner_parts = [describe_subtree(children[k.node.id], source_bytes) for k in kids]
            if any(p is None for p in inner_parts):
                return None
            const = "const " if node_text(nodes[0].prev_sibling or nodes[0])[:5] == "const" else ""
            parts.append(f"whose `{label}` is a {const}list of, in order: " + "; ".join(inner_parts))  # type: ignore[arg-type]
        elif kids:
            return None
        elif simple_value(nodes):
            parts.append(f"with `{label}: {_value_text(nodes, source_bytes)}`")
        else:
            return None
    if not parts:
        return head + " with no arguments"
    return head + " " + ", ".join(parts)


# ----------------------------------------------------------------------------------------------- builders


def dart_to_coon_task(sample_id: str, band: str, source: str, fmt_name: str = "coon") -> GenerationTask:
    fmt = get_format(fmt_name)
    prompt = render(
        DART_TO_COON_TEMPLATES,
        format_label=FORMAT_LABELS.get(fmt_name, fmt_name),
        format_name=fmt_name.upper() if fmt_name == "coon" else fmt_name,
        fence=fmt.fence,
        code=source.strip("\n"),
    )
    return GenerationTask(
        id=f"generation-{sample_id}-dart-to-coon-{fmt_name}",
        sample_id=sample_id,
        kind="dart-to-coon",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="ast",
        reference=source,
    )


def _hole_candidates(cls: WidgetClass, source_bytes: bytes) -> list[tuple[WidgetCall, str]]:
    out: list[tuple[WidgetCall, str]] = []
    root = cls.build_root
    if root is None:
        return out
    for w in root.walk():
        if w is root or w.dynamic or w.in_callback:
            continue
        size = sum(1 for _ in w.walk())
        if size > MAX_HOLE_WIDGETS:
            continue
        desc = describe_subtree(w, source_bytes)
        if desc is not None and len(desc) <= 400:
            out.append((w, desc))
    return out


def completion_task(sample_id: str, band: str, source: str, fmt_name: str = "coon") -> GenerationTask | None:
    """Hole = the largest describable subtree (≤ MAX_HOLE_WIDGETS widgets) of the main build; None if none."""
    cls = main_class(source)
    if cls is None:
        return None
    data = source.encode("utf-8")
    candidates = _hole_candidates(cls, data)
    if not candidates:
        return None
    sizes = [sum(1 for _ in w.walk()) for w, _ in candidates]
    best = max(sizes)
    pool = [c for c, s in zip(candidates, sizes, strict=True) if s == best]
    w, desc = stable_pick(pool, sample_id, "hole")
    start, end = call_span(w)
    holed = (data[:start] + _PLACEHOLDER.encode() + data[end:]).decode("utf-8")
    fmt = get_format(fmt_name)
    try:
        encoded = fmt.encode(holed)
    except FormatError:
        return None
    if encoded.count(_PLACEHOLDER) != 1:
        return None
    shown = encoded.replace(_PLACEHOLDER, HOLE)
    prompt = render(
        COMPLETION_TEMPLATES,
        format_label=FORMAT_LABELS.get(fmt_name, fmt_name),
        hole=HOLE,
        description=desc,
        fence=fmt.fence,
        code=shown.strip("\n"),
    )
    return GenerationTask(
        id=f"generation-{sample_id}-coon-completion-{fmt_name}",
        sample_id=sample_id,
        kind="coon-completion",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="ast",
        reference=source,
        extra={"hole_subtree": data[start:end].decode("utf-8"), "normalise": True},
    )


def _literal_properties(w: WidgetCall) -> list[PropertyCheck]:
    """Simple-valued, non-callback named arguments of ``w``."""
    out: list[PropertyCheck] = []
    data = w.arguments.text or b""
    base = w.arguments.start_byte
    child_ids = {c.node.id for c in w.children} | {c.node.id for c in w.callback_widgets}

    def text_of(nodes: list[tree_sitter.Node]) -> str:
        return data[nodes[0].start_byte - base : nodes[-1].end_byte - base].decode("utf-8")

    for label, arg in w.named_args().items():
        nodes = value_nodes(arg)
        if not nodes or nodes[0].id in child_ids or label == "key":
            continue
        if simple_value(nodes) and not (label.startswith("on") and label[2:3].isupper()):
            out.append(PropertyCheck(path=label, value=text_of(nodes)))
    return out


def derive_requirements(source: str) -> list[Requirement]:
    """Requirements that the source meets, read off its main widget class (deterministic, capped); copies, so a
    caller may change them."""
    return [r.model_copy(deep=True) for r in _derived_requirements(source)]


@lru_cache(maxsize=1024)
def _derived_requirements(source: str) -> tuple[Requirement, ...]:
    """``derive_requirements``, once per program: every format condition of a task asks for its program's
    requirements (the judge's criteria), and each derivation parses and walks the whole file."""
    classes = widget_classes(source)
    cls = main_class(source)
    if cls is None or cls.build_root is None:
        return ()
    reqs: list[Requirement] = []
    top = next((c for c in classes if c.superclass in ("StatelessWidget", "StatefulWidget")), None)
    if top is not None:
        reqs.append(ClassRequirement(name=top.name, extends=top.superclass))
    # Widgets with something to say about them first: a text, literal properties; then the rest.
    scored: list[tuple[int, int, WidgetRequirement]] = []
    seen: set[str] = set()
    for order, w in enumerate(cls.build_root.walk()):
        if w.dynamic or w.in_callback:
            continue
        text = widget_text(w) if w.type_name == "Text" else None
        props = _literal_properties(w)[:2]
        parent = w.parent.type_name if w.parent is not None else None
        req = WidgetRequirement(widget=w.name, text=text, properties=props, inside=parent)
        key = req.model_dump_json()
        if key in seen:
            continue
        seen.add(key)
        weight = (2 if text else 0) + len(props) + (1 if parent else 0)
        scored.append((-weight, order, req))
    scored.sort(key=lambda t: (t[0], t[1]))
    budget = MAX_NL_REQUIREMENTS - len(reqs) - 1
    reqs.extend(r for _, _, r in scored[: max(budget, 1)])
    # A state change on a callback, for stateful samples.
    for c in classes:
        for w in c.widgets():
            for label, arg in w.named_args().items():
                if label.startswith("on") and any(b"setState" in (n.text or b"") for n in value_nodes(arg)):
                    reqs.append(CallbackCallRequirement(widget=w.name, callback=label, call="setState"))
                    break
            else:
                continue
            break
        else:
            continue
        break
    met = check_requirements(source, reqs)
    return tuple(r for r, m in zip(reqs, met, strict=True) if m.met)


def nl_task(sample_id: str, band: str, source: str, fmt_name: str = "coon") -> GenerationTask | None:
    reqs = derive_requirements(source)
    if len(reqs) < 2:
        return None
    fmt = get_format(fmt_name)
    lines = "\n".join(f"{i}. It contains {r.describe()}." for i, r in enumerate(reqs, start=1))
    prompt = render(
        NL_TEMPLATES,
        format_label=FORMAT_LABELS.get(fmt_name, fmt_name),
        format_name=fmt_name.upper() if fmt_name == "coon" else fmt_name,
        fence=fmt.fence,
        requirements=lines,
    )
    return GenerationTask(
        id=f"generation-{sample_id}-nl-to-coon-{fmt_name}",
        sample_id=sample_id,
        kind="nl-to-coon",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="requirements",
        requirements=dump_requirements(reqs),
    )


def build_generation_tasks(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    fmt_name: str = "coon",
    *,
    files: Sequence[CorpusSample] | None = None,
    skips: list[Skip] | None = None,
    label: str | None = None,
) -> list[GenerationTask]:
    """Every task of the chosen kinds over the chosen corpus bands (or ``files``), in file order then kind order.

    A file the format cannot carry (the encoder refuses it, or it does not decode back to an AST-equivalent
    program, so no gold answer exists) gets no task; its reason is appended to ``skips`` (tagged ``label``).
    """
    from coonbench.datasets.corpus import load_corpus

    wanted = choose("kinds", kinds, GENERATION_KINDS, "generation kind") or list(GENERATION_KINDS)
    band_list = split_param(bands)
    if files is None:
        files = load_corpus(bands=band_list) if band_list else load_corpus()
    tasks: list[GenerationTask] = []
    for sample in files:
        reason = refusal(fmt_name, sample.source, need_roundtrip=True)
        if reason is not None:
            if skips is not None:
                skips.append(Skip(sample.id, label or fmt_name, reason))
            continue
        for kind in wanted:
            task: GenerationTask | None
            if kind == "dart-to-coon":
                task = dart_to_coon_task(sample.id, sample.band, sample.source, fmt_name)
            elif kind == "coon-completion":
                task = completion_task(sample.id, sample.band, sample.source, fmt_name)
            else:
                task = nl_task(sample.id, sample.band, sample.source, fmt_name)
            if task is not None:
                tasks.append(task)
    return tasks


JUDGE_ACCURACY = (
    "Verify the answer is one complete program written in {format_label}, not in another notation",
    "Verify the program adds no widget, property or text that the task does not call for",
)


def judge_criteria(
    format_label: str, requirements: Sequence[Requirement], instructions: Sequence[str] = ()
) -> dict[str, list[dict[str, Any]]]:
    """Criteria for the LLM judge (``metadata["criteria"]``), from the same requirements the deterministic check uses.

    Completeness lists what the program must show (the instructions, then each requirement in English), so the
    judge's verdict and the requirement check can be compared sample by sample.
    """
    return sample_criteria(
        accuracy=[c.format(format_label=format_label) for c in JUDGE_ACCURACY],
        completeness=[
            *(f"Verify the program carries out this instruction: {i}" for i in instructions),
            *(f"Verify the program contains {r.describe()}" for r in requirements),
        ],
    )


def task_sample(
    task: GenerationTask,
    category: str,
    fmt_name: str | Condition,
    input_format: str | None = None,
    primer_variant: str = "short",
) -> Sample:
    """An Inspect Sample for a task: the answer is expected in the condition's format (decoded before checking).

    ``fmt_name`` is a registry name or a parsed condition (a condition without primer appends ``-noprimer`` to
    the id and to ``metadata["format"]``).
    """
    cond = fmt_name if isinstance(fmt_name, Condition) else Condition(fmt_name)
    fmt = cond.fmt
    # a legend of the plain encoding: what the model may be shown (a completion's program) or is to write
    gold_text, primer = cond.show(task.gold_program, primer_variant, economise=False)
    label = FORMAT_LABELS.get(cond.format, cond.format)
    return Sample(
        id=task.id + LABEL_SUFFIX[cond.primer],
        input=Rendered(task.prompt, task.system).input,
        target=gold_text,
        metadata=sample_metadata(
            format=input_format or cond.label,
            category=category,
            question_type=task.kind,
            complexity=task.band,
            input_text=Rendered(task.prompt, task.system).text(primer),
            gold=fenced(gold_text, fmt.fence),
            **cond.metadata(primer_variant, primer),
            answer_format=cond.format,
            pair_id=task.id.removesuffix("-" + cond.format),
            gold_output_tokens=count_tokens(fenced(gold_text, fmt.fence), tokenizer_in_use()),
            sample_id=task.sample_id,
            check=task.check,
            reference=task.reference,
            requirements=task.requirements,
            criteria=judge_criteria(
                label,
                parse_requirements(task.requirements) if task.requirements else derive_requirements(task.gold_program),
            ),
            **task.extra,
        ),
    )


def generation_samples(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    formats: str | Sequence[str] | None = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
) -> tuple[list[Sample], list[Skip]]:
    """Samples of every task in every condition (``coonbench.tasks.conditions``; lossy formats are refused, since the
    answer is decoded), and the files a condition could not carry, with the reason."""
    pending, skips = generation_pending(kinds, bands, formats, corpus, primer_variant)
    return [p.build() for p in pending], skips


def generation_pending(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    formats: str | Sequence[str] | None = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
) -> tuple[list[Pending], list[Skip]]:
    """``generation_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T questions=N``
    renders only the tasks drawn), and the skips."""
    conditions = parse_conditions(formats, ("coon",), need_decode=True, param="format")
    files, skips = select_corpus(corpus, split_param(bands))
    by_pair: dict[str, list[Pending]] = {}  # task-major, like the other tasks: --limit keeps every condition
    for cond in conditions:
        for task in build_generation_tasks(kinds, None, cond.format, files=files, skips=skips, label=cond.label):
            pair = task.id.removesuffix("-" + cond.format)  # pair_id, complexity, question_type, format: task_sample's
            build = partial(task_sample, task, "generation", cond, primer_variant=primer_variant)
            by_pair.setdefault(pair, []).append(Pending(pair, (task.band, task.kind), cond.label, build))
    return [p for group in by_pair.values() for p in group], skips


def generation_dataset(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    fmt_name: str = "coon",
    corpus: str | None = None,
) -> MemoryDataset:
    """The generation samples (answers in each condition of ``fmt_name``, COON by default)."""
    samples, _ = generation_samples(kinds, bands, fmt_name, corpus)
    return MemoryDataset(samples, name="coonbench-generation")
