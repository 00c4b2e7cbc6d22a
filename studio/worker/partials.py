"""The views a run renders: the partial one each studio batch carries, and the final one."""

from __future__ import annotations

from typing import Any

from studio.models import Generation
from studio.rendered_views import FinalView, finalize_view, view_payload


def partial_view(generation: Generation, text: str) -> dict[str, Any]:
    """The partial view's fields for a batch; only the studio draws them, API callers get the
    text alone."""
    if generation.structured and generation.project_id:
        return view_payload(text)
    return {}


def final_view(text: str, *, finish_reason: str) -> FinalView:
    return finalize_view(text, finish_reason=finish_reason)
