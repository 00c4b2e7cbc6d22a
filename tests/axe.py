"""axe-core in a Playwright page: the serious and critical violations, for browser tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from ui4a import assets


def axe_violations(page: Page, *, iframes: bool = True) -> list[dict[str, Any]]:
    """Run axe on the page (evaluated over the DevTools protocol, so no page's CSP has to allow
    it); `iframes=False` checks the page alone, not the views framed in it."""
    page.evaluate(assets.axe_path().read_text(encoding="utf-8"))
    options = {"iframes": iframes, "resultTypes": ["violations"]}
    result: dict[str, Any] = page.evaluate(
        "async (options) => await axe.run(document, options)", options
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["html"] for n in v["nodes"]][:3]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
