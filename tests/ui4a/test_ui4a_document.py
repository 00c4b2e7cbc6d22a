"""The standalone view document: its strict CSP matches exactly what it inlines."""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path
from typing import Any

import pytest

from ui4a import assets, render_body, render_document


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def csp_of(doc: str) -> dict[str, list[str]]:
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', doc)
    assert meta is not None
    policy: dict[str, list[str]] = {}
    for directive in html.unescape(meta.group(1)).split(";"):
        name, *sources = directive.split()
        policy[name] = sources
    return policy


def test_it_allows_exactly_the_inlined_scripts_and_style(signup: dict[str, Any]) -> None:
    doc = render_document(signup)
    policy = csp_of(doc)
    scripts = re.findall(r"<script>(.*?)</script>", doc, re.S)
    styles = re.findall(r"<style>(.*?)</style>", doc, re.S)
    assert len(scripts) == 3 and len(styles) == 1
    assert policy["script-src"] == [sha(s) for s in scripts]
    assert policy["style-src"] == [sha(styles[0])]
    assert (
        scripts
        == assets.scripts()
        == [
            assets.idiomorph_js(),
            assets.chartjs_js(),
            assets.runtime_js(),
        ]
    )
    assert styles == assets.styles()


def test_it_has_a_strict_policy_before_anything_it_governs(signup: dict[str, Any]) -> None:
    doc = render_document(signup)
    policy = csp_of(doc)
    assert policy["default-src"] == ["'none'"]
    assert policy["connect-src"] == ["'none'"]
    assert policy["img-src"] == ["data:"]  # no remote image unless the operator allows one
    assert policy["form-action"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert "unsafe" not in doc.split("<style>")[0]
    assert doc.index("Content-Security-Policy") < doc.index("<style>")


def test_it_embeds_the_body_and_state(signup: dict[str, Any]) -> None:
    signup["state"]["name"] = "Ada"
    doc = render_document(signup)
    assert f'<main id="ui4a-root">{render_body(signup)}</main>' in doc
    assert '"name":"Ada"' in doc
    assert "<title>Sign up</title>" in doc
    assert "Welcome, Ada!" in doc


def test_it_renders_an_empty_shell_for_no_spec() -> None:
    doc = render_document(None, title="Loading")
    assert '<main id="ui4a-root"></main>' in doc
    assert '<script type="application/json" id="ui4a-state">{}</script>' in doc
    assert "<title>Loading</title>" in doc


def test_it_reads_idiomorph_from_node_modules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert "Idiomorph" in assets.idiomorph_js()
    assert assets.idiomorph_path().is_relative_to(assets.PROJECT_ROOT / "node_modules")
    fake = tmp_path / "idiomorph" / "dist" / "idiomorph.js"
    fake.parent.mkdir(parents=True)
    fake.write_text("var Idiomorph = {};")
    monkeypatch.setenv("MACARON_NODE_MODULES", str(tmp_path))
    assert assets.idiomorph_js() == "var Idiomorph = {};"
    monkeypatch.setenv("MACARON_NODE_MODULES", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="npm ci"):
        assets.idiomorph_js()


def test_it_renders_server_side_what_the_runtime_would_show(scan: Any) -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [
                {"t": "text", "text": "{n} done, {flag}", "if": "flag"},
                {"t": "text", "text": "hidden", "if": "!flag"},
                {"t": "checkbox", "label": "Flag", "bind": "flag"},
                {"t": "input", "label": "N", "bind": "n"},
            ],
        },
        "state": {"n": 2.0, "flag": True},
    }
    tags = scan(render_body(spec)).tags
    assert "2 done, true" in render_body(spec)
    by_id = {attrs["id"]: attrs for _, attrs in tags if "id" in attrs}
    assert "hidden" not in by_id["u4-r-0"] and "hidden" in by_id["u4-r-1"]
    assert "checked" in by_id["u4-r-2-input"]
    assert by_id["u4-r-3-input"]["value"] == "2"
    labels = [attrs["for"] for tag, attrs in tags if tag == "label"]
    assert labels == ["u4-r-2-input", "u4-r-3-input"]
