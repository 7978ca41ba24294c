"""Claims the literature makes about a format, which the report decides on the paired interval.

A design's thresholds (``_design``) are the format author's own targets; a claim is someone else's published
finding that a transform keeps accuracy — Pan et al.'s "formatting removal costs nothing". The report puts it to a
non-inferiority test: on the questions both formats answered, the accuracy lost against ``baseline`` (baseline
minus format, with its 95% interval) is compared with ``margin``. It **holds** when the whole interval is at most
the margin, is **refuted** when the whole interval is above it, and is **unsettled** when it straddles it: too few
questions say nothing, never "no difference".
"""

from __future__ import annotations

from dataclasses import dataclass

HOLDS, REFUTED, UNSETTLED = "holds", "refuted", "unsettled"


@dataclass(frozen=True)
class Claim:
    """A format loses at most ``margin`` accuracy against ``baseline``, as ``source`` states it."""

    baseline: str
    margin: float  # accuracy points, as a fraction (0.05 = 5 points)
    statement: str  # what the source says, in a clause
    source: str  # who says it, cited in the report
    stated_saving: float | None = None  # the share of input tokens the source reports saved

    def decide(self, loss_low: float, loss_high: float) -> str:
        """On the 95% interval of the accuracy lost (baseline − format): holds, refuted or unsettled."""
        if loss_high <= self.margin:
            return HOLDS
        return REFUTED if loss_low > self.margin else UNSETTLED


# Pan et al., "The Hidden Cost of Readability" (ICSE'26): removing indentation, newlines and comments saves about
# 24.5% of input tokens with accuracy kept (Java, Python, C++, C#; ten models). "Kept" is read here as within 5
# points, the margin COON's design (§8, gap ≤ 5) and the Goth seed (within 5% of Python) use for "as good as".
def formatting_removal(baseline: str) -> Claim:
    """Pan et al.'s claim about a language's minified form, against the source as written."""
    return Claim(baseline=baseline, margin=0.05, statement="formatting removal keeps accuracy",
                 source="Pan et al. (ICSE'26)", stated_saving=0.245)
