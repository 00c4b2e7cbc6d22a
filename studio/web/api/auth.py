"""Who is calling the API: the key from `Authorization: Bearer` (or the query, where the
service allows it), and that key as a REPL owner. Raises NotAuthenticated (401)."""

from __future__ import annotations

from django.http import HttpRequest

from studio.models import ApiKey
from studio.services.api_keys import api_key_authenticate
from studio.services.repl import repl_owner_for_key


def request_key(request: HttpRequest) -> ApiKey:
    return api_key_authenticate(
        authorization=request.headers.get("Authorization", ""), query=request.GET.dict()
    )


def request_repl_owner(request: HttpRequest) -> str:
    return repl_owner_for_key(request_key(request))
