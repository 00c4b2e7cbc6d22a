"""Turns model text into what the preview shows, and a project's spec into the document every
surface serves, through the one ui4a renderer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ui4a
from ui4a.policy import Surface

if TYPE_CHECKING:
    from studio.models import Project


@dataclass
class FinalView:
    spec: dict[str, Any] | None
    problems: list[dict[str, Any]] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    error: str = ""


def view_payload(text: str, *, final_spec: dict[str, Any] | None = None) -> dict[str, Any]:
    """The body HTML and initial state for the frame: the final spec, or the partial text."""
    spec = final_spec if final_spec is not None else _partial_spec(text)
    if spec is None:
        return {"html": "", "state": {}}
    try:
        html = ui4a.render_body(spec, partial=final_spec is None)
    except ui4a.SpecTooLarge as exc:
        return {"html": "", "state": {}, "view_error": str(exc)}
    state = spec.get("state")
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
    project: Project, spec: dict[str, Any] | None, *, surface: Surface = Surface.VIEW_META
) -> str:
    """The standalone document of one of `project`'s specs. Every server-side render of a
    project's spec comes through here (the studio's first paint, the projects page's thumbnail,
    the exported file, published widgets), so what the project brings to a render (its
    datasets' rows, resolved into the spec's queries) reaches every surface alike.
    `surface` is the document's meta policy: a served view's, or an exported file's.
    Raises ui4a.SpecTooLarge for a spec over the renderer's limits."""
    return ui4a.render_document(spec, title=project.name, surface=surface)
