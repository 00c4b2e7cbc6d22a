"""axe-core (installed from npm, pinned) finds no serious or critical violation in any docs
example, in light and dark mode."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from ui4a import assets, render_document
from ui4a.registry import components, example_path

pytestmark = pytest.mark.browser


def axe_violations(page: Page) -> list[dict[str, Any]]:
    # Evaluated over the DevTools protocol, so the view's CSP does not have to allow it.
    page.evaluate(assets.axe_path().read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["html"] for n in v["nodes"]][:3]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# Dark mode on the components with the most colour in them (the machine is small).
DARK = ["alert", "badge", "chart", "form", "stat", "table", "tabs"]
CASES = [(name, "light") for name in sorted(components())] + [(name, "dark") for name in DARK]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_it_has_no_serious_accessibility_violations(name: str, mode: str, page: Page) -> None:
    example = json.loads(example_path(components()[name]).read_text())
    example["theme"] = {"mode": mode}
    page.set_content(render_document(example))
    assert axe_violations(page) == []
