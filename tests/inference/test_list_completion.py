"""A head's list goes on to the items the request named and it left out
(inference/serving/list_completion.py), on a scripted vocabulary: which rows are held to the
item left out, how it is spelled, and which rows are left alone."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import torch

from inference.serving import list_completion
from inference.serving.list_completion import ListState, left_out, next_item
from inference.serving.listed_items import listed_items
from inference.serving.repeat_watch import RepeatWatch
from inference.serving.step_rows import Row, Strings

ASKED = "KPI tiles for visitors, signups, conversion rate and bounce rate"
PAGE = '{"title":"Marketing","root":{"t":"page","c":[{"t":"grid","cols":4,"c":['
VISITORS = '{"t":"stat","label":"Visits","value":"177"}'
SIGNUPS = '{"t":"stat","label":"Signups","value":"12"}'
CONVERSION = '{"t":"stat","label":"Conversion rate","value":"3%"}'
BOUNCE = '{"t":"stat","label":"Bounce rate","value":"41%"}'
BOTH = '{"t":"card","title":"Visitors and signups","c":[]}'
SELECT = '{"title":"Shop","root":{"t":"select","label":"Sort","bind":"s","opts":["Newest","Oldest"'
TABLE = '{"title":"Contacts","root":{"t":"table","data":"people","cols":["name","phone"'
FORM = (
    '{"title":"Orders","root":{"t":"form","submit":"Go","c":[{"t":"input","label":"Order number"},'
    '{"t":"input","label":"Email"}'
)
NEXT_TILE = ',{"t":"stat","label":"'
# A stand-in vocabulary, each id's text as the tokenizer decodes it alone.
VOCAB = [
    PAGE, VISITORS, SIGNUPS, CONVERSION, BOUNCE, BOTH, SELECT, TABLE, FORM,
    ",", "]", "]}", "]},", NEXT_TILE, ',"', "Bounce", "Bou", " rate", " rating", '"', '",',
    "Cheapest", '"value":"41%"}', "x", SIGNUPS[:-1], "}", "},",
]  # fmt: skip
CLOSERS = ("]", "]}", "]},")


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def ids(*texts: str) -> list[int]:
    return [VOCAB.index(text) for text in texts]


def request(written: list[str], message: str = ASKED) -> SimpleNamespace:
    extra = list_completion.request_args(message)
    return SimpleNamespace(
        output_token_ids=ids(*written), sampling_params=SimpleNamespace(extra_args=extra)
    )


def step(best: str, allowed: tuple[str, ...] = tuple(VOCAB[9:]), rows: int = 1) -> torch.Tensor:
    """Logits whose rows allow `allowed` (the grammar's mask), `best` the likeliest."""
    logits = torch.full((rows, len(VOCAB)), float("-inf"))
    for token in allowed:
        logits[:, VOCAB.index(token)] = 0.0
    logits[:, VOCAB.index(best)] = 5.0
    return logits


def kept(logits: torch.Tensor, row: int = 0) -> set[str]:
    return {VOCAB[t] for t in torch.isfinite(logits[row]).nonzero().flatten().tolist()}


def after(written: list[str], logits: torch.Tensor, state: ListState | None = None, **kw) -> str:
    batch: list[Row] = [("r", request(written, **kw), 0, 1, [])]
    list_completion.hold_lists(logits, batch, {"r": state or ListState()}, strings)
    return VOCAB[int(logits[0].argmax())]


def test_tiles_short_of_the_listed_kpis_go_on_with_the_one_left_out() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION]
    state = ListState()
    logits = step("]}")
    after(written, logits, state)
    assert kept(logits) == {",", NEXT_TILE}
    assert state.going_on == ("".join(written), NEXT_TILE + 'Bounce rate"', len(written))
    # The next steps spell the item as the request says it, capitalised like the tiles before.
    logits = step("x")
    after([*written, NEXT_TILE], logits, state)
    assert kept(logits) == {"Bounce", "Bou"}
    logits = step(" rating")
    assert after([*written, NEXT_TILE, "Bounce"], logits, state) == " rate"
    logits = step("x")
    after([*written, NEXT_TILE, "Bounce", " rate"], logits, state)
    assert kept(logits) == {'"', '",', '"value":"41%"}'}
    # Past its closing quote the model writes on.
    logits = step("x")
    assert after([*written, NEXT_TILE, "Bounce", " rate", '",'], logits, state) == "x"
    assert len(kept(logits)) == len(VOCAB) - 9


def test_right_after_an_item_it_went_on_with_the_page_is_held_open_once() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION, NEXT_TILE, "Bounce", " rate", '",']
    state = ListState(went_on_at=len("".join(written[:6])))
    written += ['"value":"41%"}', "]}"]
    logits = step("]}")
    assert after(written, logits, state) == ","
    assert state.went_on_at is None
    # Held once: the next time the page may close.
    assert after(written, step("]}"), state) == "]}"


def test_the_page_is_held_after_an_item_written_past_its_spelling() -> None:
    before = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION]
    item = [NEXT_TILE, "Bounce", " rate", '",']
    state = ListState(
        going_on=("".join(before), NEXT_TILE + 'Bounce rate"', len(before)),
        went_on_at=len("".join(before)),
    )
    written = [*before, *item, '"value":"41%"}', "]}"]
    assert after(written, step("]}"), state) == ","
    assert state.going_on is None and state.went_on_at is None


def test_a_page_with_another_node_since_is_the_models_to_close() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION, NEXT_TILE, "Bounce", " rate", '",']
    state = ListState(went_on_at=len("".join(written[:6])))
    written += ['"value":"41%"}', ",", CONVERSION, "]}"]
    assert after(written, step("]}"), state) == "]}"


def test_a_list_of_strings_goes_on_with_a_string() -> None:
    message = "a sort select with options Newest, Oldest, Cheapest"
    logits = step("]}")
    after([SELECT], logits, message=message)
    assert kept(logits) == {",", ',"'}


def test_the_item_added_is_next_to_those_the_array_shows() -> None:
    # "name" and "email" are the form's, not the select's: the list runs on past them.
    state = ListState()
    after([SELECT], step("]}"), state, message="a shop: your name, email, Cheapest, Newest, Oldest")
    assert state.going_on == (SELECT, ',"Cheapest"', 1)


def test_an_item_is_spelled_like_the_one_before_up_to_its_first_display_string() -> None:
    assert next_item(CONVERSION, "bounce rate") == NEXT_TILE + 'Bounce rate"'
    assert next_item('"Newest"', "oldest first") == ',"Oldest first"'
    assert next_item('"price"', "due date") == ',"due date"'
    assert next_item('{"t":"row","c":[{"t":"button","label":"Go"}]}', "Stop") is None


def test_a_list_with_as_many_items_as_asked_closes() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION, ",", BOUNCE]
    assert after(written, step("]}")) == "]}"


def test_an_item_shown_elsewhere_in_the_spec_lets_the_list_close() -> None:
    page = PAGE.replace('"title":"Marketing"', '"title":"Bounce rate"')
    VOCAB.append(page)
    try:
        written = [page, VISITORS, ",", SIGNUPS, ",", CONVERSION]
        assert after(written, step("]}")) == "]}"
    finally:
        VOCAB.remove(page)


def test_an_item_is_shown_by_its_last_telling_word_not_any_of_its_words() -> None:
    # The title's "Invoice settings" showed "invoice", and the form closed without its prefix.
    listed = listed_items("Invoice settings: company name, tax ID, invoice number prefix")
    fields = [{"t": "input", "label": "Company name"}, {"t": "input", "label": "Tax ID"}]
    spec_words = {"invoice", "settings", "company", "name", "tax", "id"}
    assert left_out(fields, listed, spec_words) == "invoice number prefix"
    assert left_out(fields, listed, spec_words | {"prefix"}) is None


def test_an_array_showing_one_listed_item_or_a_container_of_several_closes() -> None:
    assert after([PAGE, VISITORS], step("]")) == "]"
    assert after([PAGE, BOTH], step("]")) == "]"


def test_an_item_that_names_another_component_is_not_spelled_as_the_arrays() -> None:
    message = "order lookup: order number, email, Track button"
    assert after([FORM], step("]"), message=message) == "]"


def test_a_tables_columns_are_the_models_to_close() -> None:
    assert after([TABLE], step("]"), message="contacts with name, phone, city") == "]"


def test_a_request_with_no_list_or_a_row_that_may_only_close_is_left_alone() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS]
    assert after(written, step("]"), message="a marketing dashboard") == "]"
    logits = step("]", allowed=CLOSERS)
    assert after(written, logits) == "]"
    assert kept(logits) == set(CLOSERS)


def test_a_draft_row_reads_the_drafts_before_it() -> None:
    # Row 0 writes the third tile as a draft; row 1 then closes a grid of three of four.
    logits = step("]", rows=2)
    logits[0, VOCAB.index(CONVERSION)] = 9.0
    batch: list[Row] = [("r", request([PAGE, VISITORS, ",", SIGNUPS, ","]), 0, 2, ids(CONVERSION))]
    list_completion.hold_lists(logits, batch, {}, strings)
    assert VOCAB[int(logits[0].argmax())] == CONVERSION
    assert kept(logits, 1) == {",", NEXT_TILE}


def test_a_draft_row_that_leaves_the_item_does_not_end_its_going_on() -> None:
    written = [PAGE, VISITORS, ",", SIGNUPS, ",", CONVERSION]
    start = "".join(written)
    state = ListState(going_on=(start, NEXT_TILE + 'Bounce rate"', len(written) - 1))
    # Row 0 is held to the item; row 1 reads a draft that left it, and is let be.
    logits = step("x", rows=2)
    batch: list[Row] = [("r", request(written), 0, 2, ids("]}"))]
    list_completion.hold_lists(logits, batch, {"r": state}, strings)
    assert kept(logits, 0) == {",", NEXT_TILE}
    assert len(kept(logits, 1)) == len(VOCAB) - 9
    assert state.going_on == (start, NEXT_TILE + 'Bounce rate"', len(written) - 1)


def test_an_item_set_after_a_draft_the_model_did_not_write_is_dropped() -> None:
    # Row 1 reads a drafted "}" that ends the tiles' last item, and its best token closes them:
    # the list goes on there. But row 0 writes "}," (the draft is rejected), and that "," is
    # no start of the item on the model's own path.
    written = [PAGE, VISITORS, ",", SIGNUPS[:-1]]
    state = ListState()
    logits = step("},", rows=2)
    logits[1, VOCAB.index("]}")] = 9.0
    batch: list[Row] = [("r", request(written), 0, 2, ids("}"))]
    list_completion.hold_lists(logits, batch, {"r": state}, strings)
    assert kept(logits, 1) == {",", NEXT_TILE}
    assert state.going_on is not None and state.going_on[2] == len(written) + 1
    assert after([*written, "},"], step("x"), state) == "x"
    assert state.going_on is None


def test_an_open_array_is_read_between_its_items_only() -> None:
    watch = RepeatWatch()
    watch.feed(PAGE + VISITORS + "," + SIGNUPS)
    opened = watch.innermost_array()
    assert opened is not None and (opened.key, opened.parent) == ("c", "grid")
    assert watch.text[opened.first :] == VISITORS + "," + SIGNUPS
    assert watch.text[opened.last :] == SIGNUPS
    watch.feed(',{"t":"stat","label":"Sign')
    assert watch.innermost_array() is None
