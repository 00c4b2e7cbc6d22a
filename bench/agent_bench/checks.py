"""How an answer is judged: numbers are found in the reply and compared, text is looked for
exactly (case and spacing aside), yes/no replies are read for their verdict, and a promotion
must show as a step of the tool loop that did not fail."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Steps = Sequence[dict[str, Any]]
Check = Callable[[str, Steps], bool]

_NUMBER = re.compile(r"-?\d[\d,_]*(?:\.\d+)?(?:[eE][-+]?\d+)?|-?\.\d+")
YES = frozenset({"yes", "true", "correct"})
NO = frozenset({"no", "not", "false", "isn't", "incorrect"})


def numbers_in(text: str) -> list[int | float]:
    """Every number written in `text`: 832,040 and 832040 alike, decimals, exponents. Whole
    numbers stay ints, so a 13-digit answer is compared exactly."""
    found: list[int | float] = []
    for match in _NUMBER.findall(text):
        cleaned = match.replace(",", "").replace("_", "")
        try:
            found.append(int(cleaned) if cleaned.lstrip("-").isdigit() else float(cleaned))
        except ValueError:
            continue
    return found


def number(expected: float, tolerance: float = 1e-6) -> Check:
    """Right when some number in the reply equals `expected`: exactly for a whole number,
    within a relative `tolerance` otherwise (31 and 31.0 are both right for 31)."""

    def check(reply: str, steps: Steps) -> bool:
        if isinstance(expected, int) or float(expected).is_integer():
            return any(value == expected for value in numbers_in(reply))
        scale = max(1.0, abs(expected))
        return any(abs(value - expected) <= tolerance * scale for value in numbers_in(reply))

    return check


def _squashed(text: str) -> str:
    return " ".join(text.lower().split())


def text(expected: str) -> Check:
    """Right when the reply holds `expected`, letter case and runs of spaces aside, and not
    inside a longer word (`oiduts` must not pass as part of `oidutsx`)."""
    pattern = re.compile(r"(?<![\w-])" + re.escape(_squashed(expected)) + r"(?![\w-])")

    def check(reply: str, steps: Steps) -> bool:
        return bool(pattern.search(_squashed(reply)))

    return check


def verdict(expected: bool) -> Check:
    """A yes/no answer: right when the reply says the expected one and not the other."""

    def check(reply: str, steps: Steps) -> bool:
        words = set(re.findall(r"[a-z']+", reply.lower()))
        said_yes, said_no = bool(words & YES), bool(words & NO)
        return said_yes and not said_no if expected else said_no and not said_yes

    return check


def promoted(name: str, then: Check) -> Check:
    """Right when a `promote_tool` step saved `name` without an error, and `then` holds."""

    def check(reply: str, steps: Steps) -> bool:
        return any(_promotes(step, name) for step in steps) and then(reply, steps)

    return check


def _promotes(step: dict[str, Any], name: str) -> bool:
    if step.get("error"):
        return False
    body = json.dumps(step, sort_keys=True)
    return "promote_tool" in body and re.search(rf"\b{re.escape(name)}\b", body) is not None


@dataclass(frozen=True)
class AgentTask:
    id: str
    kind: str
    prompt: str
    answer: str  # the right answer as a person writes it (the checker's own test uses it)
    check: Check
    wrong: str  # a plausible wrong answer the checker must refuse
