"""Account-shaped screens: settings, profile and a multi-step wizard, each named from the wide
pools of account_vocab.py, with the details naming what was drawn."""

from __future__ import annotations

from random import Random

from inference.offline.datasets.account_vocab import (
    BACK_LABELS,
    EDIT_LABELS,
    FINISH_LABELS,
    FINISHED_NOTES,
    FOLLOW_ACTIONS,
    NEXT_LABELS,
    PROFILE_FIELDS,
    PROFILE_STATS,
    ROLES,
    SAVE_LABELS,
    SAVED_NOTES,
    SETTING_PICKERS,
    SWITCH_GROUPS,
    WIZARD_FLOWS,
)
from inference.offline.datasets.common import article, pick, sample
from inference.offline.datasets.nodes import (
    Node,
    button,
    field,
    heading,
    labelled_input,
    node,
    page,
    set_,
    spec,
    text,
    toggle,
)
from inference.offline.datasets.screen import BRANDS, PEOPLE, Refinement, Screen, edited, theme_of
from inference.offline.datasets.sections import listing
from inference.offline.datasets.vocab import field_key


def _input(label: str, kind: str, req: bool | None = None) -> Node:
    return labelled_input(label, field_key(label), kind, req)


def settings(rng: Random) -> Screen:
    """One or two cards of switches and maybe a card of pickers, then a save button."""
    brand = pick(rng, BRANDS)
    state: dict[str, object] = {}
    cards: list[Node] = []
    details: list[str] = []
    spare: tuple[int, str] | None = None  # (the card, a switch of its group left out)
    for title, switches in sample(rng, SWITCH_GROUPS, rng.randint(1, 2)):
        chosen = sample(rng, switches, rng.randint(2, min(4, len(switches))))
        state.update({field_key(s): rng.random() < 0.5 for s in chosen})
        cards.append(
            node("card", *(node("switch", label=s, bind=field_key(s)) for s in chosen), title=title)
        )
        details.append(
            f"{article(title)} {title.lower()} section with switches for "
            + listing([s.lower() for s in chosen])
        )
        left = [s for s in switches if s not in chosen]
        if spare is None and left:
            spare = (len(cards), pick(rng, left))
    if rng.random() < 0.6:
        pickers = []
        for label, options in sample(rng, SETTING_PICKERS, rng.randint(1, 2)):
            opts = sample(rng, options, rng.randint(2, min(4, len(options))))
            pickers.append(
                node(pick(rng, ("select", "radio")), label=label, bind=field_key(label), opts=opts)
            )
            state[field_key(label)] = opts[0]
            details.append(f"a {label.lower()} picker with {listing(opts, 'or')}")
        cards.append(node("card", *pickers, title="General"))
    save, note = pick(rng, SAVE_LABELS), pick(rng, SAVED_NOTES)
    state["saved"] = False
    details.append(f"a button saying '{save}'")
    root = page(
        heading("Settings"), *cards, button(save, set_("saved", True)), text(note, if_="saved")
    )
    subjects = [f"a settings page for {brand}", f"{brand} account settings", "a preferences screen"]
    screen = Screen(
        "settings", subjects, details, spec(f"{brand} settings", root, state, theme=theme_of(rng))
    )
    if spare is not None:
        at, extra = spare

        def add_switch(s: dict[str, object]) -> None:
            s["root"]["c"][at]["c"].append(node("switch", label=extra, bind=field_key(extra)))  # type: ignore[index]
            s["state"][field_key(extra)] = False  # type: ignore[index]

        screen.refinements.append(
            Refinement(
                (
                    f"add a switch for {extra.lower()}",
                    f"also let me turn {extra.lower()} on and off",
                ),
                edited(screen.spec, add_switch),
            )
        )
    return screen


def profile(rng: Random) -> Screen:
    """A header, stats, a follow-like button that changes its label, and an edit dialog."""
    person = pick(rng, PEOPLE)
    first = person.split()[0]
    role = pick(rng, ROLES)
    stats = [
        (label, pick(rng, values))
        for label, values in sample(rng, PROFILE_STATS, rng.randint(2, 4))
    ]
    follow, followed = pick(rng, FOLLOW_ACTIONS)
    extras = sorted(sample(rng, PROFILE_FIELDS, rng.randint(1, 3)), key=PROFILE_FIELDS.index)
    edit = pick(rng, EDIT_LABELS)
    state: dict[str, object] = {"name": person, "editing": False, "following": False}
    state.update({field_key(label): "" for label, _ in extras})
    header = node(
        "row",
        node(
            "image",
            src=f"https://example.com/avatars/{first.lower()}.png",
            alt=f"{person}'s avatar",
        ),
        node("stack", heading("{name}", 2), node("badge", text=role, tone="info")),
    )
    stat_row = node("grid", *(node("stat", label=k, value=v) for k, v in stats), cols=len(stats))
    actions = node(
        "row",
        button(follow, toggle("following"), if_="!following"),
        button(followed, toggle("following"), "secondary", if_="following"),
        button(edit, {"do": "open", "path": "editing"}, "secondary"),
    )
    dialog = node(
        "dialog",
        field("Name", "name", req=True),
        *(_input(label, kind) for label, kind in extras),
        button("Save", {"do": "close", "path": "editing"}),
        title="Edit profile" if edit == "Edit" else edit,
        bind="editing",
    )
    root = page(node("card", header, stat_row, actions), dialog)
    subjects = [
        f"a profile page for {person}",
        f"a profile card for {article(role)} {role.lower()}",
        f"{first}'s profile screen",
    ]
    said = ["name", *(label.lower() for label, _ in extras)]
    details = [
        "an avatar",
        f"{article(role)} {role.lower()} badge",
        f"stats for {listing([k.lower() for k, _ in stats])}",
        f"a '{follow}' button whose label becomes '{followed}' when pressed",
        f"a dialog behind a button saying '{edit}', with {listing(said)} fields",
    ]
    return Screen(
        "profile", subjects, details, spec(f"{first}'s profile", root, state, theme=theme_of(rng))
    )


def wizard(rng: Random) -> Screen:
    """One card per step, shown by a `step` key, with back and next buttons and a progress bar."""
    purpose, steps = pick(rng, WIZARD_FLOWS)
    last = len(steps)
    forward, back, finish = pick(rng, NEXT_LABELS), pick(rng, BACK_LABELS), pick(rng, FINISH_LABELS)
    state: dict[str, object] = {"step": 1, "finished": False}
    kids = [
        heading(purpose.capitalize()),
        node("progress", label="Progress", bind="step", max=last),
    ]
    for i, (title, inputs) in enumerate(steps, start=1):
        state.update({field_key(label): "" for label, _ in inputs})
        nav = [button(back, set_("step", i - 1), "secondary")] if i > 1 else []
        nav.append(
            button(forward, set_("step", i + 1))
            if i < last
            else button(finish, set_("finished", True))
        )
        kids.append(
            node(
                "card",
                *(_input(label, kind, req=True) for label, kind in inputs),
                node("row", *nav),
                if_=f"step={i}",
                title=f"Step {i}: {title}",
            )
        )
    kids.append(node("alert", if_="finished", tone="success", text=pick(rng, FINISHED_NOTES)))
    subjects = [
        f"a {purpose} wizard",
        f"a {last}-step {purpose} flow",
        f"a multi-step form for {purpose}",
    ]
    fields = [label.lower() for _, inputs in steps for label, _ in inputs]
    details = [
        f"{last} steps: {listing([title for title, _ in steps])}",
        f"'{back}' and '{forward}' buttons",
        f"a '{finish}' button on the last step",
        "a progress bar",
        f"fields for {listing(fields)}",
    ]
    return Screen(
        "wizard",
        subjects,
        details,
        spec(purpose.capitalize(), page(*kids), state, theme=theme_of(rng)),
    )
