"""The composed ui dataset: sample a spec from a domain and the section catalog, then write the
prompt from it (every detail a prompt names is in its spec), plus targeted refinement turns.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from random import Random
from typing import Any

import ui4a
from inference.offline.datasets.canonical import canonical
from inference.offline.datasets.common import add_typos, article, compact, pick, sample
from inference.offline.datasets.nodes import Node, button, heading, node, text
from inference.offline.datasets.screen import ACCENTS, BRANDS, find_all
from inference.offline.datasets.sections import EXTRA, MAIN, ORDINALS, Section, listing
from inference.offline.datasets.vocab import DOMAINS, Domain

# How often each section is drawn: the interactive ones carry the behaviours the expert misses.
WEIGHTS = {
    "table": 5,
    "list": 4,
    "form": 5,
    "counter": 3,
    "wizard": 2,
    "tabs": 3,
    "dialog": 3,
    "stats": 3,
    "chart": 3,
    "settings": 2,
    "slider": 1,
    "accordion": 1,
}
# Sections that share state keys cannot sit on one page.
CLASHES = {frozenset(("form", "wizard"))}


@dataclass
class Composed:
    domain: Domain
    spec: dict[str, Any]
    name: str  # the noun phrase the prompt uses
    details: list[str]
    theme_words: str
    sections: list[str]


def _theme(rng: Random) -> tuple[dict[str, str] | None, str]:
    roll = rng.random()
    if roll < 0.55:
        return None, ""
    theme: dict[str, str] = {}
    words = []
    if rng.random() < 0.5:
        theme["mode"] = "dark"
        words.append(pick(rng, ("in dark mode", "with a dark theme", "dark mode")))
    if rng.random() < 0.6 or not theme:
        accent = pick(rng, ACCENTS)
        theme["accent"] = accent
        article = "an" if accent[0] in "aeiou" else "a"
        words.append(
            pick(
                rng,
                (f"with {article} {accent} accent", f"{accent} accent color", f"{accent} accent"),
            )
        )
    if rng.random() < 0.2:
        density = pick(rng, ("compact", "comfy"))
        theme["density"] = density
        words.append(f"{density} spacing")
    if rng.random() < 0.15:
        radius = pick(rng, ("none", "lg"))
        theme["radius"] = radius
        words.append("square corners" if radius == "none" else "rounded corners")
    return theme, listing(words)


def _wrap(rng: Random, section: Section, mention: list[str]) -> list[Node]:
    """The section's nodes on the page, or in a titled card (said in the prompt when titled)."""
    if rng.random() < 0.45 and len(section.nodes) <= 8:
        title = section.title or None
        if title and rng.random() < 0.5:
            mention.append(f"the {section.name} in a card titled '{title}'")
        return [node("card", *section.nodes, title=title)]
    return list(section.nodes)


def _pick_sections(rng: Random) -> list[str]:
    count = pick(rng, (1, 2, 2, 2, 3, 3))
    names: list[str] = []
    while len(names) < count:
        name = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        if name in names or any(frozenset((name, n)) in CLASHES for n in names):
            continue
        names.append(name)
    return names


def compose(rng: Random, dom: Domain | None = None) -> Composed:
    """A screen of `dom`, or of a domain drawn from DOMAINS."""
    dom = dom or pick(rng, DOMAINS)
    name = pick(rng, dom.names)
    brand = pick(rng, BRANDS) if rng.random() < 0.35 else ""
    title = f"{brand} {name}".strip()
    title = title[0].upper() + title[1:]
    sections = [MAIN[n](rng, dom) for n in _pick_sections(rng)]
    if rng.random() < 0.25:
        sections.insert(0, EXTRA[pick(rng, list(EXTRA))](rng, dom))
    mention: list[str] = []
    kids: list[Node] = [heading(title)]
    if rng.random() < 0.3:
        subtitle = pick(rng, (f"Everything about your {dom.items}.", f"Manage {dom.items} here."))
        kids.append(text(subtitle))
        mention.append(f"the subtitle '{subtitle}'")
    state: dict[str, Any] = {}
    data: dict[str, Any] = {}
    details: list[str] = []
    for section in sections:
        said = len(mention)
        placed = _wrap(rng, section, mention)
        if len(kids) + len(placed) > 8:
            placed = [node("card", *section.nodes, title=section.title or None)]
        if len(kids) + len(placed) > 8 or len(placed[0].get("c", [])) > 8:
            del mention[said:]
            continue
        kids.extend(placed)
        state.update(section.state)
        data.update(section.data)
        details.extend(section.details)
    theme, theme_words = _theme(rng)
    spec: dict[str, Any] = {"title": title}
    if theme:
        spec["theme"] = theme
    spec["root"] = node("page", *kids)
    if state:
        spec["state"] = state
    if data:
        spec["data"] = data
    spec = canonical(spec)
    problems = ui4a.validate(spec)
    assert not problems, (problems[:3], compact(spec)[:400])
    phrase = f"{brand} {name}".strip() if brand else name
    words = [_articles(d) for d in details + mention]
    return Composed(dom, spec, phrase, words, _articles(theme_words), [s.name for s in sections])


def _articles(phrase: str) -> str:
    """'a Email field' -> 'an Email field' (details are written with 'a' before any noun); a
    capital A is left alone, being a name more often than an article ("Freezer A")."""
    parts = re.split(r"((?<![A-Za-z])'[^']*')", phrase)  # quoted text is the spec's, verbatim
    return "".join(
        part if part.startswith("'") else re.sub(r"(?<![\w'])a (?=[aeioAEIO])", "an ", part)
        for part in parts
    )


OPENERS = (
    "Build {a} {n}",
    "Make me {a} {n}",
    "I need {a} {n}",
    "Create {a} {n}",
    "Can you put together {a} {n}",
    "Design {a} {n}",
    "Could you make {a} {n}",
    "Generate {a} {n}",
    "Give me {a} {n}",
    "Mock up {a} {n}",
    "Set up {a} {n}",
    "Whip up {a} {n}",
    "I'd like {a} {n}",
    "Please build {a} {n}",
    "We need {a} {n}",
    "Sketch {a} {n}",
    "Help me build {a} {n}",
    "Draft {a} {n}",
    "Lay out {a} {n}",
    "Our team wants {a} {n}",
    "Throw together {a} {n}",
    "Write the UI for {a} {n}",
    "Spin up {a} {n}",
    "Prototype {a} {n}",
    "hey, can I get {a} {n}",
    "quick one: {a} {n}",
    "looking for {a} {n}",
    "need {a} {n} asap",
    "{A} {n}, please",
    "Make {a} {n} screen",
    "Put {a} {n} on one page",
    "my client asked for {a} {n}",
)
JOINERS = (
    " with {d}",
    " that has {d}",
    " including {d}",
    ". It needs {d}",
    ". Include {d}",
    ": {d}",
    " featuring {d}",
    ". Put in {d}",
    " containing {d}",
    ". I want {d}",
    " - {d}",
    ". Should have {d}",
)
ENDINGS = ("", "", "", ".", ".", " please", " thanks!", ", ta", " :)", ". Keep it clean.")


def write_prompt(rng: Random, composed: Composed) -> tuple[str, str]:
    """A prompt at one of several levels of detail, and the level's name."""
    n = composed.name
    level = rng.choices(("terse", "brief", "full", "list"), weights=(2, 3, 5, 2))[0]
    theme = composed.theme_words
    if level == "terse":
        prompt = n if rng.random() < 0.5 else f"{article(n)} {n}"
        if theme:
            prompt += f" {theme}" if theme.startswith(("in ", "with ")) else f", {theme}"
        return (add_typos(rng, prompt, 1) if rng.random() < 0.15 else prompt), level
    opener = pick(rng, OPENERS).format(a=article(n), A=article(n).capitalize(), n=n)
    details = list(composed.details)
    if level == "brief":
        details = sample(rng, details, rng.randint(1, 2))
    if theme:
        details.append(theme if not theme.startswith(("in ", "with ")) else theme.split(" ", 1)[1])
    if level == "list":
        body = ":\n" + "\n".join(f"- {d}" for d in details)
        prompt = opener + body
    else:
        prompt = opener + pick(rng, JOINERS).format(d=listing(details)) + pick(rng, ENDINGS)
    if rng.random() < 0.1:
        prompt = add_typos(rng, prompt, rng.randint(1, 3))
    return prompt, level


# ---- targeted refinements: each returns (ways to ask, the revised spec) or None.
Edit = tuple[tuple[str, ...], dict[str, Any]]
NEW_COLUMN_NAMES = ("Due", "Owner", "Notes", "When", "Who", "Total", "Updated", "State", "Label")
NEW_OPTIONS = ("Other", "None", "Archived", "VIP", "Unknown", "Later", "Custom")
EXTRA_BUTTONS = ("Cancel", "Reset", "Clear", "Start over")


def _label_of(col: str) -> str:
    key, _, label = col.partition(":")
    return label or key.replace("_", " ").capitalize()


def rename_column(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    tables = [t for t in find_all(spec["root"], "table") if t.get("cols")]
    if not tables:
        return None
    new = copy.deepcopy(spec)
    cols = find_all(new["root"], "table")[0]["cols"]
    i = rng.randrange(len(cols))
    old = _label_of(cols[i])
    label = pick(rng, [c for c in NEW_COLUMN_NAMES if c != old])
    cols[i] = f"{cols[i].partition(':')[0]}:{label}"
    asks = (
        f"rename the {ORDINALS[i]} column to {label}",
        f"call the {old} column {label}",
        f"change the '{old}' header to '{label}'",
        f"the {old} column should be labelled {label}",
    )
    return asks, new


def add_button(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    spots: list[tuple[Node, str]] = []
    for row in find_all(new["root"], "row"):
        labels = [k["label"] for k in row.get("c", []) if k["t"] == "button"]
        if labels and len(row["c"]) < 8:
            spots.append((row, labels[-1]))
    for frm in find_all(new["root"], "form"):
        if len(frm.get("c", [])) < 8:
            spots.append((frm, frm.get("submit", "Submit")))
    if not spots:
        return None
    where, beside = pick(rng, spots)
    label = pick(rng, [b for b in EXTRA_BUTTONS if b != beside])
    where["c"].append(button(label, {"do": "reset"}, "secondary"))
    asks = (
        f"add a {label} button next to {beside}",
        f"put a {label} button beside the {beside} button that resets everything",
        f"I also want a {label} button by {beside}",
    )
    return asks, canonical(new)


def add_field(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    from inference.offline.datasets.sections import _field_node

    new = copy.deepcopy(spec)
    forms = [f for f in find_all(new["root"], "form") if len(f.get("c", [])) < 7]
    if not forms:
        return None
    frm = forms[0]
    have = {k.get("bind") for k in frm["c"]}
    state = new.setdefault("state", {})
    options = [f for f in dom.fields if f.key not in have and f.key not in state]
    if not options or len(state) >= 16:
        return None
    f = pick(rng, options)
    kid, start = _field_node(f, rng)
    inputs = [k for k in frm["c"] if k.get("bind")]
    frm["c"].insert(len(inputs), kid)
    state[f.key] = start
    after = inputs[-1]["label"] if inputs else ""
    asks = (
        f"add a {f.label} field",
        f"also ask for {f.label.lower()}",
        f"put a {f.label} field after {after}" if after else f"add {f.label} to the form",
    )
    return asks, canonical(new)


def remove_field(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    forms = [f for f in find_all(new["root"], "form")]
    candidates = [
        (frm, k) for frm in forms for k in frm.get("c", []) if k.get("bind") and len(frm["c"]) > 2
    ]
    if not candidates:
        return None
    frm, kid = pick(rng, candidates)
    frm["c"].remove(kid)
    new["state"].pop(kid["bind"], None)
    label = kid["label"]
    asks = (
        f"remove the {label} field",
        f"drop {label}",
        f"we don't need {label.lower()}, take it out",
    )
    return asks, canonical(new)


def add_option(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    picks = [
        n
        for t in ("select", "radio")
        for n in find_all(new["root"], t)
        if len(n["opts"]) < 8 and not n["bind"].endswith("_filter")
    ]
    if not picks:
        return None
    target = pick(rng, picks)
    option = pick(rng, [o for o in NEW_OPTIONS if o not in target["opts"]])
    target["opts"].append(option)
    asks = (
        f"add {option} to the {target['label']} options",
        f"{target['label']} should also offer {option}",
        f"include an '{option}' choice for {target['label'].lower()}",
    )
    return asks, new


def rechart(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    charts = find_all(new["root"], "chart")
    if not charts:
        return None
    kind = pick(rng, [k for k in ("line", "bar", "area", "pie") if k != charts[0].get("kind")])
    charts[0]["kind"] = kind
    if kind == "pie":
        charts[0]["y"] = charts[0]["y"][:1]
    asks = (
        f"make the chart a {kind} chart",
        f"use a {kind} chart instead",
        f"switch the chart to {kind}",
    )
    return asks, new


def restep(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    rows = [
        r
        for r in find_all(new["root"], "row")
        if any(
            isinstance(k.get("on"), dict) and k["on"].get("do") == "increment"
            for k in r.get("c", [])
        )
    ]
    if not rows:
        return None
    by = pick(rng, (2, 3, 5, 10))
    for k in rows[0]["c"]:
        on = k.get("on")
        if isinstance(on, dict) and on.get("do") == "increment":
            sign = 1 if on.get("by", 1) > 0 else -1
            on["by"] = sign * by
            k["label"] = f"{'+' if sign > 0 else '-'}{by}"
    asks = (
        f"make the buttons change the count by {by}",
        f"step by {by} instead",
        f"+{by} and -{by} please",
    )
    return asks, new


def add_tab(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    all_tabs = find_all(new["root"], "tabs")
    if not all_tabs:
        return None
    tabs = all_tabs[0]
    options = [t for t in (*dom.tabs, "History", "Help", "Archive") if t not in tabs["tabs"]]
    if not options or len(tabs["tabs"]) >= 6:
        return None
    label = pick(rng, options)
    tabs["tabs"].append(label)
    tabs["c"].append(text(f"{label} for your {dom.items} shows up here."))
    asks = (f"add a {label} tab", f"I need one more tab called {label}", f"add {label} to the tabs")
    return asks, new


def retitle(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    brand = pick(rng, [b for b in BRANDS if b not in new["title"]])
    name = pick(rng, dom.names)
    title = f"{brand} {name}"
    new["title"] = title
    first = new["root"]["c"][0]
    if first["t"] == "heading":
        first["text"] = title
    asks = (f"rename it to {title}", f"call it '{title}'", f"change the title to {title}")
    return asks, new


def search_table(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    tables = [t for t in find_all(new["root"], "table") if not t.get("search")]
    if not tables:
        return None
    tables[0]["search"] = True
    return ("add a search box to the table", "make the table searchable"), canonical(new)


def theme_edit(rng: Random, spec: dict[str, Any], dom: Domain) -> Edit | None:
    new = copy.deepcopy(spec)
    theme = new.get("theme", {})
    roll = rng.randrange(3)
    if roll == 0:
        mode = "light" if theme.get("mode") == "dark" else "dark"
        theme["mode"] = mode
        asks: tuple[str, ...] = (f"make it {mode}", f"switch to {mode} mode", f"{mode} theme")
    elif roll == 1:
        accent = pick(rng, [a for a in ACCENTS if a != theme.get("accent")])
        theme["accent"] = accent
        asks = (f"change the accent color to {accent}", f"make it {accent}", f"use {accent}")
    else:
        if theme.get("density") == "compact":
            del theme["density"]  # normal is the default, which the compact form leaves out
            asks = ("less cramped please", "use normal spacing", "normal density")
        else:
            theme["density"] = "compact"
            asks = ("make it more compact", "tighter spacing please", "use compact density")
    new["theme"] = theme
    if not theme:
        del new["theme"]
    return asks, canonical(new)


EDITS = (
    rename_column,
    add_button,
    add_field,
    remove_field,
    add_option,
    rechart,
    restep,
    add_tab,
    retitle,
    search_table,
    theme_edit,
)


def refine(rng: Random, composed: Composed) -> Edit:
    """A targeted edit the screen allows (the theme edit always does)."""
    order = list(EDITS)
    rng.shuffle(order)
    for edit in order:
        result = edit(rng, composed.spec, composed.domain)
        if result is not None and result[1] != composed.spec:
            asks, spec = result
            problems = ui4a.validate(spec)
            assert not problems, (edit.__name__, problems[:3])
            return asks, spec
    raise AssertionError("theme_edit always applies")
