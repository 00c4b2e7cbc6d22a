"""Form-shaped screens: auth, settings, profile, checkout, wizard, booking."""

from __future__ import annotations

from random import Random

from inference.offline.datasets.common import pick, sample
from inference.offline.datasets.nodes import (
    button,
    field,
    heading,
    node,
    page,
    set_,
    spec,
    text,
    toggle,
)
from inference.offline.datasets.screen import BRANDS, PEOPLE, Refinement, Screen, edited, theme_of


def auth(rng: Random) -> Screen:
    brand = pick(rng, BRANDS)
    mode = pick(rng, ("login", "signup", "reset"))
    state: dict[str, object] = {"email": ""}
    details = []
    if mode == "reset":
        kids = [field("Email", "email", "email", req=True)]
        title, done = "Reset password", "Check your inbox for a reset link."
        subjects = [f"a password reset form for {brand}", f"{brand} forgot-password page"]
        details.append("an email field")
    else:
        kids = []
        if mode == "signup" and rng.random() < 0.6:
            kids.append(field("Full name", "name", req=True))
            state["name"] = ""
            details.append("a name field")
        kids += [
            field("Email", "email", "email", req=True),
            field("Password", "password", "password", req=True, min=8),
        ]
        state["password"] = ""
        details += ["email and password fields", "a password of at least 8 characters"]
        if mode == "signup":
            title, done = "Create your account", "Welcome aboard!"
            subjects = [f"a sign up form for {brand}", f"{brand} registration page"]
            if rng.random() < 0.6:
                kids.append(node("checkbox", label="I agree to the terms", bind="terms", req=True))
                state["terms"] = False
                details.append("a terms checkbox")
        else:
            title, done = f"Sign in to {brand}", "You are signed in."
            subjects = [f"a login form for {brand}", f"{brand} sign-in screen"]
            if rng.random() < 0.6:
                kids.append(node("checkbox", label="Remember me", bind="remember"))
                state["remember"] = False
                details.append("a remember me checkbox")
    submit = {"reset": "Send reset link", "signup": "Sign up", "login": "Sign in"}[mode]
    form = node("form", *kids, submit=submit, on=set_("done", True))
    state["done"] = False
    body = [heading(title), form, node("alert", if_="done", tone="success", text=done)]
    if mode == "login" and rng.random() < 0.5:
        body.insert(2, button("Continue with Google", kind="secondary"))
        details.append("a Google sign-in button")
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


SETTINGS = {
    "Email notifications": "email_notes",
    "Push notifications": "push_notes",
    "Weekly digest": "digest",
    "Two-factor authentication": "two_factor",
    "Public profile": "public",
    "Auto-play videos": "autoplay",
    "Show online status": "online",
    "Beta features": "beta",
}


def settings(rng: Random) -> Screen:
    brand = pick(rng, BRANDS)
    chosen = sample(rng, list(SETTINGS), rng.randint(2, 5))
    state: dict[str, object] = {SETTINGS[s]: rng.random() < 0.5 for s in chosen}
    kids = [node("switch", label=s, bind=SETTINGS[s]) for s in chosen]
    details = [f"a toggle for {s.lower()}" for s in chosen]
    if rng.random() < 0.6:
        langs = sample(rng, ["English", "French", "German", "Spanish", "Japanese", "Dutch"], 4)
        kids.append(node("select", label="Language", bind="language", opts=langs))
        state["language"] = langs[0]
        details.append("a language picker")
    kids.append(button("Save changes", set_("saved", True)))
    state["saved"] = False
    section = node("card", *kids, title="Preferences")
    root = page(heading("Settings"), section, text("Settings saved.", if_="saved"))
    subjects = [f"a settings page for {brand}", "an account settings screen", "preferences panel"]
    screen = Screen(
        "settings", subjects, details, spec(f"{brand} settings", root, state, theme=theme_of(rng))
    )
    extra = next((s for s in SETTINGS if s not in chosen), None)
    if extra is not None:

        def add_switch(s: dict[str, object]) -> None:
            card = s["root"]["c"][1]  # type: ignore[index]
            card["c"].insert(len(chosen), node("switch", label=extra, bind=SETTINGS[extra]))
            s["state"][SETTINGS[extra]] = False  # type: ignore[index]

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
    person = pick(rng, PEOPLE)
    first = person.split()[0]
    role = pick(rng, ("Engineer", "Designer", "Product manager", "Data scientist", "Founder"))
    stats = sample(
        rng,
        [("Followers", "1.2k"), ("Projects", "18"), ("Stars", "342"), ("Posts", "57")],
        rng.randint(2, 3),
    )
    state: dict[str, object] = {"name": person, "bio": "", "editing": False, "following": False}
    avatar = f"https://example.com/avatars/{first.lower()}.png"
    header = node(
        "row",
        node("image", src=avatar, alt=f"{person}'s avatar"),
        node("stack", heading("{name}", 2), node("badge", text=role, tone="info")),
    )
    stat_row = node("grid", *(node("stat", label=k, value=v) for k, v in stats), cols=len(stats))
    actions = node(
        "row",
        button("Follow", toggle("following")),
        button("Edit profile", {"do": "open", "path": "editing"}, "secondary"),
    )
    dialog = node(
        "dialog",
        field("Name", "name", req=True),
        node("textarea", label="Bio", bind="bio", max=160),
        button("Save", {"do": "close", "path": "editing"}),
        title="Edit profile",
        bind="editing",
    )
    root = page(
        node("card", header, stat_row, actions), text("You follow {name}.", if_="following"), dialog
    )
    subjects = [
        f"a profile page for {person}",
        f"user profile card for {'an' if role[0] in 'AEIOU' else 'a'} {role.lower()}",
        "a social profile screen",
    ]
    details = ["an avatar", "a follow button", "an edit dialog"] + [
        f"a {k.lower()} count" for k, _ in stats
    ]
    return Screen(
        "profile", subjects, details, spec(f"{first}'s profile", root, state, theme=theme_of(rng))
    )


def checkout(rng: Random) -> Screen:
    brand = pick(rng, BRANDS)
    items = sample(
        rng,
        [("Coffee beans", 14), ("Mug", 9), ("Grinder", 49), ("Filter papers", 4), ("Kettle", 35)],
        3,
    )
    total = sum(p for _, p in items)
    state: dict[str, object] = {
        "name": "",
        "address": "",
        "city": "",
        "shipping": "Standard",
        "payment": "Card",
        "placed": False,
    }
    form = node(
        "form",
        field("Full name", "name", req=True),
        field("Address", "address", req=True),
        field("City", "city", req=True),
        node("select", label="Shipping", bind="shipping", opts=["Standard", "Express", "Pickup"]),
        node("radio", label="Payment", bind="payment", opts=["Card", "PayPal", "Invoice"]),
        submit="Place order",
        on=set_("placed", True),
    )
    summary = node(
        "card",
        *(text(f"{n}: ${p}") for n, p in items),
        node("divider"),
        heading(f"Total: ${total}", 3),
        title="Order summary",
    )
    layout = node("row", form, summary)
    root = page(
        heading("Checkout"),
        layout,
        node("alert", if_="placed", tone="success", text="Order placed. Thank you, {name}!"),
    )
    subjects = [
        f"a checkout page for {brand}",
        "a checkout form",
        f"{brand} checkout with order summary",
    ]
    details = [
        "shipping address fields",
        "a shipping method select",
        "payment options",
        "an order summary",
    ]
    return Screen(
        "checkout", subjects, details, spec(f"{brand} checkout", root, state, theme=theme_of(rng))
    )


WIZARDS = {
    "onboarding": (
        ["Your details", "Your team", "Finish"],
        [("Name", "name"), ("Team name", "team"), ("Team size", "size")],
    ),
    "job application": (
        ["Contact", "Experience", "Submit"],
        [("Email", "email"), ("Years of experience", "years"), ("Portfolio URL", "portfolio")],
    ),
    "project setup": (
        ["Basics", "Repository", "Review"],
        [("Project name", "project"), ("Repository URL", "repo"), ("Owner", "owner")],
    ),
    "event registration": (
        ["Attendee", "Sessions", "Confirm"],
        [("Name", "name"), ("Company", "company"), ("Dietary needs", "diet")],
    ),
}


def wizard(rng: Random) -> Screen:
    purpose = pick(rng, list(WIZARDS))
    steps, inputs = WIZARDS[purpose]
    state: dict[str, object] = {"step": 1, "finished": False}
    kids = [heading(purpose.capitalize()), node("progress", label="Progress", bind="step", max=3)]
    for i, (label, (flabel, key)) in enumerate(zip(steps, inputs, strict=True), start=1):
        state[key] = ""
        nav = []
        if i > 1:
            nav.append(button("Back", set_("step", i - 1), "secondary"))
        nav.append(
            button("Next", set_("step", i + 1))
            if i < 3
            else button("Finish", set_("finished", True))
        )
        kids.append(
            node(
                "card",
                field(flabel, key, req=True),
                node("row", *nav),
                if_=f"step={i}",
                title=f"Step {i}: {label}",
            )
        )
    kids.append(node("alert", if_="finished", tone="success", text="All done!"))
    subjects = [
        f"a {purpose} wizard",
        f"a three-step {purpose} flow",
        f"multi-step form for {purpose}",
    ]
    details = ["three steps", "back and next buttons", "a progress bar"]
    return Screen(
        "wizard",
        subjects,
        details,
        spec(purpose.capitalize(), page(*kids), state, theme=theme_of(rng)),
    )


def booking(rng: Random) -> Screen:
    place = pick(
        rng, ("restaurant", "hair salon", "dentist", "yoga studio", "meeting room", "tennis court")
    )
    slots = sample(rng, ["09:00", "10:30", "12:00", "13:30", "15:00", "16:30", "18:00", "19:30"], 4)
    state: dict[str, object] = {"date": "", "time": slots[0], "guests": 2, "booked": False}
    form = node(
        "form",
        field("Date", "date", "date", req=True),
        node("select", label="Time", bind="time", opts=slots),
        node("slider", label="Guests", bind="guests", min=1, max=8),
        submit="Book",
        on=set_("booked", True),
    )
    root = page(
        heading(f"Book a {place}"),
        node("card", form),
        node(
            "alert",
            if_="booked",
            tone="success",
            text="Booked for {date} at {time}, {guests} guests.",
        ),
    )
    details = ["a date picker", "time slots", "a guest count"]
    data = None
    if rng.random() < 0.5:
        rows = [
            {
                "date": f"2026-0{rng.randint(1, 9)}-{rng.randint(10, 28)}",
                "time": pick(rng, slots),
                "who": pick(rng, PEOPLE),
            }
            for _ in range(4)
        ]
        root["c"].append(
            node("table", data="bookings", title="Upcoming", cols=["date", "time", "who"])
        )
        data = {"bookings": rows}
        details.append("a table of upcoming bookings")
    subjects = [
        f"a booking form for a {place}",
        f"{place} reservation screen",
        f"calendar booking page for a {place}",
    ]
    return Screen(
        "booking",
        subjects,
        details,
        spec(f"{place.capitalize()} booking", root, state, theme=theme_of(rng), data=data),
    )
