"""Domains whose lists are drawn across all domains: a fleet screen whose form offers a lab's
options, whose tabs are a recipe box's and whose statuses are a gym's.

Why: each composed domain has one option list per field and one set of tabs, steps, statuses and
items, so the expert learned each domain's own words and wrote them wherever a prompt named
others (a quiz's four answers became a filter over a gym's states). Re-drawing every list from
the pool of all domains' words, with the prompt still written from the spec, leaves copying the
prompt's words as the only way to be right. The pool is the domains' own words, so no word of a
kind the dev set holds out comes in.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from inference.offline.datasets.common import pick, sample
from inference.offline.datasets.vocab import DOMAINS, Column, Domain, FormField


def _distinct(words: list[str]) -> tuple[str, ...]:
    # "All" is a filter's own first option, so a list holding it would repeat it.
    return tuple(dict.fromkeys(w for w in words if w and w != "All"))


# Everything a list on a screen can hold: options, statuses, items, tabs, steps.
WORDS: tuple[str, ...] = _distinct(
    [o for d in DOMAINS for f in d.fields for o in f.options]
    + [w for d in DOMAINS for w in (*d.statuses, *d.words, *d.tabs, *d.steps)]
)
CHOICE_LABELS: tuple[str, ...] = _distinct(
    [f.label for d in DOMAINS for f in d.fields if f.kind in ("select", "radio")]
)
TOGGLES: tuple[str, ...] = _distinct([t for d in DOMAINS for t in d.toggles])
STATS: tuple[tuple[str, str], ...] = tuple(dict.fromkeys(s for d in DOMAINS for s in d.stats))
COLUMNS_BY_KIND: dict[str, tuple[Column, ...]] = {}
for _column in dict.fromkeys(c for d in DOMAINS for c in d.columns):
    COLUMNS_BY_KIND[_column.kind] = (*COLUMNS_BY_KIND.get(_column.kind, ()), _column)


def _words(rng: Random, low: int, high: int) -> tuple[str, ...]:
    return tuple(sample(rng, WORDS, rng.randint(low, high)))


def _choice(rng: Random, label: str) -> FormField:
    return FormField(label, pick(rng, ("select", "radio")), _words(rng, 2, 5))


def _fields(rng: Random, dom: Domain) -> tuple[FormField, ...]:
    """The domain's fields, every choice among new words, and one or two choices more."""
    fields = [_choice(rng, f.label) if f.options else f for f in dom.fields]
    taken = {f.key for f in fields}
    for label in sample(rng, CHOICE_LABELS, rng.randint(1, 2)):
        added = _choice(rng, label)
        if added.key not in taken:
            taken.add(added.key)
            fields.insert(rng.randint(0, len(fields)), added)
    return tuple(fields)


def _columns(rng: Random, dom: Domain) -> tuple[Column, ...]:
    """Each column swapped, half the time, for another domain's column that fills the same way."""
    out: list[Column] = []
    for column in dom.columns:
        if rng.random() < 0.5:
            taken = {c.key for c in out} | {c.key for c in dom.columns}
            others = [c for c in COLUMNS_BY_KIND[column.kind] if c.key not in taken]
            column = pick(rng, others) if others else column
        out.append(column)
    return tuple(out)


def mixed_domain(rng: Random) -> Domain:
    """A domain's names, items and chart, with every list drawn from all domains' words."""
    dom = pick(rng, DOMAINS)
    return replace(
        dom,
        steps=_words(rng, 3, 5),
        columns=_columns(rng, dom),
        statuses=_words(rng, 3, 4),
        words=_words(rng, 6, 8),
        fields=_fields(rng, dom),
        tabs=_words(rng, 3, 4),
        stats=tuple(sample(rng, STATS, 4)),
        toggles=tuple(sample(rng, TOGGLES, 3)),
        mixed=True,
    )
