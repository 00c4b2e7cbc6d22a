"""/v1/views/<token>: a view URL works for MACARON_API_VIEW_MAX_AGE_SECONDS after it is handed
out, and stops working the moment its API key is revoked; both answer in OpenAI's format."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core import signing
from django.test import Client

from studio.models import ApiKey, Generation
from studio.services.api_keys import api_key_create, api_key_revoke
from studio.services.shared_views import view_token_for
from tests.studio.conftest import NEWSLETTER_SPEC

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def api_key() -> ApiKey:
    return api_key_create(name="alice")[0]


@pytest.fixture
def generation(api_key: ApiKey) -> Generation:
    return Generation.objects.create(
        api_key=api_key,
        prompt="a newsletter signup",
        expert="ui",
        structured=True,
        status=Generation.Status.DONE,
        spec=json.loads(NEWSLETTER_SPEC.read_text()),
    )


def token_made_ago(monkeypatch: pytest.MonkeyPatch, generation: Generation, seconds: int) -> str:
    """A view token as if it had been handed out `seconds` ago (signing stamps the time)."""
    made_at = int(time.time()) - seconds
    with monkeypatch.context() as patch:
        patch.setattr(
            signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(made_at)
        )
        return view_token_for(generation_id=generation.id)


def test_it_shows_a_fresh_view(generation: Generation, client: Client) -> None:
    response = client.get(f"/v1/views/{view_token_for(generation_id=generation.id)}")
    assert response.status_code == 200
    assert "Join our newsletter" in response.content.decode()


def test_a_token_works_until_its_max_age_then_expires(
    generation: Generation, client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MACARON_API_VIEW_MAX_AGE_SECONDS = 3600
    young = token_made_ago(monkeypatch, generation, 3600 - 60)
    assert client.get(f"/v1/views/{young}").status_code == 200
    old = token_made_ago(monkeypatch, generation, 3600 + 60)
    response = client.get(f"/v1/views/{old}")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["type"] == "not_found_error"
    assert error["code"] == "view_expired"
    assert "expired" in error["message"] and "view_url" in error["message"]


def test_the_default_max_age_is_seven_days(
    generation: Generation, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    six_days = token_made_ago(monkeypatch, generation, 6 * 24 * 3600)
    assert client.get(f"/v1/views/{six_days}").status_code == 200
    eight_days = token_made_ago(monkeypatch, generation, 8 * 24 * 3600)
    assert client.get(f"/v1/views/{eight_days}").json()["error"]["code"] == "view_expired"


def test_a_token_stops_working_when_its_key_is_revoked(
    generation: Generation, api_key: ApiKey, client: Client
) -> None:
    url = f"/v1/views/{view_token_for(generation_id=generation.id)}"
    assert client.get(url).status_code == 200
    api_key_revoke(prefix=api_key.prefix)
    response = client.get(url)
    assert response.status_code == 404
    assert response.json()["error"] == {
        "message": "This view's API key has been revoked.",
        "type": "not_found_error",
        "param": None,
        "code": "view_revoked",
    }


def test_another_keys_revocation_changes_nothing(generation: Generation, client: Client) -> None:
    other, _ = api_key_create(name="bob")
    api_key_revoke(prefix=other.prefix)
    assert client.get(f"/v1/views/{view_token_for(generation_id=generation.id)}").status_code == 200


def test_a_studio_generation_has_no_api_view(generation: Generation, client: Client) -> None:
    Generation.objects.filter(pk=generation.pk).update(api_key=None)
    response = client.get(f"/v1/views/{view_token_for(generation_id=generation.id)}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "view_not_found"


def test_a_tampered_token_is_not_found(generation: Generation, client: Client) -> None:
    token = view_token_for(generation_id=generation.id)
    response = client.get(f"/v1/views/{token[:-2]}xx")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "view_not_found"
