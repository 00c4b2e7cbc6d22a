"""A head draws the fields the request names and it has not drawn (`macaron_named_fields`).

The ui expert leaves a named field out: "a why box" drew a counter and no box, "a form with name and
phone number" one field for the name, "a search box" nothing to type in, "a remote only switch" no
switch (bench/RESULTS.md, 2026-12-07). named_fields.py reads the names from the request; this says
where a head's text goes on to them, for list_completion.py, which spells it: where the head's best
token would close a form's children or the page's, the first named field not drawn yet is written
there as `{"t":"input","label":"…"` (or the select, switch, checkbox, slider or textarea the request
names), and the model writes the rest of it (its binding, a select's options, a slider's range) on
from the label's closing quote. A field is drawn where a label of its kind (DRAWN_AS: a select's or
a radio's for a select) contains its name, or is contained in it ("Reason" for "reason for visit");
a search field also where a table searches its rows. Each name is written once at most, so a head
ends whatever it writes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inference.serving import field_options
from inference.serving.button_completion import capitalised
from inference.serving.field_options import named_options
from inference.serving.named_fields import Field, labels_field, named_fields
from inference.serving.repeat_watch import OpenArray

EXTRA_ARG = "macaron_named_fields"
# A node's type and label, as the UI4A grammar writes them.
LABEL = re.compile(r'\{"t":"(\w+)","label":"((?:[^"\\]|\\.)*)"')
# The components that draw a field of each kind: one choice among several is a select or radios,
# one on/off a switch or a checkbox.
DRAWN_AS = {
    **dict.fromkeys(["input", "textarea"], frozenset({"input", "textarea"})),
    "select": frozenset({"select", "radio"}),
    **dict.fromkeys(["switch", "checkbox"], frozenset({"switch", "checkbox"})),
    "slider": frozenset({"slider"}),
}
SEARCHES = '"search":true'
# The arrays a field is added at the end of: a form's fields, and the page's children.
ENDS = frozenset({("c", "form"), ("c", "page")})


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that draw the fields `message` names, and spell the options
    it gives a select (field_options.py)."""
    fields = named_fields(message)
    options = named_options(message, fields)
    return ({EXTRA_ARG: fields} if fields else {}) | (
        {field_options.EXTRA_ARG: options} if options else {}
    )


def drawn(name: str, text: str, tag: str = "input") -> bool:
    """Whether a head's `text` draws a field for `name`, of the kind `tag` names."""
    labels = [label for kind, label in LABEL.findall(text) if kind in DRAWN_AS[tag]]
    if any(labels_field(label, name) for label in labels):
        return True
    return name.lower().startswith("search") and SEARCHES in text


def added_field(fields: list[Field], text: str, opened: OpenArray) -> str | None:
    """Where a head's `text` ends right before the closing of the `opened` array, a form's
    children or the page's: how it goes on instead with the first named field not drawn yet (a
    comma, the field's type and its label); None where none is to be drawn there."""
    if (opened.key, opened.parent) not in ENDS:
        return None
    missing = [(name, tag) for name, tag in fields if not drawn(name, text, tag)]
    if not missing:
        return None
    name, tag = missing[0]
    label = json.dumps(capitalised(name), ensure_ascii=False)
    return ',{"t":"' + tag + '","label":' + label
