"""A generated screen: its spec, the words a person might use for it, and the edits it allows."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from inference.offline.datasets.nodes import Node

ACCENTS = ("indigo", "blue", "teal", "green", "amber", "rose", "violet", "slate")
BRANDS = (
    "Acme",
    "Nimbus",
    "Pebble",
    "Orbit",
    "Juniper",
    "Lumen",
    "Maple",
    "Quartz",
    "Harbor",
    "Fable",
    "Cobalt",
    "Sprout",
    "Tidal",
    "Vesper",
    "Kite",
    "Atlas",
    "Bramble",
    "Cinder",
    "Delta",
    "Ember",
    "Fjord",
    "Grove",
    "Helix",
    "Ivy",
    "Jasper",
    "Koala",
    "Lark",
    "Mosaic",
)
PEOPLE = (
    "Ada Lovelace",
    "Grace Hopper",
    "Alan Turing",
    "Katherine Johnson",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Linus Torvalds",
    "Margaret Hamilton",
    "Donald Knuth",
    "Radia Perlman",
    "Ken Thompson",
    "Frances Allen",
    "John Backus",
    "Hedy Lamarr",
    "Tim Berners-Lee",
    "Annie Easley",
    "Guido van Rossum",
    "Shafi Goldwasser",
    "Leslie Lamport",
    "Sophie Wilson",
)


@dataclass
class Refinement:
    asks: tuple[str, ...]  # ways to ask for the same change
    spec: Node


@dataclass
class Screen:
    kind: str
    subjects: list[str]  # noun phrases: "a login form for Acme"
    details: list[str]  # what it has, in words that match the spec: "a remember-me checkbox"
    spec: Node
    refinements: list[Refinement] = field(default_factory=list)


Builder = Callable[[Random], Screen]


def edited(spec: Node, change: Callable[[Node], None]) -> Node:
    new = copy.deepcopy(spec)
    change(new)
    return new


def theme_of(rng: Random) -> dict[str, str] | None:
    """Most screens keep the default theme; some name an accent, a few go dark."""
    roll = rng.random()
    if roll < 0.6:
        return None
    theme = {"accent": ACCENTS[rng.randrange(len(ACCENTS))]}
    if roll > 0.85:
        theme["mode"] = "dark"
    return theme


def find_all(root: Node, t: str) -> list[Node]:
    found, todo = [], [root]
    while todo:
        current = todo.pop()
        if current.get("t") == t:
            found.append(current)
        todo.extend(reversed(current.get("c", [])))
    return found


def theme_refinements(rng: Random, spec: Node) -> list[Refinement]:
    """Edits that apply to any screen: dark or light mode, another accent, denser layout."""
    out = []
    mode = spec.get("theme", {}).get("mode", "light")
    new_mode = "light" if mode == "dark" else "dark"

    def set_mode(s: Node) -> None:
        s.setdefault("theme", {})["mode"] = new_mode

    out.append(
        Refinement(
            (f"make it {new_mode}", f"switch to {new_mode} mode", f"use a {new_mode} theme"),
            edited(spec, set_mode),
        )
    )
    accent = ACCENTS[rng.randrange(len(ACCENTS))]
    if spec.get("theme", {}).get("accent") != accent:

        def set_accent(s: Node) -> None:
            s.setdefault("theme", {})["accent"] = accent

        out.append(
            Refinement(
                (f"change the accent color to {accent}", f"make it {accent}", f"use {accent}"),
                edited(spec, set_accent),
            )
        )

    def compact(s: Node) -> None:
        s.setdefault("theme", {})["density"] = "compact"

    out.append(
        Refinement(
            ("make it more compact", "tighter spacing please", "use compact density"),
            edited(spec, compact),
        )
    )
    return out
