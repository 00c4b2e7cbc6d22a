"""The values a request gives to be shown (inference/serving/named_values.py, shown by
named_texts.py): which are read, which are left to a list or an action, and when a spec shows
one already."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.named_texts import added_text, named_texts
from inference.serving.named_values import MAX_VALUES, named_values, value_shown
from inference.serving.repeat_watch import OpenArray


def values(message: str) -> list[str]:
    return named_values(message)


def test_money_identifiers_times_scores_ratings_and_measures_are_read() -> None:
    assert values("product page for headphones, $199, and a 4.6 rating") == ["$199", "4.6 rating"]
    assert values("Track order #58213: steps Ordered, Packed, Shipped") == ["#58213"]
    assert values("Pomodoro timer showing 25:00, and a count of sessions") == ["25:00"]
    assert values("trivia results screen: you scored 8/10, list of the questions") == ["8/10"]
    assert values("refund issued ($1,042.50) — first three done") == ["$1,042.50"]
    assert values("hour by hour from 8am to 6pm, with 4 meetings") == ["8am", "6pm"]
    assert values("the trial (14 days), storage of 100 GB") == ["14 days", "100 GB"]


def test_counts_lists_windows_and_what_an_action_shows_are_left_alone() -> None:
    # A count of things says how many to draw; a run of numbers is a list's options; a time
    # window is a chart's range; a value an action shows is the model's to show then.
    assert values("4 meetings, at least 5 emails, five questions") == []
    assert values("tip options 10%, 15%, 20%, custom") == []
    assert values("durations 5, 10 or 20 minutes as choices") == []
    assert values("time slots 18:00 18:30 19:00") == []
    assert values("a line chart of daily visitors for the last 7 days") == []
    assert values("amount buttons $10 $25 $50") == []
    assert values("after paying it shows $42.00") == []
    assert values("due 2026/12/15") == []


def test_a_list_drawn_as_cards_keeps_its_prices() -> None:
    message = "Shop grid: Monstera $38, Snake plant $24, Pothos $15 — each with an image"
    assert values(message) == ["$38", "$24", "$15"]
    assert named_texts(message) == []


def test_a_value_shows_as_its_number() -> None:
    assert value_shown("73%", '{"t":"progress","value":73}')
    assert value_shown("$1,200.50", '"price":1200.5')
    assert value_shown("$199", '"text":"$199.00"')
    assert not value_shown("$199", '"value":1990')
    assert not value_shown("4.6 rating", '"value":4.65')
    assert value_shown("8/10", '"text":"you scored 8 / 10"')
    assert not value_shown("8/10", '"text":"8 of 10"')
    assert not value_shown("Mira Okafor", "mira okafor")  # a name is no value


def test_values_follow_the_names_in_one_text() -> None:
    message = "Invoice from Fernwood Design to Bright Bakery with a total of $920 due in 14 days"
    assert named_texts(message) == ["Fernwood Design", "Bright Bakery", "$920", "14 days"]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("$#:/.%, 19 am days"), max_size=3_000))
def test_any_message_reads_a_bounded_list(message: str) -> None:
    assert len(values(message)) <= MAX_VALUES


def test_the_page_ends_with_the_values_its_numbers_do_not_show() -> None:
    page = OpenArray(key="c", parent="page", first=0, last=0)
    shown = '{"t":"progress","label":"Done","value":73}'
    assert added_text(["73%"], shown, page) is None
    assert added_text(["73%", "$42.00"], shown, page) == ',{"t":"text","text":"$42.00"}'
    assert added_text(["$42.00"], shown, OpenArray(key="c", parent="card", first=0, last=0)) is None
