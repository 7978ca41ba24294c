"""Constants shared by the retrieval modules: where the data lives, the seed, the prompt, the corruption kinds."""

from __future__ import annotations

import os
from pathlib import Path

from coonbench.formats import format_label as formats_label
from coonbench.resources import DATA_DIR, REPO_ROOT, absent_reason
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, template_set
from coonbench.tasks.samples import TaskArgumentError

DATASET_VERSION = 1
RETRIEVAL_DIR = DATA_DIR / "retrieval"
QUESTIONS_FILE = RETRIEVAL_DIR / f"questions.v{DATASET_VERSION}.jsonl"
SEED = 20261121
DEFAULT_FORMATS = ("json", "json-compact", "toon", "tealeaf-compact", "yaml", "xml", "csv")
CATEGORY = "retrieval"

# TOON's prompt (benchmarks/src/evaluate.ts at f06ddca), after its .trim(): the data goes in verbatim. A peer's
# suite is run with it unchanged (``retrieval.suite``).
SUITE_PROMPT = """{primer}

Given the following data in {name} format:

```{fence}
{data}
```

Question: {question}

Answer format requirements:
- Provide only the value itself, no explanation
- For numbers: output digits only (no commas, currency symbols, or units)
- For dates/field names: use the exact string from the data
- For lists: output comma-separated values with no spaces

Answer:"""
# Our retrieval prompt: TOON's, with one more rule for the yes/no validation questions.
YES_NO_RULE = "- For yes/no questions: answer YES or NO\n"
PROMPT = SUITE_PROMPT.replace("{name}", "{format_label}").replace("\n\nAnswer:", "\n" + YES_NO_RULE + "\nAnswer:")
_RULES = """- Provide only the value itself, no explanation
- For numbers: output digits only (no commas, currency symbols, or units)
- For dates/field names: use the exact string from the data
- For lists: output comma-separated values with no spaces
""" + YES_NO_RULE
# Equivalent wordings of PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same rules. A peer's suite
# keeps TOON's prompt unchanged, so it refuses another template.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, PROMPT),
    PromptTemplate("reworded", """{primer}

The data below is written in {format_label}:

```{fence}
{data}
```

Answer this question about it: {question}

How to write the answer:
""" + _RULES + """
Answer:"""),
    PromptTemplate("question-first", """{primer}

Question: {question}

Answer format requirements:
""" + _RULES + """
Answer the question from the following data in {format_label} format:

```{fence}
{data}
```

Answer:"""),
    PromptTemplate("system", system="""{primer}

You answer questions about data given in {format_label} format.
Answer format requirements:
""" + _RULES, user="""```{fence}
{data}
```

Question: {question}

Answer:"""),
)

VALIDATION_QUESTION = "Is this data complete and valid? Answer YES or NO."
CORRUPTIONS = ("none", "truncated", "extra-rows", "width-mismatch", "missing-fields")
ROW_FORMATS = ("toon", "csv", "tealeaf", "tealeaf-compact")
REQUIRED_FIELDS = ("id", "dataset", "question", "answer", "answer_type")


def format_label(name: str) -> str:
    """Display name of a format in prompts (TeaLeaf's ``{format_name}`` style): its ``Format.label``, else the
    name in upper case."""
    return formats_label(name, name.upper())


def user_path(path: str | Path) -> Path:
    """A path a user typed: as given when it exists, else relative to the shell's directory ($PWD) or the
    repository root — ``inspect eval`` runs the task from the task file's folder, so ``-T suite=../shared/…``
    typed at the repository root would otherwise miss."""
    given = Path(path)
    if given.is_absolute() or given.exists():
        return given
    for base in (os.environ.get("PWD"), REPO_ROOT):
        if base and (Path(base) / given).exists():
            return Path(base) / given
    return given


def given_path(param: str, value: str | None, expected: str) -> str | None:
    """``user_path`` of the file or folder task argument ``-T param=value``; TaskArgumentError naming the argument,
    why it names nothing and what it ``expected`` when it does not exist."""
    if value is None:
        return None
    path = user_path(value)
    if not path.exists():
        raise TaskArgumentError(f"-T {param}={value}: {absent_reason(value)} (expected {expected})")
    return str(path)
