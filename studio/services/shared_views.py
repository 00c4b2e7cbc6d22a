"""The rendered view of an API ui generation, behind a signed, unguessable URL.

Browsers cannot send Bearer keys, so the view URL itself is the capability: whoever holds it
sees the view (like an unlisted link), and nobody can derive one from a generation id. The
capability is bounded twice: its signature carries when it was made and expires after
MACARON_API_VIEW_MAX_AGE_SECONDS, and it dies with the API key the generation was made with.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing

import ui4a
from studio.errors import NotFound
from studio.models import Generation

SALT = "macaron.api.view"
NOT_FOUND = "No view at that address."


def view_token_for(*, generation_id: uuid.UUID) -> str:
    # signing.dumps signs with a timestamp, which loads(max_age=...) checks.
    return signing.dumps(str(generation_id), salt=SALT, compress=False)


def view_document_for(*, token: str) -> str:
    """The standalone HTML document of the generation's final, repaired spec, while the token
    is young enough and the generation's API key is not revoked."""
    try:
        generation_id = uuid.UUID(
            signing.loads(token, salt=SALT, max_age=settings.MACARON_API_VIEW_MAX_AGE_SECONDS)
        )
    except signing.SignatureExpired:
        raise NotFound(
            "view_expired",
            "This view link has expired; retrieve the completion again for a fresh view_url.",
        ) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise NotFound("view_not_found", NOT_FOUND) from None
    found = (
        Generation.objects.filter(pk=generation_id, structured=True, spec__isnull=False)
        .values_list("spec", "api_key__revoked")
        .first()
    )
    if found is None:
        raise NotFound("view_not_found", NOT_FOUND)
    spec, key_revoked = found
    if key_revoked is None:  # a studio generation: view URLs are handed out for API ones only
        raise NotFound("view_not_found", NOT_FOUND)
    if key_revoked:
        raise NotFound("view_revoked", "This view's API key has been revoked.")
    return ui4a.render_document(spec)
