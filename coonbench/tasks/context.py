"""What a task's samples are built for, handed to every builder as an argument (``BuildContext``).

The one task builder (``coonbench.tasks.build``) makes one for the tokenizer the task counts in, and
``each_prompt``/``each_prompt_pending`` one per prompt template; a loader passes it down to whatever counts tokens
(``sample_metadata``, a format's legend) or renders a prompt (``coonbench.tasks.prompts.render``). No builder reads
a tokenizer or a template from ambient state, so what a sample holds is a function of its arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from coonbench.tokens import DEFAULT_ENCODING

DEFAULT_TEMPLATE = "default"
"""The id of every task's own prompt (``coonbench.tasks.prompts.TEMPLATE_IDS`` lists the others)."""


@dataclass
class BuildContext:
    """What a task's samples are built for, passed to every builder (never ambient state): the tokenizer their
    tokens count in and the prompt template they render with. It also records what the builders did with it:
    ``read`` (the template was read: what was listed may depend on it) and ``rendered`` (how many prompts were
    rendered: a loader path that renders none asks in a fixed published prompt)."""

    tokenizer: str = DEFAULT_ENCODING
    template: str = DEFAULT_TEMPLATE
    rendered: int = field(default=0, compare=False)
    read: bool = field(default=False, compare=False)

    def under(self, template: str) -> BuildContext:
        """A fresh context for ``template``, in the same tokenizer (nothing read or rendered yet)."""
        return BuildContext(self.tokenizer, template)

    def template_id(self) -> str:
        """The id of the template ``render`` uses (and a note that it was read)."""
        self.read = True
        return self.template
