"""Sections of a composed screen: each makes its nodes, state and data from a domain, and says in
words exactly what it made, so a prompt written from those words never names a missing detail.

Every section's behaviour runs on the runtime's fixed actions: a form appends what was typed, a
counter increments, a wizard steps, tabs switch, a dialog opens and closes, a select filters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from inference.offline.datasets.common import pick, sample
from inference.offline.datasets.nodes import Node, button, heading, node, set_, text
from inference.offline.datasets.screen import PEOPLE
from inference.offline.datasets.vocab import Column, Domain, FormField

CITIES = ("Lisbon", "Austin", "Osaka", "Nairobi", "Denver", "Porto", "Leeds", "Perth", "Quito")
TOGGLES = (
    "Email notifications",
    "Push notifications",
    "Auto save",
    "Show archived",
    "Two-factor login",
    "Weekly digest",
    "Public profile",
    "Sound effects",
    "Show tips",
    "Compact view",
    "Share usage data",
    "Beta features",
)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass
class Section:
    name: str  # table, list, form, counter, wizard, tabs, dialog, stats, chart, settings, ...
    nodes: list[Node]
    details: list[str]  # phrases that name only what the nodes hold
    state: dict[str, Any] = field(default_factory=dict)
    data: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    title: str = ""  # a card title, when the section is put in a card
    nests: bool = True  # false when it holds a form, list, tabs or dialog (max level 2)


def listing(words: list[str], conj: str = "and") -> str:
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {conj} " + words[-1]


def cell(rng: Random, dom: Domain, col: Column, i: int) -> Any:
    kind = col.kind
    if kind == "person":
        return pick(rng, PEOPLE)
    if kind == "email":
        return f"{pick(rng, ('ada', 'sam', 'lee', 'kim', 'max', 'joy', 'ray'))}{i + 1}@example.com"
    if kind == "date":
        return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if kind == "int":
        return rng.randint(1, 60)
    if kind == "money":
        return rng.randint(8, 950) * (10 if rng.random() < 0.3 else 1)
    if kind == "status":
        return pick(rng, dom.statuses)
    if kind == "city":
        return pick(rng, CITIES)
    if kind == "code":
        return f"{dom.item[0].upper()}-{100 + 7 * i + rng.randint(0, 6)}"
    return pick(rng, dom.words)


def rows_for(rng: Random, dom: Domain, cols: list[Column], count: int) -> list[dict[str, Any]]:
    return [{c.key: cell(rng, dom, c, i) for c in cols} for i in range(count)]


def data_name(dom: Domain) -> str:
    return dom.items.replace(" ", "_")


def table(rng: Random, dom: Domain) -> Section:
    first = dom.columns[0]
    rest = list(dom.columns[1:])
    cols = [first, *sample(rng, rest, rng.randint(min(2, len(rest)), len(rest)))]
    cols.sort(key=dom.columns.index)
    rows = rows_for(rng, dom, list(dom.columns), rng.randint(4, 7))
    name = data_name(dom)
    title = pick(rng, (dom.items.replace("_", " ").capitalize(), f"All {dom.items}", ""))
    labels = [c.label for c in cols]
    details = [
        pick(
            rng,
            (
                f"a table of {dom.items} with columns {listing(labels)}",
                f"a {dom.items} table showing {listing(labels)}",
                f"a table listing each {dom.item}'s {listing([lab.lower() for lab in labels])}",
            ),
        )
    ]
    state: dict[str, Any] = {}
    kids: list[Node] = []
    status = dom.status_column
    flt: list[str] | None = None
    if status is not None and rng.random() < 0.6:
        key = f"{status.key}_filter"
        flt = [f"{status.key}={key}"]
        state[key] = "All"
        label = pick(rng, (status.label, f"Filter by {status.label.lower()}", f"{status.label}:"))
        kids.append(node("select", label=label, bind=key, opts=["All", *dom.statuses]))
        details.append(
            pick(
                rng,
                (
                    f"a {status.label.lower()} filter ({listing(list(dom.statuses), 'or')})",
                    f"a dropdown that filters by {status.label.lower()}",
                    f"a select to filter the table by {status.label.lower()}",
                ),
            )
        )
    search = rng.random() < 0.45
    if search:
        details.append(pick(rng, ("a search box", "search on the table", "a searchable table")))
    paged = rng.random() < 0.3
    if paged:
        details.append(f"{3 if len(rows) > 4 else 2} rows per page")
    tbl = node(
        "table",
        data=name,
        cols=[c.key for c in cols],
        title=title or None,
        filter=flt,
        search=search or None,
        page=(3 if len(rows) > 4 else 2) if paged else None,
    )
    return Section("table", [*kids, tbl], details, state, {name: rows}, title="")


def add_list(rng: Random, dom: Domain) -> Section:
    """An input and an Add button that append the typed text to a list with Remove buttons."""
    name = f"{dom.item.replace(' ', '_')}_list"
    key = "draft"
    checkable = rng.random() < 0.5
    noun = pick(rng, (dom.item, f"{dom.item} name"))
    article = "an" if noun[0] in "aeio" else "a"
    label = pick(rng, (f"New {noun}", f"Add {article} {noun}", f"{noun.capitalize()} to add"))
    add = pick(rng, ("Add", f"Add {dom.item}", "Save", "Add to list"))
    items = sample(rng, dom.words, rng.randint(2, 3))
    rows: list[dict[str, Any]] = [
        {"name": w, "done": rng.random() < 0.3} if checkable else {"name": w} for w in items
    ]
    record: dict[str, Any] = (
        {"name": "{draft}", "done": False} if checkable else {"name": "{draft}"}
    )
    form = node(
        "form",
        node("input", label=label, bind=key, req=True),
        submit=add,
        on=[{"do": "append", "path": name, "value": record}, {"do": "reset", "path": key}],
    )
    first: Node = node("checkbox", label="{.name}", bind=".done") if checkable else text("{.name}")
    remove = rng.random() < 0.7
    kids = [first]
    if remove:
        kids.append(button(pick(rng, ("Remove", "Delete", "x")), {"do": "remove"}, "ghost"))
    empty = pick(rng, (f"No {dom.items} yet.", "Nothing here yet.", None))
    lst = node("list", node("row", *kids), data=name, empty=empty)
    details = [
        pick(
            rng,
            (
                f"a '{label}' input with an {add} button that adds it to the list",
                f"a field to type a {dom.item} and an {add} button that appends it to a list",
                f"an {add} button that puts the typed {noun} into the list below",
            ),
        ).replace("an Save", "a Save")
    ]
    if checkable:
        details.append(pick(rng, ("a checkbox on each item", "items you can tick off")))
    if remove:
        details.append(pick(rng, ("a remove button per item", "a way to delete each item")))
    if rows:
        details.append(f"{listing([str(r['name']) for r in rows])} already in the list")
    section = Section("list", [form, lst], details, {key: ""}, {name: rows}, nests=False)
    section.title = pick(rng, (dom.items.replace("_", " ").capitalize(), ""))
    return section


def _field_node(f: FormField, rng: Random) -> tuple[Node, Any]:
    if f.kind in ("select", "radio"):
        return node(f.kind, label=f.label, bind=f.key, opts=list(f.options)), f.options[0]
    if f.kind in ("checkbox", "switch"):
        return node(f.kind, label=f.label, bind=f.key), False
    if f.kind == "textarea":
        return node("textarea", label=f.label, bind=f.key), ""
    if f.kind == "slider":
        return node("slider", label=f.label, bind=f.key, min=1, max=10), 5
    req = rng.random() < 0.4 or None
    kind = None if f.kind == "text" else f.kind
    start: Any = 0 if f.kind == "number" else ""
    return node("input", label=f.label, bind=f.key, kind=kind, req=req), start


# How a mixed domain's prompt names a choice, beside the plain "Label (A/B/C)".
CHOICE_PHRASES = (
    "{label} ({slashed})",
    "{label} ({commas})",
    "{label} with options {commas}",
    "{label}: {commas}",
    "a choice of {lower}: {commas}",
    "pick one {lower} ({commas})",
)
RADIO_PHRASES = ("{label} as radio buttons ({commas})", "{lower} radios: {commas}")


def _field_words(f: FormField, rng: Random | None = None) -> str:
    """`rng` varies how an option list is said (mixed domains only, so that the other domains'
    prompts, and the random draws after them, stay as they were)."""
    if f.options and rng is not None:
        phrases = CHOICE_PHRASES + (RADIO_PHRASES if f.kind == "radio" else ())
        return pick(rng, phrases).format(
            label=f.label,
            lower=f.label.lower(),
            slashed="/".join(f.options),
            commas=listing(list(f.options), pick(rng, ("and", "or"))),
        )
    if f.options:
        return f"{f.label} ({'/'.join(f.options)})"
    if f.kind in ("email", "date", "number", "tel", "url", "password"):
        return f"{f.label} ({f.kind if f.kind != 'tel' else 'phone'})"
    if f.kind in ("checkbox", "switch", "textarea", "slider"):
        return f"a {f.label} {f.kind}"
    return f.label


def form(rng: Random, dom: Domain) -> Section:
    fields = sample(rng, dom.fields, rng.randint(2, min(5, len(dom.fields))))
    fields.sort(key=dom.fields.index)
    kids, state = [], {}
    for f in fields:
        kid, start = _field_node(f, rng)
        kids.append(kid)
        state[f.key] = start
    submit = pick(
        rng,
        (
            "Save",
            "Submit",
            "Send",
            "Continue",
            "Register",
            f"Create {dom.item}",
            f"Save {dom.item}",
            f"Add {dom.item}",
            f"Update {dom.item}",
        ),
    )
    done_key = "saved"
    message = pick(rng, (f"{dom.item.capitalize()} saved.", "Thanks, we got it!", "All done."))
    state[done_key] = False
    frm = node("form", *kids, submit=submit, on=set_(done_key, True))
    alert = node("alert", tone="success", text=message, if_=done_key)
    said = listing([_field_words(f, rng if dom.mixed else None) for f in fields])
    details = [
        pick(
            rng,
            (
                f"a form with {said}",
                f"fields for {said}",
                f"a {dom.item} form asking for {said}",
            ),
        ),
        pick(
            rng,
            (
                f"a {submit} button that shows '{message}'",
                f"'{message}' after {submit} is pressed",
                f"a success message once the form is sent with {submit}",
            ),
        ),
    ]
    title = pick(rng, (f"New {dom.item}", f"{dom.item.capitalize()} details", ""))
    return Section("form", [frm, alert], details, state, title=title, nests=False)


def counter(rng: Random, dom: Domain) -> Section:
    start = rng.randint(0, 5)
    by = pick(rng, (1, 1, 1, 2, 5, 10))
    key = "count"
    label = dom.counter.capitalize()
    show = pick(rng, ("stat", "heading", "text"))
    shown: Node
    if show == "stat":
        shown = node("stat", label=label, value="{count}")
    elif show == "heading":
        shown = heading(f"{label}: {{count}}", 2)
    else:
        shown = text(f"{label}: {{count}}")
    plus = f"+{by}" if by > 1 else "+"
    minus = f"-{by}" if by > 1 else "-"
    buttons = [
        button(minus, {"do": "increment", "path": key, "by": -by}, "secondary"),
        button(plus, {"do": "increment", "path": key, "by": by}),
    ]
    details = [
        pick(
            rng,
            (
                f"a counter of {dom.counter} starting at {start}",
                f"a {dom.counter} count that starts at {start}",
                f"{dom.counter} shown as a number, {start} to begin with",
            ),
        ),
        pick(
            rng,
            (
                f"{plus} and {minus} buttons" + (f" that change it by {by}" if by > 1 else ""),
                f"buttons to add or take away {by}" if by > 1 else "plus and minus buttons",
            ),
        ),
    ]
    if rng.random() < 0.4:
        buttons.append(button("Reset", {"do": "reset", "path": key}, "ghost"))
        details.append("a Reset button")
    return Section("counter", [shown, node("row", *buttons)], details, {key: start})


def wizard(rng: Random, dom: Domain) -> Section:
    steps = list(dom.steps[: rng.randint(3, len(dom.steps))])
    n = len(steps)
    fields = sample(rng, dom.fields, n - 1)
    state: dict[str, Any] = {"step": 1}
    kids: list[Node] = [node("progress", label="Step {step} of " + str(n), bind="step", max=n)]
    finish = pick(rng, ("Finish", "Confirm", "Done", "Submit"))
    for i, name in enumerate(steps, start=1):
        body: list[Node] = [heading(name, 3)]
        if i < n:
            f = fields[i - 1]
            kid, start = _field_node(f, rng)
            body.append(kid)
            state[f.key] = start
        else:
            body.append(text(pick(rng, ("Check everything, then confirm.", "Almost there."))))
        nav: list[Node] = []
        if i > 1:
            nav.append(button("Back", set_("step", i - 1), "secondary"))
        if i < n:
            ahead = pick(rng, ("Next", "Next", f"Next: {steps[i]}", f"Continue to {steps[i]}"))
            nav.append(button(ahead, set_("step", i + 1)))
        else:
            nav.append(button(finish, set_("finished", True)))
        body.append(node("row", *nav))
        kids.append(node("stack", *body, if_=f"step={i}"))
    state["finished"] = False
    kids.append(node("alert", tone="success", text="All set!", if_="finished"))
    details = [
        pick(
            rng,
            (
                f"{n} steps: {listing(steps)}",
                f"a {n}-step wizard ({listing(steps)})",
                f"a stepper going through {listing(steps)}",
            ),
        ),
        pick(rng, ("back and forward buttons", "next and back navigation")),
        f"a {finish} button on the last step",
    ]
    return Section("wizard", kids, details, state)


def _unshown(
    stat: tuple[str, str], stats: tuple[tuple[str, str], ...], bodies: list[Node]
) -> tuple[str, str]:
    """`stat`, or the first of `stats` no panel shows yet if one does: two tabs showing the same
    stat were the only items the data wrote twice in a row, which the expert learned to copy.
    Chosen without drawing again, so every other example stays as it was."""
    shown = {(b.get("label"), b.get("value")) for b in bodies if b.get("t") == "stat"}
    if stat not in shown:
        return stat
    return next((other for other in stats if other not in shown), stat)


def tabs(rng: Random, dom: Domain) -> Section:
    labels = sample(rng, dom.tabs, rng.randint(2, min(4, len(dom.tabs))))
    bodies: list[Node] = []
    for label in labels:
        how = rng.randrange(3)
        if how == 0:
            bodies.append(text(f"{label} for your {dom.items} shows up here."))
        elif how == 1:
            stat_label, value = _unshown(pick(rng, dom.stats), dom.stats, bodies)
            bodies.append(node("stat", label=stat_label, value=value))
        else:
            bodies.append(node("markdown", md=f"**{label}**\n\nNothing to review right now."))
    key = "tab"
    tab = node("tabs", *bodies, bind=key, tabs=labels)
    details = [
        pick(
            rng,
            (
                f"tabs for {listing(labels)}",
                f"{len(labels)} tabs: {listing(labels)}",
                f"a tab bar with {listing(labels)}",
            ),
        )
    ]
    nodes = [tab]
    if rng.random() < 0.35:
        target = labels[-1]
        nodes.append(
            button(f"Go to {target}", {"do": "tab", "path": key, "value": target}, "secondary")
        )
        details.append(f"a 'Go to {target}' button that switches tabs")
    return Section("tabs", nodes, details, {key: labels[0]}, nests=False)


def dialog(rng: Random, dom: Domain) -> Section:
    key = "confirm"
    done = "done"
    action = dom.danger
    question = pick(rng, (f"{action}?", "Are you sure?", f"Really {action.lower()}?"))
    cancel = pick(rng, ("Cancel", "Keep it", "No"))
    ok = pick(rng, ("Yes", "Confirm", action.split()[0], action, f"Yes, {action.lower()}"))
    result = pick(rng, ("Done.", "It is gone.", f"{dom.item.capitalize()} removed."))
    trigger = button(action, {"do": "open", "path": key}, "danger")
    box = node(
        "dialog",
        text(pick(rng, ("This cannot be undone.", "You can't take this back."))),
        node(
            "row",
            button(cancel, {"do": "close", "path": key}, "secondary"),
            button(ok, [set_(done, True), {"do": "close", "path": key}], "danger"),
        ),
        title=question,
        bind=key,
    )
    note = node("alert", tone="success", text=result, if_=done)
    details = [
        pick(
            rng,
            (
                f"a '{action}' button that asks '{question}' in a dialog",
                f"a {action} button with a confirmation dialog ({cancel} / {ok})",
                f"a dialog to confirm '{action.lower()}'",
            ),
        )
    ]
    return Section("dialog", [trigger, box, note], details, {key: False, done: False}, nests=False)


def stats(rng: Random, dom: Domain) -> Section:
    chosen = sample(rng, dom.stats, rng.randint(2, min(4, len(dom.stats))))
    cards = []
    words = []
    for label, value in chosen:
        delta = None
        if rng.random() < 0.5:
            delta = pick(rng, ("+", "-")) + f"{rng.randint(1, 25)}%"
        cards.append(node("stat", label=label, value=value, delta=delta))
        words.append(f"{label} ({value})")
    grid = node("grid", *cards, cols=min(4, max(2, len(cards))))
    details = [
        pick(
            rng,
            (
                f"stat cards for {listing(words)}",
                f"KPIs: {listing(words)}",
                f"numbers at the top: {listing(words)}",
            ),
        )
    ]
    return Section("stats", [grid], details)


def chart(rng: Random, dom: Domain) -> Section:
    kind = pick(rng, ("line", "bar", "area", "pie", "bar"))
    ys = list(dom.ys[:1]) if kind == "pie" or rng.random() < 0.5 else list(dom.ys)
    xs = list(dom.xs[: rng.randint(4, len(dom.xs))])
    name = f"{dom.kind}_{dom.x}ly".replace("dayly", "daily")
    rows = [{dom.x: x, **{y: rng.randint(5, 400) for y in ys}} for x in xs]
    ytext = " and ".join(ys)
    title = f"{ys[0].capitalize()} by {dom.x}" if len(ys) == 1 else f"{ytext.capitalize()}"
    chrt = node("chart", kind=kind, title=title, data=name, x=dom.x, y=ys)
    details = [
        pick(
            rng,
            (
                f"a {kind} chart of {ytext} by {dom.x}",
                f"a {kind} chart titled '{title}'",
                f"{ytext} per {dom.x} as a {kind} chart",
            ),
        )
    ]
    return Section("chart", [chrt], details, data={name: rows})


def settings(rng: Random, dom: Domain) -> Section:
    chosen = sample(rng, dom.toggles, rng.randint(1, len(dom.toggles)))
    chosen += sample(rng, [t for t in TOGGLES if t not in chosen], rng.randint(1, 2))
    kinds = pick(rng, ("switch", "checkbox"))
    state: dict[str, Any] = {}
    kids: list[Node] = []
    for label in chosen:
        key = "_".join(label.lower().replace("-", " ").split())[:24]
        on = rng.random() < 0.4
        state[key] = on
        kids.append(node(kinds, label=label, bind=key))
    details = [
        pick(
            rng,
            (
                f"{kinds}es for {listing(chosen)}",
                f"{kinds} toggles: {listing(chosen)}",
                f"on/off {kinds}es for {listing([c.lower() for c in chosen])}",
            ),
        )
    ]
    if rng.random() < 0.4:
        first = "_".join(chosen[0].lower().replace("-", " ").split())[:24]
        kids.append(
            node("badge", text=f"{chosen[0]} on", tone="success", if_=first),
        )
        details.append(f"a badge that shows when {chosen[0]} is on")
    return Section("settings", kids, details, state, title=pick(rng, ("Preferences", "Settings")))


def slider(rng: Random, dom: Domain) -> Section:
    label, lo, hi = pick(
        rng,
        (
            ("Budget", 0, 5000),
            ("Volume", 0, 100),
            ("Radius (km)", 1, 50),
            ("Priority", 1, 5),
            ("Guests", 1, 12),
            ("Discount %", 0, 50),
        ),
    )
    key = "_".join(label.lower().replace("(", "").replace(")", "").replace("%", "pct").split())
    start = rng.randint(lo, hi)
    nodes = [
        node("slider", label=label, bind=key, min=lo, max=hi),
        text(f"{label}: {{{key}}}"),
    ]
    details = [
        pick(
            rng,
            (
                f"a {label.lower()} slider from {lo} to {hi} that shows its value",
                f"a slider for {label.lower()} ({lo}-{hi}), starting at {start}",
            ),
        )
    ]
    return Section("slider", nodes, details, {key: start})


def accordion(rng: Random, dom: Domain) -> Section:
    items = sample(rng, dom.tabs, rng.randint(2, min(4, len(dom.tabs))))
    bodies = [text(f"All about {item.lower()} for your {dom.items}.") for item in items]
    details = [f"collapsible sections for {listing(items)}"]
    return Section("accordion", [node("accordion", *bodies, items=items)], details, nests=False)


def progress(rng: Random, dom: Domain) -> Section:
    label = pick(rng, ("Profile complete", "Goal reached", "Storage used", "Capacity", "Done"))
    value = rng.randint(5, 95)
    details = [f"a '{label}' progress bar at {value}%"]
    return Section("progress", [node("progress", label=label, value=value)], details)


def banner(rng: Random, dom: Domain) -> Section:
    tone = pick(rng, ("info", "warning", "success"))
    message = pick(
        rng,
        (
            f"{len(dom.words)} {dom.items} need a look today.",
            f"New: export your {dom.items} to CSV.",
            "Scheduled maintenance on Sunday night.",
            f"Welcome back! Your {dom.items} are up to date.",
        ),
    )
    details = [f"a {tone} banner saying '{message}'"]
    return Section("banner", [node("alert", tone=tone, text=message)], details)


MAIN: dict[str, Callable[[Random, Domain], Section]] = {
    "table": table,
    "list": add_list,
    "form": form,
    "counter": counter,
    "wizard": wizard,
    "tabs": tabs,
    "dialog": dialog,
    "stats": stats,
    "chart": chart,
    "settings": settings,
    "slider": slider,
    "accordion": accordion,
}
EXTRA: dict[str, Callable[[Random, Domain], Section]] = {"progress": progress, "banner": banner}
