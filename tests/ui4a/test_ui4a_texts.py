"""Strings a spec may hold: only what UTF-8 can carry (ui4a/texts.py)."""

from __future__ import annotations

import json

from ui4a import parse_partial, render_document, repair


def test_unpaired_surrogate_escapes_become_replacement_characters() -> None:
    """`"\\ud800"` is valid JSON and reads as a str no UTF-8 encoder takes: the sanitizer, the
    HTTP response and the database would all raise on it."""
    text = (
        '{"root":{"t":"page","c":[{"t":"markdown","md":"a \\ud83d b"},'
        '{"t":"text","text":"\\udc00"}]},"state":{"\\ud800k":1}}'
    )
    parsed = parse_partial(text)
    assert parsed is not None
    render_document(parsed).encode("utf-8")
    assert parsed["root"]["c"][0]["md"] == "a \ufffd b"
    assert "\ufffdk" in parsed["state"]
    raw = json.loads(text)
    repaired = repair(raw)
    assert repaired.spec is not None
    assert repaired.spec["root"]["c"][1]["text"] == "\ufffd"
    assert any("surrogate" in fix for fix in repaired.fixes)
