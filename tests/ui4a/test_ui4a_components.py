"""The component catalog: every component is a complete folder of its own (a meta-test)."""

from __future__ import annotations

import json

import pytest

from ui4a import assets, render_body, repair, validate
from ui4a.registry import (
    COMPONENTS_DIR,
    REQUIRED_FILES,
    component_dirs,
    components,
    example_path,
    optional_files,
)


def test_it_finds_the_components() -> None:
    assert {
        "page",
        "stack",
        "row",
        "card",
        "heading",
        "text",
        "input",
        "checkbox",
        "button",
    } <= set(components())


def test_it_has_no_half_made_component_folders() -> None:
    folders = {p.name for p in COMPONENTS_DIR.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == {p.name for p in component_dirs()}


@pytest.mark.parametrize("name", sorted(components()))
def test_it_has_a_schema_template_example_and_interaction(name: str) -> None:
    for required in REQUIRED_FILES:
        assert (COMPONENTS_DIR / name / required).is_file(), f"{name} lacks {required}"
    assert components()[name].doc


@pytest.mark.parametrize("name", sorted(components()))
def test_it_has_exactly_the_optional_pieces_it_declares(name: str) -> None:
    for piece, declared in optional_files(components()[name]).items():
        there = (COMPONENTS_DIR / name / piece).is_file()
        assert there == declared, (
            f"{name} {'lacks' if declared else 'has an undeclared'} {piece}"
            f" (COMPONENT declares has_{piece.split('.')[0]}={declared})"
        )


def test_it_has_no_stray_files_in_component_folders() -> None:
    known = {*REQUIRED_FILES, "view.py", "behaviour.js", "style.css", "__init__.py"}
    for folder in component_dirs():
        stray = {
            p.name
            for p in folder.iterdir()
            if p.name not in known and p.name != "__pycache__" and not p.name.startswith("example")
        }
        assert not stray, f"{folder.name} has files no piece names: {sorted(stray)}"


def test_it_joins_every_behaviour_and_style_into_the_one_script_and_stylesheet() -> None:
    runtime, css = assets.runtime_js(), assets.view_css()
    assert assets.PARTS_MARK not in runtime
    for name in components():
        for piece, text in (("behaviour.js", runtime), ("style.css", css)):
            path = COMPONENTS_DIR / name / piece
            if path.is_file():
                assert f"/* {name}/{piece} */\n" + path.read_text() in text


@pytest.mark.parametrize("name", sorted(components()))
def test_it_has_an_example_that_is_valid_and_uses_it(name: str) -> None:
    example = json.loads(example_path(components()[name]).read_text())
    assert validate(example) == []
    assert repair(example).problems == []
    assert f'class="u4-{name}' in render_body(example) or name in {"checkbox", "input"}
    used = {n["t"] for n in _nodes(example["root"])}
    assert name in used


def _nodes(node: dict[str, object]) -> list[dict[str, object]]:
    kids = node.get("c")
    below = [n for kid in kids for n in _nodes(kid)] if isinstance(kids, list) else []
    return [node, *below]


@pytest.mark.parametrize("name", sorted(components()))
def test_children_that_pair_with_labels_say_which_labels(name: str) -> None:
    """A container whose child i belongs to its label i names that list of labels: a stage
    that hides a copied child (inference/serving/staged_decode.py) leaves its children alone."""
    component = components()[name]
    labels = component.children_labelled_by
    assert ("child i" in component.doc) == bool(labels)
    if labels:
        assert component.children
        field = component.field(labels)
        assert field is not None and field.kind == "strs"
