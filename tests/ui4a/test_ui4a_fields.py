"""The field kinds: one class per kind in catalog.FieldKind, and every field resolves to one."""

from __future__ import annotations

from typing import get_args

from ui4a import actions, fields, validate
from ui4a.catalog import COMMON_FIELDS, Field, FieldKind
from ui4a.registry import components
from ui4a.theme import THEME_FIELDS


def test_it_has_one_kind_class_per_field_kind() -> None:
    assert set(fields.KINDS) == set(get_args(FieldKind))
    assert all(kind.name == name for name, kind in fields.KINDS.items())


def test_it_resolves_every_declared_field() -> None:
    declared = [*COMMON_FIELDS, *THEME_FIELDS]
    declared += [f for c in components().values() for f in c.fields]
    declared += [f for a in actions.ACTIONS.values() for f in a.fields]
    for field in declared:
        assert fields.kind_of(field).name == field.kind


def test_it_checks_a_value_by_its_kind_alone() -> None:
    label, key = Field("label", "str"), Field("bind", "key")
    assert fields.check(label, "Name", ("x",)) == []
    assert [p.code for p in fields.check(label, 3, ("x",))] == ["wrong_type"]
    assert [p.code for p in fields.check(key, "not a key", ("x",))] == ["bad_value"]
    assert fields.check(key, ".done", ("x",), in_item=True) == []
    # the validator reports exactly what the kind finds
    spec = {"root": {"t": "page", "c": [{"t": "text", "text": 3}]}}
    assert [p.path for p in validate(spec)] == ["/root/c/0/text"]
