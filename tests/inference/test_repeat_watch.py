"""Where a stage's JSON starts to loop (inference/serving/repeat_watch.py): an array's item
written again, verbatim, right after itself."""

from __future__ import annotations

import json
from itertools import cycle

from hypothesis import given
from hypothesis import strategies as st

from inference.serving.repeat_watch import SMALLEST_LOOP, Copy, RepeatWatch

STEP = '{"t":"stack","if":"step=1","c":[{"t":"text","text":"Your name, please"}]}'
PAGE = '{"title":"Join","root":{"t":"page","c":[{"t":"heading","text":"Join"},'


def first_cut(text: str) -> int | None:
    copies = RepeatWatch().feed(text)
    return copies[0].start if copies else None


def test_an_item_written_again_is_cut_at_the_comma_before_the_copy() -> None:
    text = PAGE + STEP + "," + STEP + "," + STEP
    cut = first_cut(text)
    assert cut == len(PAGE) + len(STEP)
    assert text[cut] == ","
    # The copy is seen where it ends: at the comma after it, or at the bracket closing the list.
    assert first_cut(PAGE + STEP + "," + STEP) is None
    assert first_cut(PAGE + STEP + "," + STEP + "]") == cut


def test_items_that_differ_anywhere_are_no_loop() -> None:
    other = STEP.replace("step=1", "step=2")
    assert first_cut(PAGE + STEP + "," + other + "," + STEP + ",") is None
    # Nor is a copy of an item that is not the one just before it.
    assert first_cut("[" + STEP + ',{"t":"divider"},' + STEP + ",") is None


def test_small_items_and_values_may_repeat() -> None:
    divider = '{"t":"divider"}'
    assert len(divider) < SMALLEST_LOOP
    assert first_cut("[" + ",".join([divider] * 5) + "]") is None
    assert first_cut('{"values":[5,5,5,5],"tags":["new","new"]}') is None


def test_rows_written_again_inside_the_data_are_a_loop_too() -> None:
    row = '{"name":"Ada Lovelace","city":"London"}'
    text = ',"state":{"q":""},"data":{"people":[' + row + "," + row + ","
    cut = first_cut(text)
    assert cut == text.index(row) + len(row)


def test_brackets_commas_and_quotes_inside_strings_are_text() -> None:
    tricky = '{"t":"text","text":"a, [b] {c} \\"d\\", e"}'
    assert first_cut("[" + tricky + "," + tricky + "]") == 1 + len(tricky)
    differs = tricky.replace("e", "f")
    assert first_cut("[" + tricky + "," + differs + "]") is None


def test_a_possible_copy_is_held_back_from_the_stream_until_it_differs() -> None:
    watch = RepeatWatch()
    watch.feed(PAGE + STEP)
    assert watch.held_from() == len(watch.text)
    watch.feed(',{"t":"stack","if":"step=')
    assert watch.held_from() == len(PAGE) + len(STEP)  # the comma before the possible copy
    watch.feed("2")
    assert watch.held_from() == len(watch.text)


def test_rewinding_is_feeding_the_text_before_that_point() -> None:
    text = PAGE + STEP + "," + STEP[:30]
    watch = RepeatWatch()
    watch.feed(text + STEP[30:] + "," + STEP)
    watch.rewind(len(text))
    fresh = RepeatWatch()
    fresh.feed(text)
    assert watch.text == fresh.text and watch.held_from() == fresh.held_from()
    assert [c.start for c in watch.feed(STEP[30:] + ",")] == [len(PAGE) + len(STEP)]


@given(st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=40))
def test_the_cut_does_not_depend_on_how_the_text_streams(sizes: list[int]) -> None:
    text = PAGE + STEP + "," + json.dumps({"t": "text", "text": "x"}) + "," + STEP + "," + STEP
    streamed = text + ","
    whole = first_cut(streamed)
    watch, at, cut = RepeatWatch(), 0, None
    for size in cycle(sizes):
        if cut is not None or at >= len(streamed):
            break
        copies = watch.feed(streamed[at : at + size])
        cut = copies[0].start if copies else None
        at += size
    assert cut == whole == len(text) - len(STEP) - 1


def test_a_copy_left_in_place_is_read_past() -> None:
    """Where a copy is kept (in a head), the watch reads on: a later copy in the same piece of
    text, and in the next, is still found where it is."""
    row = '{"name":"Ada Lovelace","city":"London"}'
    head = PAGE + STEP + "," + STEP + ',{"t":"text","text":"[not a bracket"}]}'
    watch = RepeatWatch()
    assert [c.start for c in watch.feed(head + ',"data":{"people":[' + row)] == [
        len(PAGE) + len(STEP)
    ]
    tail = "," + row + ","
    assert [c.start for c in watch.feed(tail)] == [len(watch.text) - len(tail)]


def test_a_copy_says_where_it_ends_and_whose_list_it_is_in() -> None:
    """A node's children ("c" of a page), or a dataset's rows (a property of "data", no node)."""
    text = PAGE + STEP + "," + STEP + "]"
    row = '{"name":"Ada Lovelace","city":"London"}'
    rows = ',"data":{"people":[' + row + "," + row + ","
    copies = RepeatWatch().feed(text + "}" + rows)
    assert copies[0] == Copy(len(PAGE) + len(STEP), len(text) - 1, "c", "page")
    assert text[copies[0].start : copies[0].end] == "," + STEP
    assert (copies[1].key, copies[1].parent) == ("people", "")
    spaced = '{ "t" : "tabs", "tabs":["A","B"], "c" : [' + STEP + "," + STEP + ","
    assert [(c.key, c.parent) for c in RepeatWatch().feed(spaced)] == [("c", "tabs")]
    nested = "[[" + STEP + "," + STEP + ","
    assert [(c.key, c.parent) for c in RepeatWatch().feed(nested)] == [("", "")]


def test_a_possible_copy_is_held_back_only_where_it_is_watched() -> None:
    row = '{"name":"Ada Lovelace","city":"London"}'
    text = PAGE + STEP + ',{"t":"stack","if":"step=1"'
    children = RepeatWatch()
    children.feed(text)
    assert children.held_from(lambda key, parent: key == "c") == len(PAGE) + len(STEP)
    assert children.held_from(lambda key, parent: parent == "tabs") == len(text)
    people = RepeatWatch()
    people.feed('{"data":{"people":[' + row + ',{"name":"Ada')
    assert people.held_from(lambda key, parent: key == "c") == len(people.text)
    assert people.held_from() < len(people.text)


def test_an_item_is_held_while_it_copies_the_one_before_but_for_an_inner_possible_copy() -> None:
    """The second card has written its line twice: were the inner copy cut away, the card would
    be the first one again, so both are held from the outer comma."""
    line = '{"t":"text","text":"5 euros a month"}'
    card = '{"t":"card","title":"Basic","c":[' + line + "]}"
    text = PAGE + card + ',{"t":"card","title":"Basic","c":[' + line + "," + line[:9]
    watch = RepeatWatch()
    watch.feed(text)
    assert watch.held_from() == len(PAGE) + len(card)
    other = PAGE + card + ',{"t":"card","title":"Plus","c":[' + line + "," + line[:9]
    watch = RepeatWatch()
    watch.feed(other)
    assert watch.held_from() == len(other) - len(line[:9]) - 1  # the inner comma only


def wizard_step(n: int, heading: str, label: str) -> str:
    """A wizard's step as the served adapter writes them: a heading, a field and a button."""
    return json.dumps(
        {
            "t": "stack",
            "if": f"step={n}",
            "c": [
                {"t": "heading", "text": heading, "level": 3},
                {"t": "input", "label": label, "bind": label.lower()},
                {"t": "button", "label": "Next", "on": {"do": "set", "path": "step", "value": n}},
            ],
        },
        separators=(",", ":"),
    )


def stale_ends(text: str) -> list[int]:
    return [c.start for c in RepeatWatch().feed(text) if c.stale]


def test_a_second_child_with_nothing_new_to_show_is_reported_after_it() -> None:
    """Steps 1 and 2 show their own heading and field; steps 3 and 4 only show them again with
    another number. The watch reports the comma after step 4, and only where a comma ends it."""
    steps = [
        wizard_step(1, "Room", "Room"),
        wizard_step(2, "Schedule", "Time"),
        wizard_step(3, "Room", "Room"),
        wizard_step(4, "Schedule", "Time"),
    ]
    text = PAGE + ",".join(steps) + ","
    assert stale_ends(text) == [len(text) - 1]
    (stale,) = [c for c in RepeatWatch().feed(text) if c.stale]
    assert (stale.end, stale.key, stale.parent) == (len(text) - 1, "c", "page")
    assert stale_ends(PAGE + ",".join(steps) + "]}}") == []  # the model ended the page itself
    assert stale_ends(PAGE + ",".join(steps[:3]) + ",") == []  # one stale child may be a recap


def test_children_that_show_something_new_or_little_are_never_stale() -> None:
    fresh = [wizard_step(n, f"Step {n}", "Name") for n in range(1, 6)]  # a new heading each
    assert stale_ends(PAGE + ",".join(fresh) + ",") == []
    row = '{"t":"row","c":[{"t":"button","label":"Archive"},{"t":"button","label":"Delete"}]}'
    assert stale_ends(PAGE + ",".join([row] * 4) + ",") == []  # two strings each


def test_a_tabs_panels_are_each_its_own() -> None:
    """Child i of tabs is tab i's panel: panels alike are not stale."""
    panels = ",".join(wizard_step(n, "Room", "Room") for n in range(4))
    tabs = '{"t":"tabs","bind":"tab","tabs":["A","B","C","D"],"c":[' + panels + ","
    assert stale_ends(PAGE + tabs) == []


def test_forks_and_rewinds_read_the_strings_shown_as_feeding_would() -> None:
    steps = [wizard_step(n, "Room" if n % 2 else "Schedule", "Room") for n in (1, 2, 3, 4)]
    text = PAGE + ",".join(steps) + ","
    watch = RepeatWatch()
    watch.feed(text[:-1])
    fork = watch.fork()
    assert [c.stale for c in fork.feed(",")] == [True]
    assert [c.stale for c in watch.feed(",")] == [True]  # the fork read on without it
    watch.rewind(len(PAGE) + len(steps[0]))
    assert [c.stale for c in watch.feed(text[len(watch.text) :])] == [True]
