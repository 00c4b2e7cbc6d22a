"""The buttons a request names (inference/serving/named_buttons.py): one or two named at a time,
in the request's words, and none drawn on each item of a list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.named_buttons import MAX_BUTTONS, named_buttons

NAMED = {
    "Manage suppliers: a table, a search box, plus an Add supplier button that opens a dialog": [
        "Add supplier"
    ],
    "staff login for the warehouse scanners, badge ID and password only, big Enter button": [
        "Enter"
    ],
    "Danger zone: a red Delete account button that opens a confirmation": ["Delete account"],
    "Pomodoro timer showing 25:00, Start and Reset buttons, and a count of sessions": [
        "Start",
        "Reset",
    ],
    "File browser: a table of files, and buttons for New folder and Upload": [
        "New folder",
        "Upload",
    ],
    'Fields: first name, email. Button says "Count me in".': ["Count me in"],
    'Sign-in box: member number, PIN, and a link-style button for "Forgot PIN?"': ["Forgot PIN?"],
    'A "Mark all as read" button that makes the unread counter show 0.': ["Mark all as read"],
    "payment step: card number, expiry, pay $64.20 button": ["pay $64.20"],
    "A tea listing where clicking a tea's Details button opens a dialog": ["Details"],
    "laptops with a checkbox per model (5 models) and a Compare selected button": [
        "Compare selected"
    ],
    "Queue view: four songs, each with a Remove button, and a Clear queue button": ["Clear queue"],
    "novels to read: type a book's title, press Add book, and it shows up in the list": [
        "Add book"
    ],
    "grocery list: type an item, press Add, it shows; each item has a Delete button": ["Add"],
    "a settings page; click Save to keep your changes": ["Save"],
}
NONE_NAMED = [
    # Drawn on each item of a list: the list's template, not a button to add once.
    "A trash folder: deleted files, a Restore button per file, and Empty trash",
    "Yoga schedule where each class (Morning flow, Power hour) has a Book spot button",
    "Shop grid: Monstera $38, Pothos $15, each with an image and an Add to basket button",
    "Archive and delete buttons on each email in a small inbox",
    # A kind of button, not a name; a button with no name.
    "donation checkout: amount buttons $10 $25 $50",
    "Today's schedule, with 4 meetings. A button to jump to tomorrow.",
    "plus buttons to increase or decrease stock",
    "clicking a tea opens a dialog",
    # A refinement that takes a button away names none to add.
    "Remove the Cancel button",
    "rename the Save button to Submit",
    "the same form with no Back button",
    "a sales dashboard with revenue KPIs, a monthly revenue chart and a customers table",
]


@pytest.mark.parametrize("message", list(NAMED))
def test_the_buttons_a_request_names(message: str) -> None:
    assert [name for name, _ in named_buttons(message)] == NAMED[message]


@pytest.mark.parametrize("message", NONE_NAMED)
def test_no_button_named_where_it_is_a_lists_or_has_no_name(message: str) -> None:
    assert named_buttons(message) == []


def test_a_button_named_twice_is_kept_once() -> None:
    message = "a Save button at the top, and a Save button at the bottom"
    assert named_buttons(message) == [("Save", True)]


def test_a_button_that_opens_or_shows_something_submits_no_form() -> None:
    message = "a Details button opens a dialog; a Reveal button shows the answer; a Go button"
    assert named_buttons(message) == [("Details", False), ("Reveal", False), ("Go", True)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "Save", "button", "buttons", '"', ",", "and", "each", "("]),
        max_size=300,
    )
)
def test_any_message_names_a_bounded_count_of_short_names(words: list[str]) -> None:
    names = named_buttons(" ".join(words))
    assert len(names) <= MAX_BUTTONS
    assert all(0 < len(name) <= 40 for name, _ in names)
