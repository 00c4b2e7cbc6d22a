"""axe-core (installed from npm, pinned) finds no serious or critical violation in any docs
example, in light and dark mode."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from tests.axe import axe_violations
from ui4a import render_document
from ui4a.registry import components, example_path

pytestmark = pytest.mark.browser


# Dark mode on the components with the most colour in them (the machine is small).
DARK = ["alert", "badge", "chart", "form", "stat", "table", "tabs"]
CASES = [(name, "light") for name in sorted(components())] + [(name, "dark") for name in DARK]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_it_has_no_serious_accessibility_violations(name: str, mode: str, page: Page) -> None:
    example = json.loads(example_path(components()[name]).read_text())
    example["theme"] = {"mode": mode}
    page.set_content(render_document(example))
    assert axe_violations(page) == []
