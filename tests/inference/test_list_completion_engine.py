"""A head's list goes on to the items the request named (inference/serving/list_completion.py),
and it draws the buttons (button_completion.py) and text fields (field_completion.py) the request
names, on the real engine as served. The prompts are new ones. Without the list rule the expert
drew two tiles of the newsletter's four and two of the countdown's three; without the button rule
it drew neither named button; without the field rule the clinic's form had no symptoms field, and
a counter of symptoms stood beside it, the recipe list no sort select, the plant app no plant
select and the pet clinic no pet select; and without the identifier rule the kiosk's member
number was a number (checked), and without the cards rule the study group's members were one
field labelled "Noor", and without the named-texts rule the restaurant's and the artist's names
were nowhere (checked)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from inference.serving.engine import VllmEngine
from inference.serving.prompts import request_for
from inference.settings import EngineSettings
from ui4a.validate import validate

pytestmark = pytest.mark.engine

LISTED_TILES = {
    "newsletter dashboard: subscribers, open rate, click rate, unsubscribes, plus a line chart "
    "of new subscribers per week": {"subscribers", "open rate", "click rate", "unsubscribes"},
    "a countdown to the conference showing days, hours, minutes and seconds": {
        "hours",
        "minutes",
        "seconds",
    },
}
NAMED_BUTTONS = {
    "a library desk: a table of loans with book, member and due date, a search box, plus a "
    "Renew all button": "renew all",
    "team roster table with name, role and email, plus an Invite member button": "invite member",
}
NAMED_FIELDS = {
    "clinic check-in: patient name, date of birth, and a symptoms textarea, plus a Check in "
    "button": "symptoms",
    # A select named by what it sorts, or by what is chosen from the options in parentheses.
    "a recipe list with cards for eight recipes, sort by cooking time": "sort by",
    "a plant care app: choose your plant (Fern, Cactus, Orchid) and see its watering schedule": (
        "plant"
    ),
}
# A select's options the request gives, spelled as it says them (field_options.py).
NAMED_OPTIONS = {
    "a pet clinic form: choose your pet (Dog, Cat, Parrot), owner name, and Submit": (
        "pet",
        ["Dog", "Cat", "Parrot"],
    ),
}
# A list the head shows none of, drawn as cards titled with its items (list_cards.py).
CARD_LISTS = {
    "a study group page with the members (Noor, Tariq, Ines, Bo) and a shared notes box": {
        "noor",
        "tariq",
        "ines",
        "bo",
    },
}
# A name the request gives and the head leaves out, shown as a text (named_texts.py).
NAMED_TEXTS = {
    "a booking page for dinner at Olive Garden Terrace: party size, date and a Reserve button": (
        "olive garden terrace"
    ),
    "a profile card for a ceramic artist named Lena Brandt with a Follow button": "lena brandt",
    # A value the request gives (named_values.py).
    "product page for a espresso grinder, $249, with a 4.8 rating and an Add to cart button": (
        "4.8 rating"
    ),
}
# Fields listed bare by what they ask for (asked_fields.py), which the model left out.
ASKED_FIELDS = {
    "Reserve a court at Riverside Tennis Club: court 1 to 6, time slots 9:00 10:00 11:00, name "
    "and phone, Reserve button": "phone",
    "Sign-in for Northwind Library members: card number, PIN, and a Forgot PIN link": "card number",
}
# A button said for each item of a list the head shows none of (item_buttons.py).
ITEM_BUTTONS = {
    "a bakery shop: Sourdough $6, Rye loaf $5, Baguette $3 \u2014 each with an Order button": (
        "Order",
        {"sourdough $6", "rye loaf $5", "baguette $3"},
    ),
}
# A question's choices, which the model drew as a select (choice_kind.py).
CHOICES = {
    'A trivia question: "Which planet is largest?" with options Mars, Jupiter, Venus, Saturn': {
        "Mars",
        "Jupiter",
        "Venus",
        "Saturn",
    },
}
# A question's listed choices, which the model showed only as the question's text: drawn as
# one group of radios labelled with it (list_cards.py).
QUESTION_CHOICES = {
    'A poll for the book club: "Which book should we read next?" with Dune, Emma, Ulysses': (
        "Which book should we read next?",
        {"Dune", "Emma", "Ulysses"},
    ),
}
# An email's header field, which the model left out (asked_fields.py).
HEADER_FIELDS = {"Email compose screen: To, Cc, Subject, message and a Send button": "to"}
# An identifier the model made a number (a spinbutton) without identifier_kind.py.
IDENTIFIERS = {"gym check-in kiosk: member number field and a Check in button": "member number"}


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    engine = VllmEngine(EngineSettings.from_env())
    settings = engine.settings
    assert settings.list_hold and settings.button_hold and settings.field_hold
    assert settings.identifier_text and settings.list_cards and settings.named_texts
    assert settings.choice_radios
    yield engine
    engine.shutdown()


def decoded(engine: VllmEngine, prompt: str) -> dict[str, Any]:
    """The expert's greedy spec for `prompt`, which ended on its own and is valid."""
    request = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700)
    deltas = list(engine.stream(request))
    assert deltas[-1].finish_reason == "stop"
    spec: dict[str, Any] = json.loads("".join(d.text for d in deltas))
    assert validate(spec) == [], spec
    return spec


def nodes(node: Any, component: str) -> Iterator[dict[str, Any]]:
    """Every `component` node in a spec's tree."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("t") == component:
                yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def shown(node: Any, component: str, key: str) -> set[str]:
    """The `key` strings of every `component` node in a spec's tree, lower case."""
    return {str(found.get(key, "")).lower() for found in nodes(node, component)}


def held(name: str, strings: set[str]) -> bool:
    """Whether one of `strings` holds `name`."""
    return any(name in string for string in strings)


@pytest.mark.parametrize("prompt", list(LISTED_TILES))
def test_tiles_go_on_to_every_kpi_the_request_lists(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    assert LISTED_TILES[prompt] <= shown(spec["root"], "stat", "label"), spec


@pytest.mark.parametrize("prompt", list(NAMED_BUTTONS))
def test_a_button_the_request_names_is_drawn(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    labels = shown(spec["root"], "button", "label") | shown(spec["root"], "form", "submit")
    assert held(NAMED_BUTTONS[prompt], labels), spec


@pytest.mark.parametrize("prompt", list(NAMED_FIELDS) + list(ASKED_FIELDS))
def test_a_field_the_request_names_is_drawn(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    labels = set().union(
        *(shown(spec["root"], t, "label") for t in ("textarea", "input", "select"))
    )
    assert held({**NAMED_FIELDS, **ASKED_FIELDS}[prompt], labels), spec


@pytest.mark.parametrize("prompt", list(NAMED_OPTIONS))
def test_a_selects_options_are_the_requests(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    name, options = NAMED_OPTIONS[prompt]
    named = [n for n in nodes(spec["root"], "select") if name in n["label"].lower()]
    assert named and all(o in named[0]["opts"] for o in options), spec


@pytest.mark.parametrize("prompt", list(IDENTIFIERS))
def test_an_identifier_field_takes_text(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    named = [n for n in nodes(spec["root"], "input") if IDENTIFIERS[prompt] in n["label"].lower()]
    kinds = [n.get("kind", "text") for n in named]
    assert kinds and "number" not in kinds, spec


@pytest.mark.parametrize("prompt", list(CARD_LISTS))
def test_a_list_the_head_shows_none_of_is_drawn_as_cards(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    assert CARD_LISTS[prompt] <= shown(spec["root"], "card", "title"), spec


@pytest.mark.parametrize("prompt", list(NAMED_TEXTS))
def test_a_name_the_head_leaves_out_is_shown(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    assert held(NAMED_TEXTS[prompt], shown(spec["root"], "text", "text")), spec


@pytest.mark.parametrize("prompt", list(ITEM_BUTTONS))
def test_each_card_carries_the_button_said_for_each_item(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    label, items = ITEM_BUTTONS[prompt]
    cards = [c for c in nodes(spec["root"], "card") if str(c.get("title", "")).lower() in items]
    assert len(cards) == len(items), spec
    for card in cards:
        buttons = [b for b in card["c"] if b["t"] == "button" and b["label"] == label]
        badges = [b for b in card["c"] if b["t"] == "badge" and b.get("if")]
        assert buttons and badges, card
        # No card starts out pressed.
        assert not any(spec["state"].get(badge["if"]) for badge in badges), spec


@pytest.mark.parametrize("prompt", list(CHOICES))
def test_a_questions_choices_are_radios(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    radios = [r for r in nodes(spec["root"], "radio") if CHOICES[prompt] <= set(r["opts"])]
    assert radios and not list(nodes(spec["root"], "select")), spec


@pytest.mark.parametrize("prompt", list(QUESTION_CHOICES))
def test_a_questions_listed_choices_are_one_group_of_radios(
    engine: VllmEngine, prompt: str
) -> None:
    spec = decoded(engine, prompt)
    question, choices = QUESTION_CHOICES[prompt]
    radios = [r for r in nodes(spec["root"], "radio") if r["label"] == question]
    assert radios and choices <= set(radios[0]["opts"]), spec
    assert spec["state"][radios[0]["bind"]] == "", spec  # nothing is chosen yet


@pytest.mark.parametrize("prompt", list(HEADER_FIELDS))
def test_an_emails_header_field_is_drawn(engine: VllmEngine, prompt: str) -> None:
    spec = decoded(engine, prompt)
    assert HEADER_FIELDS[prompt] in shown(spec["root"], "input", "label"), spec
