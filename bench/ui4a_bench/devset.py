"""UI4A-Bench's dev set: hand-written prompts over 25 screen kinds, each with requirements on
the rendered view and, for many, an interaction script written from the prompt
(bench/ui4a_bench/devset.jsonl; the languages are in requirements.py and scripts.py).

Twelve kinds (HELD_OUT) are ones no training generator may produce; the other thirteen are the
ui dataset's kinds asked for in new words. A test checks that no dev prompt shares a run of
five words with, or is close in vocabulary to, any prompt of the ui dataset.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from bench.ui4a_bench.requirements import BadRequirement, Requirement, parse
from bench.ui4a_bench.scripts import BadStep, Step, parse_script

DEVSET = Path(__file__).with_name("devset.jsonl")
# Screen kinds no ui training generator may produce: the bench's test of generalisation.
HELD_OUT = (
    "inbox",
    "calendar",
    "music-player",
    "quiz",
    "invoice",
    "leaderboard",
    "timer",
    "file-browser",
    "survey",
    "faq",
    "comparison-table",
    "order-tracking",
)


@dataclass(frozen=True)
class DevPrompt:
    id: str
    kind: str
    prompt: str
    requires: tuple[Requirement, ...]
    script: tuple[Step, ...] = ()

    @property
    def held_out(self) -> bool:
        return self.kind in HELD_OUT


def load(path: Path = DEVSET) -> list[DevPrompt]:
    """Every dev prompt with its parsed requirements; a bad line names its number and why."""
    out: list[DevPrompt] = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            requires = tuple(parse(r) for r in row["requires"])
            script = parse_script(list(row.get("script", [])))
            out.append(DevPrompt(row["id"], row["kind"], row["prompt"], requires, script))
        except (ValueError, KeyError, TypeError, BadRequirement, BadStep) as exc:
            raise ValueError(f"{path.name} line {number}: {exc}") from None
    return out


def one_per_kind(count: int | None = None) -> list[DevPrompt]:
    """The first prompt of each kind, by id, in id order; the first `count` of them."""
    first: dict[str, DevPrompt] = {}
    for prompt in sorted(load(), key=lambda p: p.id):
        first.setdefault(prompt.kind, prompt)
    return sorted(first.values(), key=lambda p: p.id)[:count]
