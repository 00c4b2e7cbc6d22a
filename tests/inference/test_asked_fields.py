"""The fields a request lists by what they ask for (inference/serving/asked_fields.py): two or
more bare names in a clause whose head word a form asks for; none that a table, a card or a
list shows, and none said alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.asked_fields import asked_fields
from inference.serving.named_fields import named_fields

ASKED = {
    'Sign-in box for a credit union: member number, PIN, and a link for "Forgot PIN?"': [
        ("member number", "input"),
        ("PIN", "input"),
    ],
    "Book a table at Casa Verde: party size, time slots, name and phone, Reserve button": [
        ("name", "input"),
        ("phone", "input"),
    ],
    "payment step: card number, expiry, CVC, name on card, pay button": [
        ("card number", "input"),
        ("expiry", "input"),
        ("CVC", "input"),
        ("name on card", "input"),
    ],
    "Sign up for a chess club. Needs a handle, an email, a password, and a skill level": [
        ("handle", "input"),
        ("email", "input"),
        ("password", "input"),
    ],
    # A numbered step's number cuts as a comma does; a long answer is a textarea.
    "Onboarding in three steps: 1) your name, 2) monthly income, 3) savings goal": [
        ("name", "input"),
        ("monthly income", "input"),
    ],
    "contact us: email, phone and notes, then Send": [
        ("email", "input"),
        ("phone", "input"),
        ("notes", "textarea"),
    ],
    # An email's header fields, capitalised.
    "Mail client, compose window only: To, Cc, Subject, body, Send and Discard": [
        ("To", "input"),
        ("Cc", "input"),
        ("Subject", "input"),
    ],
}

NOT_ASKED = [
    # A table's columns, a card's lines, a list's rows: what the screen shows.
    "a contacts table (name, email, phone) with a search box",
    "Manage suppliers: table with Name, Contact, Phone, City columns",
    "team member card: Priya Raman, Staff Engineer, email and Slack handle shown",
    "an inbox listing emails, each with sender, subject and preview",
    # One name alone is as often shown as asked for ("a tracking number").
    "Track order #58213: carrier DHL and a tracking number",
    # Words a screen shows as often as it asks for them are no field's head.
    "Invoice for Bright Bakery: subtotal, VAT 20%, total, due date",
    # A lower-case "to" or "from" is a preposition.
    "a transfer form: from, to, and an email",
]


@pytest.mark.parametrize("message", list(ASKED))
def test_a_bare_list_of_what_a_form_asks_for_is_read(message: str) -> None:
    assert asked_fields(message) == ASKED[message]


@pytest.mark.parametrize("message", NOT_ASKED)
def test_what_a_screen_shows_or_a_lone_name_is_not_read(message: str) -> None:
    assert asked_fields(message) == []


def test_the_named_fields_take_them_after_those_read_by_their_cue() -> None:
    message = "Job board search: keyword, location, remote only switch, and job listings"
    assert named_fields(message) == [
        ("remote only", "switch"),
        ("keyword", "input"),
        ("location", "input"),
    ]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab ,:()1)name email", max_size=4_000))
def test_any_message_is_read_within_its_bound(message: str) -> None:
    fields = asked_fields(message)
    assert all(name in message[:2_000] for name, _ in fields)
    assert all(len(name.split()) <= 3 for name, _ in fields)
