"""The ui expert's dataset: (prompt -> compact UI4A spec) pairs and refinement conversations.

Most pairs are composed spec-first (compose.py): a domain and sections are sampled into a spec,
then the prompt is written from the spec, so every detail a prompt names is in its answer. A
small share still comes from the thirteen hand-written screen builders, whose auth, pricing,
kanban, chat and checkout layouts the composer does not make; more from the ten of them that
draw their names from wide pools (auth, pricing, booking, products and checkout from
builder_vocab.py; settings, profile and wizard from account_vocab.py; kanban and chat from
team_vocab.py).

A refinement is a second turn: the first prompt and its spec, then "rename the second column to
Due" and the whole new spec (a spec is short; a patch format would be one more thing to learn).
"""

from __future__ import annotations

from random import Random
from typing import Any

import ui4a
from inference.offline.datasets import (
    data_dashboards,
    screens_account,
    screens_data,
    screens_forms,
    screens_team,
)
from inference.offline.datasets.canonical import canonical
from inference.offline.datasets.common import Record, add_typos, compact, pick, record, turn, unique
from inference.offline.datasets.compose import compose, refine, write_prompt
from inference.offline.datasets.mixed_vocab import mixed_domain
from inference.offline.datasets.screen import Builder, Screen, theme_refinements

KINDS: dict[str, Builder] = {
    "auth": screens_forms.auth,
    "settings": screens_account.settings,
    "profile": screens_account.profile,
    "crud": screens_data.crud,
    "dashboard": screens_data.dashboard,
    "pricing": screens_data.pricing,
    "products": screens_data.products,
    "checkout": screens_forms.checkout,
    "wizard": screens_account.wizard,
    "booking": screens_forms.booking,
    "kanban": screens_team.kanban,
    "chat": screens_team.chat,
    "search": screens_data.search,
}
# Builders whose names come from wide pools (builder_vocab.py, account_vocab.py, team_vocab.py):
# more of their screens are drawn, since their names can only be learned by copying them from
# the prompt.
NAMED_KINDS = (
    "auth",
    "pricing",
    "booking",
    "products",
    "checkout",
    "settings",
    "profile",
    "wizard",
    "kanban",
    "chat",
)
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


def legacy(
    rng: Random, screens_per_kind: int, refine_share: float, kinds: tuple[str, ...] = tuple(KINDS)
) -> list[Record]:
    """Pairs from the hand-written builders, every phrasing style: every kind, or `kinds`."""
    out: list[Record] = []
    for _ in range(screens_per_kind):
        for kind in kinds:
            build = KINDS[kind]
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
    return out


def composed(rng: Random, count: int, refine_share: float, *, mixed: bool = False) -> list[Record]:
    """Spec-first pairs: a sampled screen, a prompt written from it, sometimes a targeted edit.
    `mixed` draws each screen's lists across all domains (kind "mixed")."""
    out: list[Record] = []
    for _ in range(count):
        screen = compose(rng, mixed_domain(rng) if mixed else None)
        answer = checked(screen.spec)
        prompt, _level = write_prompt(rng, screen)
        kind = "mixed" if mixed else screen.domain.kind
        out.append(record("ui", kind, turn(prompt, answer)))
        if rng.random() < refine_share:
            asks, spec = refine(rng, screen)
            messages = turn(prompt, answer) + turn(pick(rng, asks), checked(spec))
            out.append(record("ui", f"{kind}/refine", messages))
    return out


def generate(
    seed: int = 0,
    *,
    composed_count: int = 6000,
    screens_per_kind: int = 30,
    refine_share: float = 0.3,
    data_dashboards_count: int = 1200,
    mixed_count: int = 1500,
    named_per_kind: int = 150,
) -> list[Record]:
    """Composed pairs first, then a small share from the hand-written builders, then
    dashboards over a dataset profile, then screens whose lists are drawn across domains, then
    more of the builders named from wide pools (each added last, so that adding it left the
    others as they were)."""
    rng = Random(seed)
    out = composed(rng, composed_count, refine_share)
    out += legacy(rng, screens_per_kind, refine_share)
    out += data_dashboards.generate(rng, data_dashboards_count, checked)
    out += composed(rng, mixed_count, refine_share, mixed=True)
    out += legacy(rng, named_per_kind, refine_share, NAMED_KINDS)
    return unique(out)
