"""The JSON Schema the model decodes under: it accepts our specs and is bounded everywhere."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.stage_closing import closing
from ui4a import fields, json_schema
from ui4a.catalog import MAX_STATE_KEYS, URL_MAX, Field
from ui4a.fields import CLAUSE_PATTERN, COND_PATTERN, SAFE_URL, URL_PATTERN
from ui4a.registry import components, example_path

ALLOWED_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "anyOf", "$ref", "$defs", "enum",
    "const", "minItems", "maxItems", "minLength", "maxLength", "maxProperties", "items",
    "pattern", "minimum", "maximum",
}  # fmt: skip
# A pattern bounds a string's length when it is anchored and repeats nothing without a bound
# (xgrammar ignores a maxLength beside a pattern).
UNBOUNDED_REPEAT = re.compile(r"[*+]|\{\d*,\}")


def bounded(string_schema: dict[str, Any]) -> bool:
    if "pattern" in string_schema:
        pattern = string_schema["pattern"]
        anchored = pattern.startswith("^") and pattern.endswith("$")
        unescaped = re.sub(r"\\.", "", pattern)  # "\+" is a plus sign, not a repeat
        return anchored and not UNBOUNDED_REPEAT.search(unescaped)
    return "maxLength" in string_schema


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key in ("properties", "$defs"):
                for sub in value.values():
                    yield from subschemas(sub)
            elif key != "enum" and key != "const":
                yield from subschemas(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from subschemas(item)


def test_it_accepts_the_example(signup: dict[str, Any]) -> None:
    jsonschema.validate(signup, json_schema())


@pytest.mark.parametrize("name", sorted(components()))
def test_it_accepts_every_component_example(name: str) -> None:
    text = example_path(components()[name]).read_text()
    # The grammar spells an image as an https URL only (URL_PATTERN); a data:image one comes
    # from a designer's upload or hand edit, which the validator takes.
    example = json.loads(re.sub(r'"data:image/[^"]*"', '"https://example.com/a.png"', text))
    jsonschema.validate(example, json_schema())


def test_it_rejects_what_it_should(signup: dict[str, Any]) -> None:
    schema = json_schema()
    bad = [
        {"root": {"t": "card"}},
        {"root": {"t": "page", "c": [{"t": "marquee"}]}},
        {"root": {"t": "page", "c": [{"t": "text", "text": "x", "extra": 1}]}},
        {"root": {"t": "page", "c": [{"t": "text", "text": "x"}] * 9}},
        {"root": {"t": "page"}, "state": {f"k{i}": 1 for i in range(MAX_STATE_KEYS + 1)}},
    ]
    for spec in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(spec, schema)


def test_it_bounds_nesting_like_validation_does() -> None:
    node: dict[str, Any] = {"t": "text", "text": "x"}
    for _ in range(3):
        node = {"t": "card", "c": [node]}
    jsonschema.validate({"root": {"t": "page", "c": [node]}}, json_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"root": {"t": "page", "c": [{"t": "row", "c": [node]}]}}, json_schema()
        )


def test_it_is_bounded_everywhere() -> None:
    schema = json_schema()
    for sub in subschemas(schema):
        assert set(sub) - {"description"} <= ALLOWED_KEYWORDS | set(sub.get("properties", {}))
        if sub.get("type") == "string":
            assert bounded(sub), sub
        if sub.get("type") == "array":
            assert "maxItems" in sub
        if sub.get("type") in ("number", "integer"):
            assert "minimum" in sub and "maximum" in sub, sub  # its digits are bounded too
        if sub.get("type") == "object":
            assert sub.get("additionalProperties") is False or "maxProperties" in sub


def test_it_has_no_recursion() -> None:
    defs = json_schema()["$defs"]

    def refs(schema: Any) -> set[str]:
        return {s["$ref"].rsplit("/", 1)[1] for s in subschemas(schema) if "$ref" in s}

    def depth(name: str, seen: tuple[str, ...]) -> int:
        assert name not in seen, f"recursive $ref through {seen}"
        return 1 + max((depth(r, (*seen, name)) for r in refs(defs[name])), default=0)

    # page, n1, list1, item2, item_card2, item3, item_card3, item_leaf, item_button, item_on,
    # item_action, action: the deepest chain, a button in a list's item template.
    assert depth("page", ()) <= 12


def test_it_puts_the_type_first_and_children_last() -> None:
    for name, sub in json_schema()["$defs"].items():
        props = list(sub.get("properties", {}))
        if "t" in props:
            assert props[0] == "t", name
        if "c" in props:
            assert props[-1] == "c", name


def test_it_stays_small() -> None:
    # Heavy containers stop a level early (max_level) so the layered defs stay few. (Each
    # number's bounds added about 500 characters; a list's item template's own defs, about
    # 3,200, and its head grammar compiles in 3.5 s with the default model's vocabulary, as it
    # did without them.)
    assert len(json.dumps(json_schema(), separators=(",", ":"))) < 25_000


def test_it_compiles_with_xgrammar() -> None:
    xgrammar = pytest.importorskip("xgrammar")
    start = time.perf_counter()
    grammar = xgrammar.Grammar.from_json_schema(json.dumps(json_schema()))
    assert time.perf_counter() - start < 1.0
    assert "root" in str(grammar)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(URL_PATTERN, fullmatch=True))
def test_every_image_url_the_grammar_spells_is_valid(url: str) -> None:
    """The grammar's image URL is bounded and a subset of what the validator accepts, so a
    decoded `src` is never a `bad_value` (a URL with a space in it was, on the dev set)."""
    assert len(url) <= URL_MAX and SAFE_URL.fullmatch(url)


def test_the_grammar_spells_no_image_url_with_a_space() -> None:
    src = json_schema()["$defs"]
    patterns = [s["pattern"] for s in subschemas(src) if s.get("pattern") == URL_PATTERN]
    assert patterns, "the image's src is decoded under URL_PATTERN"
    assert re.fullmatch(URL_PATTERN, "https://example.com/img/fiddle-leaf.jpg")
    assert not re.fullmatch(URL_PATTERN, "https://example.com/img/fiddle leaf.jpg")


@settings(max_examples=300, deadline=None)
@given(st.from_regex(COND_PATTERN, fullmatch=True))
def test_every_condition_the_grammar_spells_is_valid(condition: str) -> None:
    """A condition the grammar spells is one validation takes: ".field" ones inside a list item,
    where they read the item, the others anywhere."""
    in_item = condition.lstrip("!").startswith(".")
    assert fields.check(Field("if", "cond"), condition, ("if",), in_item) == []


@settings(max_examples=300, deadline=None)
@given(st.from_regex(CLAUSE_PATTERN, fullmatch=True))
def test_every_filter_clause_the_grammar_spells_is_valid(clause: str) -> None:
    assert fields.check(Field("filter", "filter"), [clause], ("filter",)) == []


def _decodes(schema: dict[str, Any], text: str) -> bool:
    """Whether the decoding grammar of `schema` (as vLLM compiles it: no whitespace) takes `text`
    whole: stage_closing's matcher, which closes a cut stage, finds it needs nothing more."""
    return closing(text, json_schema=schema) == ""


@pytest.mark.parametrize(
    ("clause", "spelled"),
    [
        ("title~q", True),
        ("status='Done'", True),
        ("*~q", True),
        ("title=~q", False),
        ("a=b c", False),
    ],
)
def test_the_grammar_spells_filters_only_as_clauses(clause: str, spelled: bool) -> None:
    # A looser grammar let the expert write "title=~title_filter", which filters nothing.
    table = {"t": "table", "data": "rows", "cols": ["title"], "filter": [clause]}
    text = json.dumps({"root": {"t": "page", "c": [table]}}, separators=(",", ":"))
    assert _decodes(json_schema(), text) is spelled


@pytest.mark.parametrize(
    ("condition", "spelled"),
    [("step=2", True), ("!done", True), (".done", True), ("step is 2", False), ("!step=2", False)],
)
def test_the_grammar_spells_conditions_only_as_conditions(condition: str, spelled: bool) -> None:
    node = {"t": "text", "if": condition, "text": "x"}
    text = json.dumps({"root": {"t": "page", "c": [node]}}, separators=(",", ":"))
    assert _decodes(json_schema(), text) is spelled


DELETE = {"t": "button", "label": "Delete", "on": {"do": "remove"}}
IN_A_FORM = {"t": "form", "submit": "Add", "c": [DELETE]}
IN_A_LIST = {
    "t": "list",
    "data": "todos",
    "c": [{"t": "row", "c": [{"t": "text", "text": "x"}, DELETE]}],
}
IN_A_CARD_IN_A_LIST = {
    "t": "list",
    "data": "todos",
    "c": [{"t": "card", "c": [{"t": "row", "c": [DELETE]}]}],
}


@pytest.mark.parametrize(
    ("node", "spelled"),
    [(IN_A_LIST, True), (IN_A_CARD_IN_A_LIST, True), (DELETE, False), (IN_A_FORM, False)],
    ids=["in a list item", "deeper in a list item", "on the page", "in a form"],
)
def test_the_grammar_spells_remove_only_in_a_list_item(node: dict[str, Any], spelled: bool) -> None:
    """Validation refuses a `remove` outside a list item (it removes nothing); the expert wrote a
    Delete button with one in a form (faq-06, two runs in three)."""
    spec = {"root": {"t": "page", "c": [node]}}
    assert _decodes(json_schema(), json.dumps(spec, separators=(",", ":"))) is spelled
    if spelled:
        jsonschema.validate(spec, json_schema())
    else:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(spec, json_schema())


def test_a_list_item_may_act_as_any_button_may() -> None:
    toggle = {
        "t": "button",
        "label": "Done",
        "on": [{"do": "toggle", "path": ".done"}, {"do": "remove"}],
    }
    spec = {"root": {"t": "page", "c": [{"t": "list", "data": "todos", "c": [toggle]}]}}
    assert _decodes(json_schema(), json.dumps(spec, separators=(",", ":")))
