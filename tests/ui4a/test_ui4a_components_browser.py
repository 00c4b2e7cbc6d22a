"""Every component's docs example, used in a real browser: the interaction in its folder's
interaction.py (the meta-test in test_ui4a_components.py fails when a folder lacks one)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from ui4a import render_document
from ui4a.registry import components, example_path, interaction_module


def interaction(name: str) -> Callable[[Page], None]:
    """A component's interaction: `interact` in its folder's interaction.py."""
    module = importlib.import_module(interaction_module(components()[name]))
    found: Callable[[Page], None] = module.interact
    return found


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(components()))
def test_it_brings_each_component_example_to_life(name: str, page: Page, errors: list[str]) -> None:
    example = json.loads(example_path(components()[name]).read_text())
    page.set_content(render_document(example))
    interaction(name)(page)
    assert errors == []
