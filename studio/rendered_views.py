"""Turns model text into what the preview shows, and a project's spec into the document every
surface serves, through the one ui4a renderer."""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ui4a
from studio.stored_tables import project_tables
from ui4a.policy import Surface
from ui4a.queries import Result
from ui4a.tables import Table

if TYPE_CHECKING:
    from studio.models import Project


# A stream's memo of evaluated queries (`ui4a.resolve_data`'s `cache`).
ResolveCache = MutableMapping[str, tuple[Table, Result]]


@dataclass
class FinalView:
    spec: dict[str, Any] | None
    problems: list[dict[str, Any]] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    error: str = ""


def with_data(
    spec: dict[str, Any] | None,
    tables: Mapping[str, Table] | None,
    *,
    partial: bool = False,
    cache: ResolveCache | None = None,
) -> dict[str, Any] | None:
    """The spec with its queries over the project's datasets replaced by their rows (`tables`
    None: a view with no project, such as an API generation's, whose queries show a note)."""
    if spec is None:
        return None
    grounded = ui4a.ground_names(spec, tables or {}).spec  # names the model nearly got right
    resolved = ui4a.resolve_data(grounded, tables or {}, partial=partial, cache=cache).spec
    return resolved if isinstance(resolved, dict) else spec


def view_payload(
    text: str,
    *,
    final_spec: dict[str, Any] | None = None,
    tables: Mapping[str, Table] | None = None,
    cache: ResolveCache | None = None,
) -> dict[str, Any]:
    """The body HTML and initial state for the frame: the final spec, or the partial text, with
    its queries resolved against `tables` (`cache`: one per stream, so each query runs once)."""
    partial = final_spec is None
    spec = final_spec if final_spec is not None else _partial_spec(text)
    if spec is None:
        return {"html": "", "state": {}}
    try:
        spec = with_data(spec, tables, partial=partial, cache=cache)
        html = ui4a.render_body(spec, partial=partial)
    except ui4a.SpecTooLarge as exc:
        return {"html": "", "state": {}, "view_error": str(exc)}
    state = spec.get("state") if spec is not None else None
    return {"html": html, "state": state if isinstance(state, dict) else {}}


def _partial_spec(text: str) -> dict[str, Any] | None:
    try:
        return ui4a.parse_partial(text)
    except ui4a.SpecTooLarge:
        return None


def finalize_view(text: str, *, finish_reason: str) -> FinalView:
    """Parse, repair and validate a finished ui generation; nothing here raises."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    error = ""
    if finish_reason == "length":
        error = "The spec was cut off at the token limit; what arrived was repaired."
    if not isinstance(parsed, dict):
        try:
            parsed = ui4a.parse_partial(text)
        except ui4a.SpecTooLarge as exc:
            return FinalView(None, error=str(exc))
        if parsed is None:
            return FinalView(None, error=error or "The model returned no usable spec.")
    try:
        repaired = ui4a.repair(parsed)
    except ui4a.SpecTooLarge as exc:
        return FinalView(None, error=str(exc))
    return FinalView(
        repaired.spec,
        problems=[problem.as_dict() for problem in repaired.problems],
        fixes=[str(fix) for fix in repaired.fixes],
        error=error,
    )


def project_document(
    project: Project,
    spec: dict[str, Any] | None,
    *,
    surface: Surface = Surface.VIEW_META,
    host: Mapping[str, object] | None = None,
) -> str:
    """The standalone document of one of `project`'s specs. Every server-side render of a
    project's spec comes through here (the studio's first paint, the projects page's thumbnail,
    the exported file, published widgets), so what the project brings to a render (its
    datasets' rows, resolved into the spec's queries) reaches every surface alike.
    `surface` is the document's meta policy: a served view's, or an exported file's; `host`
    makes it a published widget's (`ui4a.render_document`).
    Raises ui4a.SpecTooLarge for a spec over the renderer's limits."""
    spec = with_data(spec, project_tables(project))
    return ui4a.render_document(spec, title=project.name, surface=surface, host=host)
