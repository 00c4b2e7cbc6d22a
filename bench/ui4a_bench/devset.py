"""UI4A-Bench's dev set: prompts over the ui dataset's 13 screen kinds, each with requirements
on the rendered view (bench/ui4a_bench/devset.jsonl; the language is in requirements.py).

None of these prompts is in the ui expert's training or eval data (a test checks it, after
the same normalisation the dataset's split uses), so the bench measures generalisation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from bench.ui4a_bench.requirements import BadRequirement, Requirement, parse

DEVSET = Path(__file__).with_name("devset.jsonl")


@dataclass(frozen=True)
class DevPrompt:
    id: str
    kind: str
    prompt: str
    requires: tuple[Requirement, ...]


def load(path: Path = DEVSET) -> list[DevPrompt]:
    """Every dev prompt with its parsed requirements; a bad line names its number and why."""
    out: list[DevPrompt] = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            requires = tuple(parse(r) for r in row["requires"])
            out.append(DevPrompt(row["id"], row["kind"], row["prompt"], requires))
        except (ValueError, KeyError, TypeError, BadRequirement) as exc:
            raise ValueError(f"{path.name} line {number}: {exc}") from None
    return out
