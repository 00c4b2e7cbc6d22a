"""API keys: created once and shown once, stored as a sha256, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.db import IntegrityError, transaction

from studio.errors import NotAuthenticated, NotFound
from studio.models import ApiKey

KEY_MARK = "mk-"  # makes leaked keys easy to spot (and to refuse in URLs)
PREFIX_LENGTH = 12  # the mark plus 9 random characters: shown, stored, used to find the row
QUERY_NAMES = frozenset({"key", "api_key", "apikey", "api-key", "access_token", "token"})


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def api_key_create(*, name: str = "") -> tuple[ApiKey, str]:
    """A new key; the plain key is returned here and nowhere else, ever."""
    for _ in range(5):
        key = KEY_MARK + secrets.token_urlsafe(32)
        try:
            with transaction.atomic():
                api_key = ApiKey.objects.create(
                    name=name, prefix=key[:PREFIX_LENGTH], key_hash=_digest(key)
                )
        except IntegrityError:  # a prefix collision: draw again
            continue
        return api_key, key
    raise RuntimeError("could not draw a unique key prefix")


def api_key_revoke(*, prefix: str) -> ApiKey:
    api_key = ApiKey.objects.filter(prefix=prefix[:PREFIX_LENGTH]).first()
    if api_key is None:
        raise NotFound("unknown_key", f"No API key has the prefix {prefix[:PREFIX_LENGTH]!r}.")
    api_key.revoked = True
    api_key.save(update_fields=["revoked"])
    return api_key


def api_key_authenticate(*, authorization: str, query: dict[str, str]) -> ApiKey:
    """The active key of an `Authorization: Bearer` header.

    A key in the query string is refused even next to a good header: URLs end up in logs and
    browser histories, so such a key must be treated as leaked.
    """
    if any(
        name.lower() in QUERY_NAMES or value.startswith(KEY_MARK) for name, value in query.items()
    ):
        raise NotAuthenticated(
            "key_in_url",
            "API keys are refused in the URL; send 'Authorization: Bearer <key>' instead, "
            "and revoke the key you sent.",
        )
    scheme, _, key = authorization.partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise NotAuthenticated("missing_key", "Send your API key as 'Authorization: Bearer <key>'.")
    api_key = ApiKey.objects.filter(prefix=key[:PREFIX_LENGTH]).first()
    # Hash even when no row matched, so a miss costs as long as a wrong secret.
    expected = api_key.key_hash if api_key is not None else _digest(KEY_MARK)
    if not hmac.compare_digest(_digest(key), expected) or api_key is None:
        raise NotAuthenticated("invalid_key", "The API key is not valid.")
    if api_key.revoked:
        raise NotAuthenticated("revoked_key", "The API key has been revoked.")
    return api_key
