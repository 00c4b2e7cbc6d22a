"""A head draws the fields the request names (inference/serving/field_completion.py,
spelled by list_completion.py), on a scripted vocabulary: at the end of a form's children or the
page's, before a named button, and nowhere else."""

from __future__ import annotations

import torch

from inference.serving.field_completion import added_field, drawn
from inference.serving.list_completion import ListState
from inference.serving.repeat_watch import OpenArray
from tests.inference.scripted_head import ScriptedHead

ASKED = "Contacts: a form with name and phone number, plus a Save contact button"
FORM = '{"title":"Contacts","root":{"t":"page","c":[{"t":"form","submit":"Save contact","c":['
NAME = '{"t":"input","label":"Name","bind":"name"}'
PAGE = '{"title":"Contacts","root":{"t":"page","c":['
CARD = '{"title":"Contacts","root":{"t":"page","c":[{"t":"card","c":['
TEXT = '{"t":"text","text":"Hi"}'
ADD = ',{"t":"input","label":"'
BUTTON = ',{"t":"button","label":"'
VOCAB = [
    FORM, PAGE, CARD, NAME, TEXT,
    "]", "]}", ",", ADD, BUTTON, "Phone", " number", "Save", " contact", '"', '"}', "x",
]  # fmt: skip


HEAD = ScriptedHead(VOCAB, openings=3)
step, kept = HEAD.step, HEAD.kept


def after(written: list[str], logits: torch.Tensor, state: ListState, message: str = ASKED) -> str:
    return HEAD.after(written, logits, state, message)


def test_a_forms_fields_end_with_the_named_field_it_left_out() -> None:
    state = ListState()
    logits = step("]}")
    after([FORM, NAME], logits, state)
    assert kept(logits) == {",", ADD}
    assert state.going_on == (FORM + NAME, ADD + 'Phone number"', 2)
    assert after([FORM, NAME, ADD], step("x"), state) == "Phone"
    assert after([FORM, NAME, ADD, "Phone"], step("x"), state) == " number"
    # Past the label's closing quote the model writes on: the field's binding is its own.
    assert after([FORM, NAME, ADD, "Phone", " number", '"'], step("x"), state) == "x"


def test_the_pages_children_end_with_a_named_field_before_a_named_button() -> None:
    state = ListState()
    after([PAGE, TEXT], logits := step("]}"), state)
    assert kept(logits) == {",", ADD}
    drawn_fields = [PAGE, TEXT, ADD, "Phone", " number", '"}', ",", NAME]
    # Every field drawn, the page's children end with the named button instead.
    after(drawn_fields, logits := step("]}"), state := ListState())
    assert kept(logits) == {",", BUTTON}
    assert state.going_on is not None and state.going_on[1] == BUTTON + 'Save contact"'
    message = "Contacts: a form with name and phone number"
    assert after(drawn_fields, step("]}"), ListState(), message=message) == "]}"


def test_a_card_or_an_empty_form_closes_as_the_model_meant() -> None:
    assert after([CARD, TEXT], step("]}"), ListState()) == "]}"
    assert after([FORM], step("]}"), ListState()) == "]}"


def test_a_field_is_drawn_where_a_text_fields_label_holds_its_name_or_is_held_in_it() -> None:
    assert drawn("phone number", '{"t":"input","label":"Your phone number"')
    assert drawn("reason for visit", '{"t":"textarea","label":"Reason"')
    assert not drawn("reason for visit", '{"t":"radio","label":"Reason for visit"')
    assert drawn("search", '{"t":"table","data":"rows","cols":["name"],"search":true}')
    assert not drawn("email", '{"t":"button","label":"Email"')
    # A select is drawn as a select or radios, a switch as a switch or a checkbox.
    assert drawn("filter by status", '{"t":"radio","label":"Status"', "select")
    assert not drawn("status", '{"t":"input","label":"Status"', "select")
    assert drawn("remote only", '{"t":"checkbox","label":"Remote only"', "switch")


def test_a_named_field_is_added_as_the_component_its_cue_names() -> None:
    page = OpenArray(key="c", parent="page", first=0, last=0)
    added = added_field([("timezone", "select")], PAGE + TEXT, page)
    assert added == ',{"t":"select","label":"Timezone"'
    # A select drawn already, as radios, is not added again.
    radios = PAGE + '{"t":"radio","label":"Timezone","bind":"tz","opts":["UTC"]}'
    assert added_field([("timezone", "select")], radios, page) is None
