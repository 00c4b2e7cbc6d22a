"""The field kinds: each is one class owning its JSON Schema fragment, its validation, the value
a template sees and its repair. The schema, validator, repairer and renderer dispatch on
`kind_of(field)`; a new kind is one class here and its name in `catalog.FieldKind`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from ui4a import actions, expr
from ui4a.catalog import (
    COND_MAX,
    KEY_MAX,
    MAX_COLUMNS,
    MD_MAX,
    SHORT_MAX,
    TEXT_MAX,
    URL_MAX,
    Field,
    FieldKind,
)
from ui4a.patterns import pattern_problem
from ui4a.problems import Problem
from ui4a.state import is_finite
from ui4a.tree import Path, pointer

Schema = dict[str, Any]
# A place in the spec whose value names a dataset: (the object holding it, its key, where).
DatasetSlot = tuple[dict[str, Any], str, str]

NAME_PATTERN = re.compile(expr.NAME)
ITEM_KEY = re.compile(rf"\.{expr.NAME}")
# A name short enough to be a state key or dataset name, as the decoding grammar spells it (a
# pattern bounds the length; xgrammar ignores a maxLength beside one).
NAME_OF_KEY = rf"[A-Za-z_][A-Za-z0-9_]{{0,{KEY_MAX - 2}}}"
# Images are https URLs or inline raster/SVG data; nothing else reaches a src attribute.
SAFE_URL = re.compile(
    r"https://[^\s\"'<>\\]+|data:image/(?:png|jpeg|gif|webp|svg\+xml)[;,][^\s\"'<>]*"
)
# An image URL as the decoding grammar spells it: https, printable ASCII, bounded (a pattern
# bounds the length). Tighter than SAFE_URL, which a hand edit or a data:image upload meets:
# xgrammar fails to compile a character class repeated much past 128.
URL_CHAR = r"[!#-&(-;=?-\[\]-~]"
URL_GRAMMAR_MAX = 120
URL_PATTERN = rf"^https://{URL_CHAR}{{1,{URL_GRAMMAR_MAX}}}$"

# A condition and a filter clause as the decoding grammar spells them (ui4a.expr's forms): a
# grammar that let any short text through let the expert write the filter "title=~q", which
# filters nothing. Each part is bounded so that the whole stays within what validation takes
# (COND_MAX, SHORT_MAX); a literal is printable ASCII, its quotes and backslashes aside.
_GRAMMAR_NAME = "[A-Za-z_][A-Za-z0-9_]"
COND_PATTERN = (
    rf"^(!?\.?{_GRAMMAR_NAME}{{0,29}}"
    rf"|\.?{_GRAMMAR_NAME}{{0,19}}(!=|<=|>=|=|<|>)[ !#-\[\]-~]{{0,9}})$"
)
CLAUSE_PATTERN = (
    rf"^(\*|{_GRAMMAR_NAME}{{0,27}})(!=|<=|>=|=|<|>|~)"
    rf"({_GRAMMAR_NAME}{{0,27}}|'[ !#-&(-\[\]-~]{{0,26}}')$"
)
# Fragments many fields share, which the spec's schema holds once, as $defs (ui4a.schema): a
# condition is on every node, and its pattern written out in each would double the grammar.
SHARED_DEFS: dict[str, Schema] = {
    "cond": {"type": "string", "pattern": COND_PATTERN},
    "clause": {"type": "string", "pattern": CLAUSE_PATTERN},
}


def shared(name: str) -> Schema:
    assert name in SHARED_DEFS, name
    return {"$ref": f"#/$defs/{name}"}


# A number as the decoding grammar spells it: bounded, so that its digits are too (xgrammar
# spells a range as at most so many digits, six after the point). Unbounded, a looping model
# wrote a price of 29 followed by 400 zeros until the token limit cut the spec off.
NUMBER_GRAMMAR_MAX = 10**12
NUMBER_SCHEMA: Schema = {
    "type": "number",
    "minimum": -NUMBER_GRAMMAR_MAX,
    "maximum": NUMBER_GRAMMAR_MAX,
}

SCALAR_SCHEMA: Schema = {
    "anyOf": [
        {"type": "string", "maxLength": SHORT_MAX},
        NUMBER_SCHEMA,
        {"type": "boolean"},
    ]
}
RECORD_SCHEMA: Schema = {
    "type": "object",
    "additionalProperties": SCALAR_SCHEMA,
    "maxProperties": MAX_COLUMNS,
}


def string_schema(most: int, least: int = 0) -> Schema:
    return {"type": "string", **({"minLength": least} if least else {}), "maxLength": most}


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and is_finite(value)


def is_scalar(value: object) -> bool:
    return isinstance(value, (str, bool)) or is_number(value)


class Kind:
    """One field kind. `check` returns every problem of a present value; `shown` is the value
    a template reads (the field's default when the value has the wrong shape)."""

    name: ClassVar[FieldKind]

    def schema(self, field: Field) -> Schema:
        raise NotImplementedError

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        raise NotImplementedError

    def shown(self, field: Field, value: object) -> Any:
        return value

    def repair(self, field: Field, node: dict[str, Any], where: str, fixes: list[str]) -> None:
        """Fix the field's value in `node` where that needs no guessing (most kinds: nothing)."""

    def dataset_slots(self, field: Field, node: dict[str, Any], where: str) -> list[DatasetSlot]:
        """The places in this field's value that name a dataset (most kinds: none)."""
        return []


class _Text(Kind):
    """A string of at most `most` characters (and at least `least`)."""

    most: ClassVar[int]
    least: ClassVar[int] = 0

    def schema(self, field: Field) -> Schema:
        return string_schema(self.most, self.least)

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        where = pointer(path)
        if not isinstance(value, str):
            return [Problem(where, "wrong_type", f"{field.name!r} is a string")]
        return self.check_text(field, value, where, in_item)

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        if len(value) > self.most:
            return [
                Problem(where, "too_large", f"{field.name!r} has at most {self.most} characters")
            ]
        return []

    def shown(self, field: Field, value: object) -> Any:
        if isinstance(value, str):
            return value
        return field.default if isinstance(field.default, str) else ""


class Str(_Text):
    """A short label (or a regular expression, when the field says so)."""

    name = "str"
    most, least = SHORT_MAX, 1

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        found = super().check_text(field, value, where, in_item)
        if not found and field.regex:
            problem = pattern_problem(value)
            if problem:
                return [Problem(where, "bad_value", problem)]
        return found


class Text(_Text):
    """Longer prose that may interpolate `{key}`."""

    name = "text"
    most = TEXT_MAX


class Md(_Text):
    """Markdown (sanitized when rendered)."""

    name = "md"
    most = MD_MAX


class Key(_Text):
    """A state key (bindings, action paths); `.field` inside a list item."""

    name = "key"
    most, least = KEY_MAX, 1

    def schema(self, field: Field) -> Schema:
        # A name, or ".field" in a list item: a grammar that let any text through let the
        # expert write " diet" for diet, which names nothing.
        return {"type": "string", "pattern": rf"^\.?{NAME_OF_KEY}$"}

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        found = super().check_text(field, value, where, in_item)
        if found or (in_item and ITEM_KEY.fullmatch(value)):
            return found
        if not NAME_PATTERN.fullmatch(value):
            return [Problem(where, "bad_value", f"{field.name!r} names a state key")]
        return []


class Data(_Text):
    """A dataset name."""

    name = "data"
    most, least = KEY_MAX, 1

    def schema(self, field: Field) -> Schema:
        return {"type": "string", "pattern": rf"^{NAME_OF_KEY}$"}

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        found = super().check_text(field, value, where, in_item)
        if not found and not NAME_PATTERN.fullmatch(value):
            return [Problem(where, "bad_value", f"{field.name!r} names a dataset")]
        return found

    def dataset_slots(self, field: Field, node: dict[str, Any], where: str) -> list[DatasetSlot]:
        return [(node, field.name, where)]


class Cond(_Text):
    """A condition (ui4a.expr): "key", "!key", "step=2"; ".field" inside a list item."""

    name = "cond"
    most, least = COND_MAX, 1

    def schema(self, field: Field) -> Schema:
        return shared("cond")

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        if len(value) > COND_MAX:
            return [Problem(where, "too_large", f"a condition has at most {COND_MAX} characters")]
        parsed = expr.parse_condition(value)
        if parsed is None and not (in_item and _item_condition(value)):
            return [Problem(where, "bad_value", 'a condition is "key", "!key" or "key=value"')]
        return []


def _item_condition(value: str) -> bool:
    return (
        value.startswith((".", "!."))
        and expr.parse_condition(value.replace(".", "", 1)) is not None
    )


class Url(_Text):
    """An https or data:image URL."""

    name = "url"
    most, least = URL_MAX, 1

    def schema(self, field: Field) -> Schema:
        return {"type": "string", "pattern": URL_PATTERN}

    def check_text(self, field: Field, value: str, where: str, in_item: bool) -> list[Problem]:
        if len(value) > URL_MAX or not SAFE_URL.fullmatch(value):
            return [Problem(where, "bad_value", "an image is an https: or data:image/ URL")]
        return []


class Enum(Kind):
    """One of the field's `values`."""

    name = "enum"

    def schema(self, field: Field) -> Schema:
        return {"enum": list(field.values)}

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        # bool is an int in Python; an enum of numbers must not accept true.
        if isinstance(value, bool) or value not in field.values:
            allowed = ", ".join(repr(v) for v in field.values)
            return [Problem(pointer(path), "bad_value", f"{field.name!r} is one of {allowed}")]
        return []

    def shown(self, field: Field, value: object) -> Any:
        ok = not isinstance(value, bool) and value in field.values
        return value if ok else field.default


class Num(Kind):
    """A finite number."""

    name = "num"

    def schema(self, field: Field) -> Schema:
        return dict(NUMBER_SCHEMA)

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        ok = is_number(value)
        return [] if ok else [Problem(pointer(path), "wrong_type", f"{field.name!r} is a number")]

    def shown(self, field: Field, value: object) -> Any:
        return value if is_number(value) else field.default


class Bool(Kind):
    """true or false."""

    name = "bool"

    def schema(self, field: Field) -> Schema:
        return {"type": "boolean"}

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        ok = isinstance(value, bool)
        return (
            [] if ok else [Problem(pointer(path), "wrong_type", f"{field.name!r} is true or false")]
        )

    def shown(self, field: Field, value: object) -> Any:
        return value is True


class Scalar(Kind):
    """A string, number or boolean."""

    name = "scalar"

    def schema(self, field: Field) -> Schema:
        return SCALAR_SCHEMA

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        where = pointer(path)
        if not is_scalar(value):
            return [Problem(where, "wrong_type", f"{field.name!r} is a string, number or bool")]
        if isinstance(value, str) and len(value) > SHORT_MAX:
            return [Problem(where, "too_large", f"at most {SHORT_MAX} characters")]
        return []


class Strs(Kind):
    """A short list of labels (at most the field's `max_items`)."""

    name: ClassVar[FieldKind] = "strs"

    def schema(self, field: Field) -> Schema:
        item = string_schema(SHORT_MAX, 1)
        return {"type": "array", "items": item, "maxItems": field.max_items}

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        where = pointer(path)
        if not isinstance(value, list):
            return [Problem(where, "wrong_type", f"{field.name!r} is a list of strings")]
        found: list[Problem] = []
        if len(value) > field.max_items:
            found.append(Problem(where, "too_large", f"at most {field.max_items} items"))
        for i, item in enumerate(value):
            at = pointer((*path, i))
            if not isinstance(item, str):
                found.append(Problem(at, "wrong_type", "a string"))
            else:
                found += self.check_item(item, at)
        return found

    def check_item(self, item: str, at: str) -> list[Problem]:
        if not item or len(item) > SHORT_MAX:
            return [Problem(at, "bad_value", f"1-{SHORT_MAX} characters")]
        return []

    def shown(self, field: Field, value: object) -> Any:
        items = value if isinstance(value, list) else []
        return [v for v in items[: field.max_items] if isinstance(v, str)]


class Filter(Strs):
    """A short list of filter clauses (ui4a.expr): "column=key", "column~key"."""

    name = "filter"

    def schema(self, field: Field) -> Schema:
        return {"type": "array", "items": shared("clause"), "maxItems": field.max_items}

    def check_item(self, item: str, at: str) -> list[Problem]:
        if expr.parse_clause(item) is None:
            return [Problem(at, "bad_value", 'a filter is "column=key" or "column~key"')]
        return super().check_item(item, at)


class Record(Kind):
    """An object of scalars (an item to append)."""

    name = "record"

    def schema(self, field: Field) -> Schema:
        return RECORD_SCHEMA

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        return check_record(value, path)


def check_record(value: object, path: Path) -> list[Problem]:
    """A record of a dataset or of an append action: a few named scalar values."""
    if not isinstance(value, dict):
        return [Problem(pointer(path), "wrong_type", "a record is an object of scalar values")]
    found: list[Problem] = []
    if len(value) > MAX_COLUMNS:
        found.append(Problem(pointer(path), "too_large", f"at most {MAX_COLUMNS} fields"))
    for key, item in value.items():
        at = pointer((*path, key))
        if not NAME_PATTERN.fullmatch(key):
            found.append(Problem(at, "bad_value", "a field name is a word"))
        if not is_scalar(item) and item is not None:
            found.append(Problem(at, "wrong_type", "record values are strings, numbers, bools"))
        elif isinstance(item, str) and len(item) > SHORT_MAX:
            found.append(Problem(at, "too_large", f"at most {SHORT_MAX} characters"))
    return found


class Action(Kind):
    """An action object, or a list of up to MAX_ACTIONS (ui4a.actions)."""

    name = "action"

    def schema(self, field: Field) -> Schema:
        return {"$ref": "#/$defs/on"}

    def check(self, field: Field, value: object, path: Path, in_item: bool) -> list[Problem]:
        if isinstance(value, list):
            if not value or len(value) > actions.MAX_ACTIONS:
                return [Problem(pointer(path), "too_large", f"1-{actions.MAX_ACTIONS} actions")]
            found: list[Problem] = []
            for i, one in enumerate(value):
                found += _check_action(one, (*path, i), in_item)
            return found
        return _check_action(value, path, in_item)

    def repair(self, field: Field, node: dict[str, Any], where: str, fixes: list[str]) -> None:
        on = node.get(field.name)
        if isinstance(on, dict):
            node[field.name] = _spell_out(on, f"{where}/{field.name}", fixes)
        elif isinstance(on, list):
            node[field.name] = [
                _spell_out(one, f"{where}/{field.name}/{i}", fixes)
                if isinstance(one, dict)
                else one
                for i, one in enumerate(on)
            ]

    def dataset_slots(self, field: Field, node: dict[str, Any], where: str) -> list[DatasetSlot]:
        at = f"{where}/{field.name}"
        on = node.get(field.name)
        return [
            (one, "path", f"{at}/{i}" if isinstance(on, list) else at)
            for i, one in enumerate(actions.as_list(on))
            if isinstance(one, dict) and one.get("do") == "append"
        ]


def _check_action(value: object, path: Path, in_item: bool) -> list[Problem]:
    where = pointer(path)
    if not isinstance(value, dict):
        return [Problem(where, "wrong_type", 'an action is an object like {"do":"set",...}')]
    if "do" not in value:
        return [Problem(pointer((*path, "do")), "missing_field", 'an action needs "do"')]
    action = actions.get(value["do"])
    if action is None:
        known = ", ".join(actions.ACTIONS)
        return [Problem(pointer((*path, "do")), "unknown_action", f"known actions: {known}")]
    found = unknown_keys(value, ("do", *(f.name for f in action.fields)), path)
    for field in action.fields:
        if field.name in value:
            found += check(field, value[field.name], (*path, field.name), in_item)
        elif field.required:
            found.append(
                Problem(
                    pointer((*path, field.name)),
                    "missing_field",
                    f"{action.name!r} needs {field.name!r}",
                )
            )
    return found


def _spell_out(on: dict[str, Any], where: str, fixes: list[str]) -> dict[str, Any]:
    """{"toggle":"open"} and {"set":"k","value":v} are unambiguous shorthands."""
    if "do" in on:
        return on
    verbs = [name for name in actions.ACTIONS if isinstance(on.get(name), str)]
    if len(verbs) != 1:
        return on
    on["path"] = on.pop(verbs[0])
    fixes.append(f"{where}: spelled out the {verbs[0]!r} action")
    return {"do": verbs[0], **on}


def unknown_keys(obj: Mapping[str, Any], allowed: Iterable[str], path: Path) -> list[Problem]:
    known = set(allowed)
    return [
        Problem(pointer((*path, key)), "unknown_field", f"unknown property {key!r}")
        for key in obj
        if key not in known
    ]


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Str(),
        Text(),
        Key(),
        Enum(),
        Action(),
        Scalar(),
        Num(),
        Bool(),
        Strs(),
        Data(),
        Cond(),
        Filter(),
        Md(),
        Url(),
        Record(),
    )
}


def kind_of(field: Field) -> Kind:
    return KINDS[field.kind]


def check(field: Field, value: object, path: Path, in_item: bool = False) -> list[Problem]:
    """Every problem of `value` as the field's value, at `path`."""
    return KINDS[field.kind].check(field, value, path, in_item)
