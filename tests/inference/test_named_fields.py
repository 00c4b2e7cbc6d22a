"""The fields a request names (inference/serving/named_fields.py): before a cue word, as quoted,
or listed after "a form with" or "enter"; each as the component its cue names; none drawn on
each item of a list, none that is a panel or a field's kind, and none where the cue is a verb."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.named_fields import MAX_FIELDS, named_fields

TAGS = ("input", "textarea", "select", "switch", "checkbox", "slider")

NAMED = {
    "a help centre page with a search box and three popular articles": [("search", "input")],
    "star rating from 1 to 5 and a comments box": [("comments", "textarea")],
    "a login with an email box and a password field": [
        ("email", "input"),
        ("password", "input"),
    ],
    "a gift card field with Redeem, under the order summary": [("gift card", "input")],
    "clinic check-in: patient name, symptoms textarea, and a Submit button": [
        ("symptoms", "textarea")
    ],
    'a feedback widget with a text box "Tell us more" and Send': [("Tell us more", "input")],
    "a newsletter form with first name and email": [("first name", "input"), ("email", "input")],
    "lost card report: enter card number and last known place, then Report": [
        ("card number", "input"),
        ("last known place", "input"),
    ],
    "a contact us form with subject and message fields": [
        ("subject", "input"),
        ("message", "input"),
    ],
    "reason for return textarea, refund method select": [
        ("reason for return", "textarea"),
        ("refund method", "select"),
    ],
    "a stereo panel: bass slider, loudness toggle, and a region filter (North, South)": [
        ("bass", "slider"),
        ("loudness", "switch"),
        ("region", "select"),
    ],
    'job alerts: a keyword field, a remote only switch and a "Remember me" checkbox': [
        ("keyword", "input"),
        ("remote only", "switch"),
        ("Remember me", "checkbox"),
    ],
    "a team page with a timezone dropdown": [("timezone", "select")],
    # A select named by what it filters or sorts by, or by the question it asks.
    "support inbox: tickets with priority (Low, Urgent) and a filter by priority": [
        ("priority", "select")
    ],
    "a leaderboard where you can filter by track and see team and points": [("track", "select")],
    "a wine catalog with sort by price and cards for six wines": [("Sort by", "select")],
    "a signup with a dropdown asking how they heard about us with Instagram, A friend": [
        ("how they heard about us", "select")
    ],
    # A select of what is chosen, where its options follow in parentheses.
    "a thermostat wizard: choose your room (Living room, Bedroom, Office), then a schedule": [
        ("room", "select")
    ],
    "a trip planner: step 2 picks a hotel class (Budget/Comfort/Luxury)": [
        ("hotel class", "select")
    ],
    # One field, said twice: "Filter by status" holds "status".
    "blog posts with a status column. Filter by status dropdown": [("status", "select")],
}
NONE_NAMED = [
    # Drawn on each item of a list: the list's template, not a field to add once.
    "a shopping list, each item with a quantity field",
    "a notes field per task on the board",
    # A refinement that takes a field away names none to add.
    "remove the search box",
    # A panel, another control, or a field's kind, not a text field's name.
    "a sign-in box for a library's members",
    "a check box for the terms",
    "guess the number: a number input and a Guess button",
    # A cue that is a verb, or a picker of a kind.
    "select a plan and pay",
    "toggle between light and dark",
    "tapping play should switch it to pause",
    "a date picker for the trip",
    # One phrase after "enter" is a sentence, not a form's list.
    "press enter to send",
    # A choice with no options to choose from, or one.
    "choose a plan and pay",
    "pick a colour (red) for the banner",
    # A key too long to be a label, and a question that is a sentence.
    "filter by the date the customer last placed an order",
    "a dropdown asking the user which of the many regional offices they would like to visit",
    "a sales dashboard with revenue KPIs, a monthly revenue chart and a customers table",
]


@pytest.mark.parametrize("message", list(NAMED))
def test_the_text_fields_a_request_names(message: str) -> None:
    assert named_fields(message) == NAMED[message]


@pytest.mark.parametrize("message", NONE_NAMED)
def test_no_field_named_where_it_is_a_lists_a_panel_a_kind_or_a_verb(message: str) -> None:
    assert named_fields(message) == []


def test_a_field_named_twice_is_kept_once() -> None:
    assert named_fields("a search box at the top and a Search field in the menu") == [
        ("search", "input")
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["a", "Notes", "box", "fields", "switch", "it", "form with", "enter", '"', ",", "and"]
        ),
        max_size=300,
    )
)
def test_any_message_names_a_bounded_count_of_short_fields(words: list[str]) -> None:
    fields = named_fields(" ".join(words))
    assert len(fields) <= MAX_FIELDS
    assert all(0 < len(name) <= 40 and tag in TAGS for name, tag in fields)
