"""A head draws the buttons the request names (inference/serving/button_completion.py, spelled
by list_completion.py), on a scripted vocabulary: a form's submit, a button at the end of the
page's children, and the places left to the model."""

from __future__ import annotations

import torch

from inference.serving.button_completion import submitted, undrawn
from inference.serving.list_completion import ListState
from tests.inference.scripted_head import ScriptedHead

ASKED = "Manage suppliers: a table of suppliers and a search box, plus an Add supplier button"
CARD = '{"title":"Suppliers","root":{"t":"page","c":[{"t":"card","c":['
TABLE = '{"t":"table","data":"suppliers","cols":["name","city"],"search":true}'
FORM = '{"title":"Sign in","root":{"t":"page","c":[{"t":"form","submit":"'
DIALOG = (
    '{"title":"Suppliers","root":{"t":"page","c":[{"t":"dialog","bind":"d","c":[{"t":"card","c":['
)
PAGE = '{"title":"Suppliers","root":{"t":"page","c":['
ROW = '{"title":"Suppliers","root":{"t":"page","c":[{"t":"row","c":[{"t":"button","label":"Go"},'
ADD = ',{"t":"button","label":"'
VOCAB = [
    CARD, TABLE, FORM, DIALOG, PAGE, ROW,
    "]", "]}", ",", ADD, "Add", " supplier", '"', '",', "Login", "Enter", "Log", "x",
]  # fmt: skip


HEAD = ScriptedHead(VOCAB, openings=6)
step, kept = HEAD.step, HEAD.kept


def after(written: list[str], logits: torch.Tensor, state: ListState, message: str = ASKED) -> str:
    return HEAD.after(written, logits, state, message)


def test_the_pages_children_end_with_the_named_button_it_left_out() -> None:
    state = ListState()
    logits = step("]}")
    after([PAGE, TABLE], logits, state)
    assert kept(logits) == {",", ADD}
    assert state.going_on == (PAGE + TABLE, ADD + 'Add supplier"', 2)
    assert state.went_on_at is None  # the page is the model's to close after a button
    after([PAGE, TABLE, ADD], logits := step("x"), state)
    assert kept(logits) == {"Add"}
    assert after([PAGE, TABLE, ADD, "Add"], step("x"), state) == " supplier"
    # Past the label's closing quote the model writes on: the button's action is its own.
    assert after([PAGE, TABLE, ADD, "Add", " supplier", '",'], step("x"), state) == "x"


def test_a_button_drawn_already_is_not_drawn_again() -> None:
    written = [PAGE, TABLE, ADD, "Add", " supplier", '"', "]}"]
    assert after(written, step("]}"), ListState()) == "]}"


def test_a_card_a_row_or_a_dialog_closes_as_the_model_meant() -> None:
    # The model may draw the button later: added at an earlier close, it took that one's place.
    for opened in (CARD, ROW, DIALOG):
        assert after([opened, TABLE], step("]}"), ListState()) == "]}"


def test_a_forms_submit_is_the_named_button() -> None:
    state = ListState()
    logits = step("Login")
    after([FORM], logits, state, message="staff login: badge ID and password, big Enter button")
    assert kept(logits) == {"Enter"}
    assert state.going_on == (FORM, 'Enter"', 1)


def test_a_submit_the_model_begins_as_named_is_its_own() -> None:
    message = "a Log in button and a Enter button"
    assert after([FORM], step("Log"), ListState(), message=message) == "Log"


def test_a_side_action_is_no_forms_submit() -> None:
    assert submitted([("Forgot PIN?", True)], FORM, "Login") is None
    assert submitted([("Forgot PIN?", True), ("Enter", True)], FORM, "Login") == 'Enter"'


def test_a_button_that_opens_something_is_no_forms_submit() -> None:
    message = "tea listing where clicking a tea's Details button opens a dialog"
    assert after([FORM], step("Login"), ListState(), message=message) == "Login"
    assert submitted([("Details", False), ("Enter", True)], FORM, "Login") == 'Enter"'


def test_a_name_is_drawn_where_a_label_or_submit_contains_it() -> None:
    text = '{"t":"button","label":"Add a supplier"},{"t":"form","submit":"Save changes"'
    assert undrawn(["Add supplier", "save", "Reset"], text) == ["Add supplier", "Reset"]
    # A submit the model began as a name's first word, and wrote its own way, draws it.
    assert undrawn(["pay $64.20"], '{"t":"form","submit":"Pay","c":[') == []
