"""The ui expert's dataset: (prompt -> compact UI4A spec) pairs and refinement conversations.

A refinement is a second turn: the first prompt and its spec, then "make the chart a bar chart"
and the whole new spec (a spec is short; a patch format would be one more thing to learn).
"""

from __future__ import annotations

from random import Random
from typing import Any

import ui4a
from inference.offline.datasets import screens_data, screens_forms
from inference.offline.datasets.canonical import canonical
from inference.offline.datasets.common import Record, add_typos, compact, pick, record, turn, unique
from inference.offline.datasets.screen import Builder, Screen, theme_refinements

KINDS: dict[str, Builder] = {
    "auth": screens_forms.auth,
    "settings": screens_forms.settings,
    "profile": screens_forms.profile,
    "crud": screens_data.crud,
    "dashboard": screens_data.dashboard,
    "pricing": screens_data.pricing,
    "products": screens_data.products,
    "checkout": screens_forms.checkout,
    "wizard": screens_forms.wizard,
    "booking": screens_forms.booking,
    "kanban": screens_data.kanban,
    "chat": screens_data.chat,
    "search": screens_data.search,
}
STYLES = ("terse", "chatty", "detailed", "typos")
CHATTY = (
    "hey! could you make me {s}? thanks",
    "hi, I need {s} for my app, can you help?",
    "I'd love {s}. nothing fancy",
    "can you build {s} please",
    "so I'm working on a side project and need {s} :)",
    "please design {s} for me",
)
DETAILED = (
    "{S} with {d}.",
    "Build {s}. It should have {d}.",
    "Design {s} that includes {d}.",
    "I want {s}: {d}.",
)


def phrase(rng: Random, screen: Screen, style: str) -> str:
    subject = pick(rng, screen.subjects)
    if style == "terse":
        words = subject.split()
        return " ".join(words[1:] if words[0] in ("a", "an") else words)
    if style in ("chatty", "typos"):
        prompt = pick(rng, CHATTY).format(s=subject)
        return add_typos(rng, prompt, rng.randint(1, 3)) if style == "typos" else prompt
    details = rng.sample(screen.details, min(len(screen.details), rng.randint(2, 3)))
    listed = ", ".join(details[:-1]) + " and " + details[-1] if len(details) > 1 else details[0]
    return pick(rng, DETAILED).format(s=subject, S=subject[0].upper() + subject[1:], d=listed)


def checked(spec: dict[str, Any]) -> str:
    """Canonical, compact JSON text of a spec that ui4a accepts without a single problem."""
    spec = canonical(spec)
    problems = ui4a.validate(spec)
    if problems:
        raise ValueError(f"generated spec is invalid: {problems[:3]} in {compact(spec)[:300]}")
    return compact(spec)


def generate(
    seed: int = 0, *, screens_per_kind: int = 200, refine_share: float = 0.25
) -> list[Record]:
    """Single-turn pairs for every kind and style, plus refinement conversations."""
    rng = Random(seed)
    out: list[Record] = []
    for _ in range(screens_per_kind):
        for kind, build in KINDS.items():
            screen = build(rng)
            assert screen.kind == kind, (screen.kind, kind)
            answer = checked(screen.spec)
            prompt = phrase(rng, screen, STYLES[rng.randrange(len(STYLES))])
            out.append(record("ui", kind, turn(prompt, answer)))
            if rng.random() < refine_share:
                options = screen.refinements + theme_refinements(rng, screen.spec)
                change = pick(rng, options)
                ask = pick(rng, change.asks)
                messages = turn(prompt, answer) + turn(ask, checked(change.spec))
                out.append(record("ui", f"{kind}/refine", messages))
    return unique(out)
