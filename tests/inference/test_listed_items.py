"""The lists a request names (inference/serving/listed_items.py): found in the phrasings the dev
set uses, read as the words that tell their items apart, and none where a request lists nothing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inference.serving.listed_items import MAX_LISTS, Listed, listed_items


def said(lists: list[list[Listed]]) -> list[list[str]]:
    return [[item for item, _, _ in items] for items in lists]


def test_a_list_after_a_lead_in_is_read_from_its_last_preposition() -> None:
    assert listed_items(
        "Marketing dashboard: KPI tiles for visitors, signups, conversion rate and bounce rate, "
        "plus a line chart of daily visitors"
    ) == [
        [
            ("visitors", ["visitors"], ""),
            ("signups", ["signups"], ""),
            ("conversion rate", ["conversion"], ""),
            ("bounce rate", ["bounce"], ""),
        ]
    ]


def test_slashes_and_parentheses_make_lists_of_their_own() -> None:
    assert said(listed_items("sprint board, To do / Doing / Done")) == [
        ["sprint board", "To do", "Doing", "Done"]
    ]
    assert ["Design", "Engineering", "Sales"] in said(
        listed_items(
            "people directory: search by name and department filter (Design, Engineering, Sales)"
        )
    )


def test_words_that_name_a_component_or_a_count_tell_no_item_apart() -> None:
    assert listed_items("Job board: keyword, location, remote only switch, Phone screen") == [
        [
            ("keyword", ["keyword"], ""),
            ("location", ["location"], ""),
            ("remote", ["remote"], "switch"),
            ("Phone screen", ["phone"], ""),
        ]
    ]


def test_a_component_word_that_is_part_of_a_name_stays_in_it() -> None:
    # "card number" was read "number", and "name on card" "name on": a label spelled from them
    # said neither.
    assert said(listed_items("payment: card number, expiry, CVC, name on card, Pay button")) == [
        ["card number", "expiry", "CVC", "name on card", "Pay"]
    ]
    assert said(listed_items("tabs Overview, Billing, Team")) == [["Overview", "Billing", "Team"]]
    assert said(listed_items("health: CPU, memory, disk, list of the latest alerts")) == [
        ["CPU", "memory", "disk", "latest alerts"]
    ]


def test_leading_items_of_filler_alone_are_let_go() -> None:
    assert said(listed_items("compose window: To, Cc, Subject, body, Send")) == [
        ["Cc", "Subject", "body", "Send"]
    ]
    assert said(listed_items("with \u2713 and \u2717 marks for SSO, audit log, API access")) == [
        ["SSO", "audit log", "API access"]
    ]


def test_a_decimal_point_a_clock_or_a_range_does_not_cut_a_list() -> None:
    assert said(listed_items("order total $31.50, tip 10%, 15%, 20%")) == [
        ["order total $31.50", "tip 10%", "15%", "20%"]
    ]
    assert said(listed_items("survey: rating 1\u20135, cleanliness, staff")) == [
        ["rating 1\u20135", "cleanliness", "staff"]
    ]


def test_short_lists_long_phrases_and_plain_sentences_are_no_lists() -> None:
    assert listed_items("magic-link login: only an email box and a link button") == []
    assert listed_items("Starter vs Scale") == []
    assert (
        listed_items(
            "a red Delete account button that opens a confirmation asking to type DELETE, "
            "with Cancel and Delete forever buttons"
        )
        == []
    )


def test_a_list_ends_before_its_first_long_item() -> None:
    assert listed_items(
        "Contacts: name, phone, city, saved contacts appear right below the form"
    ) == [[("name", ["name"], ""), ("phone", ["phone"], ""), ("city", ["city"], "")]]


@given(st.text(max_size=3_000))
def test_any_message_gives_a_bounded_number_of_lists_of_words(message: str) -> None:
    lists = listed_items(message)
    assert len(lists) <= MAX_LISTS
    assert all(len(items) >= 3 and all(words for _, words, _ in items) for items in lists)
