"""Form-shaped screens: auth, checkout and booking."""

from __future__ import annotations

from random import Random

from inference.offline.datasets.builder_vocab import (
    ADDRESS_FIELDS,
    BOOK_LABELS,
    CONTACT_FIELDS,
    HELP_LINKS,
    IDENTIFIERS,
    LOGIN_LABELS,
    PARTY_LABELS,
    PAY_LABELS,
    PAYMENTS,
    SECRETS,
    SHIPPING,
    SHOPS,
    SIGNUP_EXTRAS,
    SIGNUP_LABELS,
    VENUES,
)
from inference.offline.datasets.common import pick, sample
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
)
from inference.offline.datasets.screen import BRANDS, Refinement, Screen, edited, theme_of
from inference.offline.datasets.sections import listing
from inference.offline.datasets.vocab import field_key


def _login_fields(rng: Random, details: list[str]) -> tuple[list[Node], dict[str, object]]:
    ident, kind = pick(rng, IDENTIFIERS)
    secret = pick(rng, SECRETS)
    kids = [
        field(ident, field_key(ident), None if kind == "text" else kind, req=True),
        field(secret, "password", "password", req=True),
    ]
    details.append(
        pick(rng, (f"{ident.lower()} and {secret.lower()} fields", f"{ident} and {secret}"))
    )
    return kids, {field_key(ident): "", "password": ""}


def _signup_fields(rng: Random, details: list[str]) -> tuple[list[Node], dict[str, object]]:
    extras = sorted(sample(rng, SIGNUP_EXTRAS, rng.randint(0, 3)), key=SIGNUP_EXTRAS.index)
    kids = [
        field(label, field_key(label), None if kind == "text" else kind, req=True)
        for label, kind in extras
    ]
    state: dict[str, object] = {field_key(label): "" for label, _ in extras}
    kids += [
        field("Email", "email", "email", req=True),
        field("Password", "password", "password", req=True, min=8),
    ]
    state.update(email="", password="")
    said = [label.lower() for label, _ in extras] + ["email", "password"]
    details += [f"fields for {listing(said)}", "a password of at least 8 characters"]
    return kids, state


def auth(rng: Random) -> Screen:
    """Sign-in, sign-up and reset forms whose fields, buttons and links come from wide pools
    (builder_vocab.py), named in the details."""
    brand = pick(rng, BRANDS)
    mode = pick(rng, ("login", "login", "signup", "reset"))
    details: list[str] = []
    kids: list[Node]
    state: dict[str, object]
    if mode == "reset":
        kids, state = [field("Email", "email", "email", req=True)], {"email": ""}
        title, done, submit = (
            "Reset password",
            "Check your email for a reset link.",
            "Send reset link",
        )
        subjects = [f"a password reset form for {brand}", f"{brand} forgot-password page"]
        details.append("an email field")
    elif mode == "signup":
        kids, state = _signup_fields(rng, details)
        title, done, submit = "Create your account", "Welcome aboard!", pick(rng, SIGNUP_LABELS)
        subjects = [f"a sign up form for {brand}", f"{brand} registration page"]
        if rng.random() < 0.6:
            kids.append(node("checkbox", label="I agree to the terms", bind="terms", req=True))
            state["terms"] = False
            details.append("a terms checkbox")
    else:
        kids, state = _login_fields(rng, details)
        title, done, submit = f"Sign in to {brand}", "You are signed in.", pick(rng, LOGIN_LABELS)
        subjects = [f"a login form for {brand}", f"{brand} sign-in screen"]
        if rng.random() < 0.5:
            kids.append(node("checkbox", label="Remember me", bind="remember"))
            state["remember"] = False
            details.append("a remember me checkbox")
    details.append(f"a button saying '{submit}'")
    state["done"] = False
    form = node("form", *kids, submit=submit, on=set_("done", True))
    body = [heading(title), form, node("alert", if_="done", tone="success", text=done)]
    if mode == "login" and rng.random() < 0.5:
        link = pick(rng, HELP_LINKS)
        state["help"] = False
        body[2:2] = [
            button(link, set_("help", True), "ghost"),
            text("We sent you a link to get back in.", if_="help"),
        ]
        details.append(f"a link saying '{link}'")
    root = page(node("card", *body))
    screen = Screen("auth", subjects, details, spec(title, root, state, theme=theme_of(rng)))
    if mode == "login" and "remember" not in state:

        def add_remember(s: dict[str, object]) -> None:
            form_node = s["root"]["c"][0]["c"][1]  # type: ignore[index]
            form_node["c"].append(node("checkbox", label="Remember me", bind="remember"))
            s["state"]["remember"] = False  # type: ignore[index]

        screen.refinements.append(
            Refinement(
                ("add a remember me checkbox", "add 'remember me'"),
                edited(screen.spec, add_remember),
            )
        )
    return screen


def checkout(rng: Random) -> Screen:
    """A cart's goods, the buyer's fields, shipping and payment options and the button from wide
    pools (builder_vocab.py), named in the details."""
    brand = pick(rng, BRANDS)
    shop, stock = pick(rng, SHOPS)
    items = sample(rng, stock, rng.randint(1, 3))
    total = sum(p for _, p in items)
    chosen = sorted(sample(rng, ADDRESS_FIELDS, rng.randint(2, 4)), key=ADDRESS_FIELDS.index)
    kids: list[Node] = [_contact(rng, label, kind) for label, kind in chosen]
    state: dict[str, object] = {field_key(label): "" for label, _ in chosen}
    said = [label.lower() for label, _ in chosen]
    if rng.random() < 0.7:
        ways = sample(rng, SHIPPING, rng.randint(2, 3))
        kids.append(
            node(pick(rng, ("select", "radio")), label="Shipping", bind="shipping", opts=ways)
        )
        state["shipping"] = ways[0]
        said.append(f"shipping ({' or '.join(ways)})")
    if rng.random() < 0.7:
        ways = sample(rng, PAYMENTS, rng.randint(2, 3))
        kids.append(node("radio", label="Payment", bind="payment", opts=ways))
        state["payment"] = ways[0]
        said.append(f"payment by {' or '.join(ways)}")
    submit = pick(rng, PAY_LABELS).format(total=f"${total}")
    state["placed"] = False
    form = node("form", *kids, submit=submit, on=set_("placed", True))
    summary = node(
        "card",
        *(text(f"{n}: ${p}") for n, p in items),
        node("divider"),
        heading(f"Total: ${total}", 3),
        title="Order summary",
    )
    named = [field_key(label) for label, _ in chosen if "name" in label.lower()]
    thanks = f"Order placed. Thank you, {{{named[0]}}}!" if named else "Order placed. Thank you!"
    root = page(
        heading("Checkout"),
        node("row", form, summary),
        node("alert", if_="placed", tone="success", text=thanks),
    )
    subjects = [
        f"a checkout page for {brand}",
        f"a checkout form for a {shop}",
        f"{brand} checkout with order summary",
    ]
    details = [
        f"fields for {listing(said)}",
        f"an order summary of {listing([f'{n} ${p}' for n, p in items])} with the total",
        f"a button saying '{submit}'",
    ]
    return Screen(
        "checkout", subjects, details, spec(f"{brand} checkout", root, state, theme=theme_of(rng))
    )


def _slots(rng: Random) -> list[str]:
    """3 to 6 hourly times from a start between 07:00 and 18:00. Hourly: a row of half-hourly
    times reads like the dev set's run of five words ("18:00 18:30 19:00"), which the overlap
    test rightly refuses."""
    start = rng.randint(14, 36)  # in half hours
    return [
        f"{h // 2:02d}:{30 * (h % 2):02d}" for h in range(start, start + 2 * rng.randint(3, 6), 2)
    ]


def _contact(rng: Random, label: str, kind: str) -> Node:
    req = None if kind == "textarea" else rng.random() < 0.5 or None
    return labelled_input(label, field_key(label), kind, req)


def booking(rng: Random) -> Screen:
    """A venue's booking form from wide pools (builder_vocab.py): what is picked, the time slots,
    a party size, the contact fields and the button differ from screen to screen, and the
    details name them."""
    place, thing, picker, options = pick(rng, VENUES)
    kids: list[Node] = []
    state: dict[str, object] = {}
    details: list[str] = []
    if rng.random() < 0.7:
        chosen = sample(rng, options, rng.randint(2, len(options)))
        kind = pick(rng, ("select", "radio"))
        kids.append(node(kind, label=picker, bind="choice", opts=chosen))
        state["choice"] = chosen[0]
        said = "dropdown" if kind == "select" else "choice"
        article = "an" if picker[0] in "AEIOU" else "a"
        details.append(f"{article} {picker.lower()} {said} ({', '.join(chosen)})")
    if rng.random() < 0.7:
        kids.append(field("Date", "date", "date", req=True))
        state["date"] = ""
        details.append("a date")
    slots = _slots(rng)
    kids.append(node(pick(rng, ("select", "radio")), label="Time", bind="time", opts=slots))
    state["time"] = slots[0]
    details.append(f"time slots {' '.join(slots)}")
    if rng.random() < 0.6:
        party, most = pick(rng, PARTY_LABELS), rng.randint(4, 12)
        if rng.random() < 0.5:
            kids.append(node("slider", label=party, bind="party", min=1, max=most))
        else:
            kids.append(field(party, "party", "number", min=1, max=most))
        state["party"] = 2
        details.append(f"{party.lower()} from 1 to {most}")
    contacts = sample(rng, CONTACT_FIELDS, rng.randint(1, 3))
    for label, kind in contacts:
        kids.append(_contact(rng, label, kind))
        state[field_key(label)] = ""
    details.append(f"{listing([label.lower() for label, _ in contacts])} fields")
    submit = pick(rng, BOOK_LABELS)
    details.append(f"a button saying '{submit}'")
    named = [field_key(label) for label, _ in contacts if "name" in label.lower()]
    done = f"Thanks {{{named[0]}}}, you're booked for {{time}}." if named else "Booked for {time}."
    state["booked"] = False
    root = page(
        heading(f"Book {thing} at the {place}"),
        node("card", node("form", *kids, submit=submit, on=set_("booked", True))),
        node("alert", if_="booked", tone="success", text=done),
    )
    subjects = [
        f"a booking form for a {place}",
        f"{place} reservation screen",
        f"a form to book {thing} at a {place}",
    ]
    return Screen(
        "booking",
        subjects,
        details,
        spec(f"{place.capitalize()} booking", root, state, theme=theme_of(rng)),
    )
