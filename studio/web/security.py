"""The studio's Content-Security-Policies, each built by `ui4a.policy.policy_for`.

The preview is a srcdoc frame, and srcdoc documents inherit their parent's policy on top of
their own; so the studio allows exactly the view's inline scripts and styles (as listed by
`ui4a.assets`) and its own import map by hash, and nothing else inline.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from asgiref.sync import markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from studio.web import importmap
from ui4a.policy import Surface, policy_for


def studio_policy() -> str:
    """The view's inline scripts and style (for the srcdoc preview) and the page's import map
    are allowed by hash; the page's own modules come from 'self'."""
    return policy_for(Surface.STUDIO_PAGE, page_scripts=[importmap.import_map()])


def view_policy(*, frame_ancestors: Sequence[str] | str = "'none'") -> str:
    """A standalone view's header policy: its meta policy's rules (no network, our runtime
    only), no framing (or only by `frame_ancestors`: origins, or 'self' for the projects page's
    thumbnails), and a CSP sandbox so even a top-level view gets an opaque origin."""
    return policy_for(Surface.VIEW_HEADER, frame_ancestors=frame_ancestors)


class ContentSecurityPolicyMiddleware:
    """Async-capable, so it never pushes async views into a worker thread (where a client's
    disconnect could not cancel them; see `studio.web.static_files`)."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponse]]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.setdefault("Content-Security-Policy", studio_policy())
        return response
