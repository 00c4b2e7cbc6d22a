"""The views a run renders: the partial one each studio batch carries, and the final one."""

from __future__ import annotations

from typing import Any

import ui4a
from studio.models import Generation
from studio.rendered_views import FinalView, finalize_view, view_payload
from studio.worker.refinement import Basis, final_of, preview_spec


def partial_view(generation: Generation, text: str, basis: Basis | None = None) -> dict[str, Any]:
    """The partial view's fields for a batch; only the studio draws them, API callers get the
    text alone. A targeted refinement shows the whole view with the partial element in place."""
    if not (generation.structured and generation.project_id):
        return {}
    if basis is None or not basis.target:
        return view_payload(text)
    try:
        spec = preview_spec(basis, ui4a.parse_partial(text))
        html = ui4a.render_body(spec, partial=True) if spec is not None else ""
    except ui4a.SpecTooLarge as exc:
        return {"html": "", "state": {}, "view_error": str(exc)}
    state = spec.get("state") if spec is not None else None
    return {"html": html, "state": state if isinstance(state, dict) else {}}


def final_view(text: str, *, finish_reason: str, basis: Basis | None = None) -> FinalView:
    final = finalize_view(text, finish_reason=finish_reason)
    return final_of(basis, final) if basis is not None else final
