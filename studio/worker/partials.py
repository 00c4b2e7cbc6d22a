"""The views a run renders: the partial one each studio batch carries, and the final one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ui4a
from studio.models import Generation, Project
from studio.rendered_views import (
    FinalView,
    ResolveCache,
    finalize_view,
    view_payload,
    with_data,
)
from studio.stored_tables import project_tables
from studio.worker.refinement import Basis, final_of, preview_spec
from ui4a.tables import Table


def partial_view(
    generation: Generation,
    text: str,
    basis: Basis | None = None,
    *,
    tables: Mapping[str, Table] | None = None,
    cache: ResolveCache | None = None,
) -> dict[str, Any]:
    """The partial view's fields for a batch; only the studio draws them, API callers get the
    text alone. A targeted refinement shows the whole view with the partial element in place.
    Queries are resolved against the project's `tables`, each once per stream (`cache`)."""
    if not (generation.structured and generation.project_id):
        return {}
    if basis is None or not basis.target:
        return view_payload(text, tables=tables, cache=cache)
    try:
        spec = preview_spec(basis, ui4a.parse_partial(text))
        spec = with_data(spec, tables, partial=True, cache=cache)
        html = ui4a.render_body(spec, partial=True) if spec is not None else ""
    except ui4a.SpecTooLarge as exc:
        return {"html": "", "state": {}, "view_error": str(exc)}
    state = spec.get("state") if spec is not None else None
    return {"html": html, "state": state if isinstance(state, dict) else {}}


def stream_tables(generation: Generation) -> dict[str, Table]:
    """The datasets a studio ui generation's preview resolves its queries against."""
    if not (generation.structured and generation.project_id):
        return {}
    project = Project.objects.filter(pk=generation.project_id).first()
    return project_tables(project) if project is not None else {}


def final_view(
    text: str,
    *,
    finish_reason: str,
    basis: Basis | None = None,
    tables: Mapping[str, Table] | None = None,
) -> FinalView:
    """The stored result: repaired, spliced into the base of a targeted refinement, and its
    queries' names grounded in the project's datasets (`ui4a.ground_names`), fixes listed."""
    final = finalize_view(text, finish_reason=finish_reason)
    final = final_of(basis, final) if basis is not None else final
    if final.spec is not None and tables:
        grounded = ui4a.ground_names(final.spec, tables)
        final.spec = grounded.spec
        final.fixes += grounded.fixes
    return final
