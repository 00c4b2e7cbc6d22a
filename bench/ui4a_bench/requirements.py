"""Requirements on a rendered view, written with accessible roles and names, and their check.

One requirement is one line of a small language, so the dev set stays readable data:

    textbox /e-?mail/          a textbox whose accessible name matches /e-?mail/ (any case)
    switch|checkbox >=2        at least two switches or checkboxes, any name
    button /add to cart/ >=3   at least three such buttons
    table cols>=3              a data table with at least 3 column headers
    chart /revenue/            a chart (its canvas is an img named "<title>: <kind> chart of ...")
    text /total/               visible text matching /total/
    columnheader /price/       a table's column header (also: row, cell)

Roles are ARIA roles as Playwright's role locators see them, but for the roles ARIA names by
their author alone (a list item, an alert, a status): a requirement names those by the text
they show, since "listitem /oat milk/" means the item that reads "Oat milk", and its accessible
name is empty however it reads. Only what the first screen exposes to the accessibility tree
counts: a closed dialog, a later wizard step or another tab's panel does not (the interaction
checks cover what the view can reach).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import FrameLocator, Locator

ROLES = frozenset(
    {
        "alert",
        "button",
        "cell",
        "checkbox",
        "columnheader",
        "combobox",
        "dialog",
        "heading",
        "img",
        "link",
        "list",
        "listitem",
        "progressbar",
        "radio",
        "row",
        "searchbox",
        "slider",
        "spinbutton",
        "status",
        "switch",
        "tab",
        "textbox",
    }
)
SPECIAL = ("table", "chart", "text")
# Roles whose accessible name never comes from their content (ARIA "name from: author"), named
# in a requirement by the text they show.
NAMED_BY_TEXT = frozenset({"listitem", "alert", "status"})
_LINE = re.compile(
    r"^(?P<kinds>[a-z]+(?:\|[a-z]+)*)"
    r"(?:\s+/(?P<name>(?:[^/\\]|\\.)+)/)?"
    r"(?:\s+cols>=(?P<cols>\d+))?"
    r"(?:\s+(?P<op>>=|=)(?P<count>\d+))?$"
)
# A data table the user sees, not the visually hidden table a chart carries for screen readers.
_OUTSIDE_CHARTS = "el => !el.closest('figure.u4-chart')"


class BadRequirement(ValueError):
    """A requirement line that does not parse; the message says why and quotes it."""


@dataclass(frozen=True)
class Requirement:
    source: str
    kinds: tuple[str, ...]  # roles, or one of SPECIAL
    name: re.Pattern[str] | None = None
    at_least: int = 1
    exactly: bool = False
    cols: int = 0  # tables only: the fewest column headers

    def counted(self, found: int) -> bool:
        return found == self.at_least if self.exactly else found >= self.at_least


def parse(line: str) -> Requirement:
    text = " ".join(line.split())
    match = _LINE.match(text)
    if not match:
        raise BadRequirement(
            f"cannot read requirement {line!r}: write ROLE[|ROLE] [/name regex/] [>=N], "
            "'table [/name/] [cols>=N]', 'chart [/name/]' or 'text /regex/'"
        )
    kinds = tuple(match["kinds"].split("|"))
    for kind in kinds:
        if kind not in ROLES and kind not in SPECIAL:
            raise BadRequirement(f"unknown role {kind!r} in requirement {line!r}")
    if len(kinds) > 1 and "text" in kinds:
        raise BadRequirement(f"'text' stands alone, in {line!r}")
    if match["cols"] and kinds != ("table",):
        raise BadRequirement(f"only a table takes cols>=N, in {line!r}")
    if kinds == ("text",) and not match["name"]:
        raise BadRequirement(f"'text' needs a /regex/, in {line!r}")
    name = None
    if match["name"]:
        try:
            name = re.compile(match["name"], re.IGNORECASE)
        except re.error as exc:
            raise BadRequirement(f"bad regex in requirement {line!r}: {exc}") from None
    count = int(match["count"]) if match["count"] else 1
    return Requirement(
        source=text,
        kinds=kinds,
        name=name,
        at_least=count,
        exactly=match["op"] == "=",
        cols=int(match["cols"] or 0),
    )


@dataclass(frozen=True)
class Outcome:
    requirement: str
    passed: bool
    found: int


def check(view: FrameLocator, requirement: Requirement) -> Outcome:
    """Count what matches in the view's accessibility tree and compare with the requirement."""
    found = len(matches(view, requirement))
    return Outcome(requirement.source, requirement.counted(found), found)


def matches(view: FrameLocator, req: Requirement) -> list[Locator]:
    """Every element in the view that the requirement's roles (or text) and name match."""
    found: list[Locator] = []
    for kind in req.kinds:
        found += _matches_kind(view, kind, req)
    return found


def _matches_kind(view: FrameLocator, kind: str, req: Requirement) -> list[Locator]:
    if kind == "text":
        assert req.name is not None
        return [el for el in view.get_by_text(req.name).all() if el.is_visible()]
    if kind == "table":
        tables = view.get_by_role("table", name=req.name).all()
        return [
            t
            for t in tables
            if t.evaluate(_OUTSIDE_CHARTS) and t.get_by_role("columnheader").count() >= req.cols
        ]
    if kind == "chart":
        images = view.get_by_role("img", name=req.name).all()
        return [img for img in images if img.evaluate("el => el.matches('canvas[data-chart]')")]
    if kind in NAMED_BY_TEXT and req.name is not None:
        return view.get_by_role(kind).filter(has_text=req.name).all()  # type: ignore[arg-type]
    return view.get_by_role(kind, name=req.name).all()  # type: ignore[arg-type]
