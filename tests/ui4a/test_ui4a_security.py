"""Model output is data: hostile strings stay inert text wherever they land."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from ui4a import render_body, render_document

HOSTILE = [
    "<script>alert(1)</script>",
    "</script><script>alert(1)</script>",
    "javascript:alert(1)",
    '" onmouseover="alert(1)',
    "' onfocus='alert(1)' autofocus '",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "<img src=x onerror=alert(1)>",
    "{{ 7*7 }}{% raw %}",
    "</style><style>*{}",
]


def spec_with(bad: str) -> dict[str, Any]:
    return {
        "title": bad,
        "root": {
            "t": "page",
            "title": bad,
            "c": [
                {"t": "heading", "text": bad},
                {
                    "t": "card",
                    "title": bad,
                    "c": [{"t": "text", "text": bad + " {name}", "if": bad}],
                },
                {"t": "input", "label": bad, "bind": bad, "placeholder": bad, "id": bad},
                {"t": "checkbox", "label": bad, "bind": "name"},
                {"t": "button", "label": bad, "on": {"do": "set", "path": bad, "value": bad}},
            ],
        },
        "state": {"name": bad, bad: bad},
    }


@pytest.mark.parametrize("bad", HOSTILE)
def test_it_keeps_hostile_strings_inert_in_the_body(bad: str, scan: Any) -> None:
    html = render_body(spec_with(bad))
    found = scan(html)
    allowed = {"div", "h1", "h2", "p", "section", "label", "input", "button", "script"}
    assert set(found.names()) <= allowed
    # The one script is the datasets' inert JSON, never code.
    assert [a.get("type") for t, a in found.tags if t == "script"] == ["application/json"]
    assert not any(name.startswith("on") for name in found.attr_names())
    assert not {"href", "src", "style", "autofocus"} & found.attr_names()
    # The text the model wrote comes back literally, after HTML decoding.
    assert bad in "".join(found.text)


@pytest.mark.parametrize("bad", HOSTILE)
def test_it_keeps_hostile_strings_inert_in_the_document(bad: str, scan: Any) -> None:
    doc = render_document(spec_with(bad))
    found = scan(doc)
    # The data and state JSON, idiomorph, Chart.js, the runtime.
    assert found.names().count("script") == 5
    assert found.names().count("style") == 1
    assert not any(name.startswith("on") for name in found.attr_names())
    state = re.search(r'<script type="application/json" id="ui4a-state">(.*?)</script>', doc, re.S)
    assert state is not None
    assert not set("<>&") & set(state.group(1))
    assert json.loads(state.group(1))["name"] == bad


def test_it_keeps_entities_as_the_literal_text_the_model_wrote(scan: Any) -> None:
    html = render_body({"root": {"t": "page", "c": [{"t": "text", "text": "&lt;b&gt;"}]}})
    assert "&amp;lt;b&amp;gt;" in html
    assert "&lt;b&gt;" in scan(html).text


def test_it_passes_actions_as_json_data_with_only_known_fields(scan: Any) -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [
                {
                    "t": "button",
                    "label": "a",
                    "on": {"do": "set", "path": "k", "value": 1, "js": "x"},
                },
                {"t": "button", "label": "b", "on": {"do": "eval", "code": "alert(1)"}},
            ],
        }
    }
    buttons = [attrs for tag, attrs in scan(render_body(spec)).tags if tag == "button"]
    assert json.loads(buttons[0]["data-action"]) == {"do": "set", "path": "k", "value": 1}
    assert "data-action" not in buttons[1]
    assert all(b["type"] == "button" for b in buttons)
