"""A finished generation whose spec holds `1e400` (read as inf) or NaN was saved as is, and the
row's save failed SQLite's JSON_VALID: the final view's spec is strict JSON now, and renders."""

from __future__ import annotations

import json

import ui4a
from studio.rendered_views import finalize_view


def test_a_final_view_with_non_finite_numbers_is_strict_json() -> None:
    text = (
        '{"root":{"t":"page","c":[{"t":"progress","label":"P","value":1e400,"max":0.5}]},'
        '"state":{"x":NaN,"y":-Infinity}}'
    )
    final = finalize_view(text, finish_reason="stop")
    assert final.spec is not None
    json.dumps(final.spec, allow_nan=False)  # what JSON_VALID and jsonb accept
    assert final.spec["state"]["x"] == 0 and any("replaced inf" in f for f in final.fixes)
    assert "100%" in ui4a.render_body(final.spec)
