"""Published widgets: publish a version (or the project's latest), change where it may be
framed, unpublish it, and render its public page.

`widget_page` is the one function that turns a widget into the HTML a visitor gets, and
`widget_spec` the one place that decides which spec it shows (so the datasets work resolves a
project's tables in there, once, for every widget render).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from studio.errors import Gone, InvalidRequest, NotFound
from studio.models import Project, Version, Widget
from studio.rendered_views import project_document
from studio.services.widget_origins import origin_normalise, origins_clean

MAX_LIVE_WIDGETS_PER_PROJECT = 20
MAX_EVENT_BUTTONS = 20
MAX_BUTTON_LABEL_CHARS = 80
UNPUBLISHED = "This widget was unpublished by its owner."


class WidgetUnpublished(Gone):
    """410. Carries the origins it allowed, so its host page may still show why it is blank."""

    def __init__(self, frame_ancestors: list[str]) -> None:
        super().__init__("widget_unpublished", UNPUBLISHED)
        self.frame_ancestors = frame_ancestors


@dataclass(frozen=True)
class WidgetPage:
    """A widget's public document, and the origins its header may let frame it."""

    html: str
    frame_ancestors: list[str]


def widget_publish(
    *,
    project: Project,
    version_id: uuid.UUID | None,
    allowed_origins: object,
    published_by: Any,
    event_buttons: object = None,
) -> Widget:
    """Publish `version_id` of the project, or (None) whatever version is current when viewed."""
    origins = origins_clean(allowed_origins)
    buttons = event_buttons_clean(event_buttons)
    version: Version | None = None
    if version_id is not None:
        version = project.versions.filter(pk=version_id).first()
        if version is None:
            raise NotFound("unknown_version", "That version is not one of this project's.")
    elif project.current_version_id is None:
        raise InvalidRequest("no_version", "This project has no version to publish yet.")
    with transaction.atomic():
        # Counted under the project's lock, so two publishes cannot both pass the limit.
        Project.objects.select_for_update().filter(pk=project.pk).first()
        live = project.widgets.filter(unpublished_at__isnull=True).count()
        if live >= MAX_LIVE_WIDGETS_PER_PROJECT:
            raise InvalidRequest(
                "too_many_widgets",
                f"A project has at most {MAX_LIVE_WIDGETS_PER_PROJECT} published widgets; "
                "unpublish one first.",
            )
        user = published_by if getattr(published_by, "is_authenticated", False) else None
        return Widget.objects.create(
            project=project,
            version=version,
            allowed_origins=origins,
            event_buttons=buttons,
            published_by=user,
        )


def widget_update(
    *, widget: Widget, allowed_origins: object = None, event_buttons: object = None
) -> Widget:
    """Change where it may be framed and which buttons' clicks its host hears (None: keep);
    both are checked before either is written, and take effect on the next page load."""
    if not widget.live:
        raise Gone("widget_unpublished", UNPUBLISHED)
    fields = []
    if allowed_origins is not None:
        widget.allowed_origins = origins_clean(allowed_origins)
        fields.append("allowed_origins")
    if event_buttons is not None:
        widget.event_buttons = event_buttons_clean(event_buttons)
        fields.append("event_buttons")
    if fields:
        # Only these columns: a concurrent view's count is never written back.
        widget.save(update_fields=fields)
    return widget


def event_buttons_clean(values: object) -> list[str]:
    """Button labels, as the view shows them: trimmed, de-duplicated, bounded."""
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InvalidRequest("bad_buttons", "'buttons' must be a list of button labels.")
    if len(values) > MAX_EVENT_BUTTONS:
        raise InvalidRequest("bad_buttons", f"At most {MAX_EVENT_BUTTONS} buttons send events.")
    clean: list[str] = []
    for value in values:
        label = " ".join(value.split())
        if not label or len(label) > MAX_BUTTON_LABEL_CHARS:
            raise InvalidRequest(
                "bad_buttons", f"A button label has 1 to {MAX_BUTTON_LABEL_CHARS} characters."
            )
        if label not in clean:
            clean.append(label)
    return clean


def widget_unpublish(*, widget: Widget) -> Widget:
    """Revokes it at once: the next request for its page is a 410. Unpublishing twice is a no-op."""
    if widget.live:
        widget.unpublished_at = timezone.now()
        widget.save(update_fields=["unpublished_at"])
    return widget


def widget_spec(widget: Widget) -> dict[str, Any] | None:
    """The spec a widget shows: its pinned version, or the project's current one (its queries
    are resolved against the project's datasets as they are now, by `project_document`)."""
    version = widget.version if widget.version_id is not None else widget.project.current_version
    return version.spec if version is not None else None


def widget_page(*, public_id: str, host: str | None = None) -> WidgetPage:
    """The widget's standalone document, counted as one view.

    `host` (the embed's `?host=`) names which allowed origin framed it; its events go there
    alone. With one allowed origin it may be left out. A host that is not allowed is refused:
    frame-ancestors would block that page anyway, and this says why.
    """
    widget = (
        Widget.objects.select_related("project__current_version", "version")
        .filter(public_id=public_id)
        .first()
    )
    if widget is None:
        raise NotFound("widget_not_found", "No widget at that address.")
    origins = list(widget.allowed_origins)
    if not widget.live:
        raise WidgetUnpublished(origins)
    target = _event_target(origins, host)
    spec = widget_spec(widget)
    document = project_document(
        widget.project,
        spec,
        host={"widget": widget.public_id, "origin": target, "buttons": list(widget.event_buttons)},
    )
    Widget.objects.filter(pk=widget.pk).update(view_count=F("view_count") + 1)
    return WidgetPage(html=document, frame_ancestors=origins)


def _event_target(origins: list[str], host: str | None) -> str | None:
    if host is None or host == "":
        return origins[0] if len(origins) == 1 else None
    try:
        origin = origin_normalise(host)
    except InvalidRequest as exc:
        raise InvalidRequest(
            "bad_host", f"The host parameter is not an origin: {exc.message}"
        ) from None
    if origin not in origins:
        raise InvalidRequest(
            "host_not_allowed", f"{origin} is not one of the sites allowed to embed this widget."
        )
    return origin


def frame_ancestors_source(origins: list[str]) -> str:
    """The `frame-ancestors` value: exactly the allowed origins, or 'none' (link-only)."""
    return " ".join(origins) if origins else "'none'"
