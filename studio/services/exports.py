"""A project version as files to download: a standalone HTML document that works from
`file://` with no server (everything inlined, a meta policy that allows no network at all),
and the spec itself as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.text import slugify

import ui4a
from studio.errors import TooLarge
from studio.models import Version
from studio.rendered_views import project_document
from ui4a.policy import Surface

FILENAME_STEM_MAX_CHARS = 60
FALLBACK_STEM = "macaron-view"  # for a name with nothing a filename can keep ("???", emoji)


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content: str
    content_type: str


def export_filename(*, project_name: str, number: int, extension: str) -> str:
    """A filename any system accepts: the project's name as ASCII words joined by hyphens,
    then the version ("Bike shop: sales!" v3 -> "bike-shop-sales-v3.html")."""
    stem = slugify(project_name)[:FILENAME_STEM_MAX_CHARS].strip("-_") or FALLBACK_STEM
    return f"{stem}-v{number}.{extension}"


def version_export_html(*, version: Version) -> ExportFile:
    """The version's view as one self-contained HTML file. Raises TooLarge for a spec over the
    renderer's limits (a stored version never is, unless the limits were lowered since)."""
    try:
        document = project_document(version.project, version.spec, surface=Surface.EXPORTED_FILE)
    except ui4a.SpecTooLarge as exc:
        raise TooLarge("spec_too_large", f"This version cannot be exported: {exc}") from None
    return ExportFile(
        filename=export_filename(
            project_name=version.project.name, number=version.number, extension="html"
        ),
        content=document,
        content_type="text/html; charset=utf-8",
    )


def version_export_json(*, version: Version) -> ExportFile:
    """The version's spec as readable JSON, as stored (a hand edit of it can be pasted back)."""
    return ExportFile(
        filename=export_filename(
            project_name=version.project.name, number=version.number, extension="json"
        ),
        content=json.dumps(version.spec, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
