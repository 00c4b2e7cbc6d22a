"""The rendered view of an API ui generation, behind a signed, unguessable URL.

Browsers cannot send Bearer keys, so the view URL itself is the capability: whoever holds it
sees the view (like an unlisted link), and nobody can derive one from a generation id.
"""

from __future__ import annotations

import uuid

from django.core import signing

import ui4a
from studio.errors import NotFound
from studio.models import Generation

SALT = "macaron.api.view"


def view_token_for(*, generation_id: uuid.UUID) -> str:
    return signing.dumps(str(generation_id), salt=SALT, compress=False)


def view_document_for(*, token: str) -> str:
    """The standalone HTML document of the generation's final, repaired spec."""
    try:
        generation_id = uuid.UUID(signing.loads(token, salt=SALT))
    except (signing.BadSignature, ValueError, TypeError):
        raise NotFound("view_not_found", "No view at that address.") from None
    spec = (
        Generation.objects.filter(pk=generation_id, structured=True, spec__isnull=False)
        .values_list("spec", flat=True)
        .first()
    )
    if spec is None:
        raise NotFound("view_not_found", "No view at that address.")
    return ui4a.render_document(spec)
