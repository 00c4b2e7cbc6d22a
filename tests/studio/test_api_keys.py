"""API keys: shown once, stored as a hash with a visible prefix, revocable, from the commands."""

from __future__ import annotations

import hashlib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from studio.errors import NotAuthenticated
from studio.models import ApiKey
from studio.services.api_keys import api_key_authenticate, api_key_create

pytestmark = pytest.mark.django_db


def test_it_stores_only_the_hash_and_a_prefix() -> None:
    api_key, key = api_key_create(name="ci")
    assert key.startswith("mk-") and len(key) > 40
    stored = ApiKey.objects.get()
    assert stored.prefix == key[:12]
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(stored.__dict__)
    assert api_key_authenticate(authorization=f"Bearer {key}", query={}) == api_key


def test_a_key_with_the_right_prefix_but_a_wrong_secret_is_refused() -> None:
    _, key = api_key_create()
    with pytest.raises(NotAuthenticated) as raised:
        api_key_authenticate(authorization=f"Bearer {key[:-1]}x", query={})
    assert raised.value.code == "invalid_key"


def test_the_commands_create_a_key_shown_once_and_revoke_it(client: Client) -> None:
    out, err = StringIO(), StringIO()
    call_command("create_api_key", "--name", "laptop", stdout=out, stderr=err)
    key = out.getvalue().strip()
    assert "shown once" in err.getvalue()
    assert ApiKey.objects.get().name == "laptop"
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/v1/models", headers=headers).status_code == 200

    out = StringIO()
    call_command("revoke_api_key", key[:12], stdout=out)
    assert "Revoked" in out.getvalue()
    response = client.get("/v1/models", headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "revoked_key"


def test_revoking_an_unknown_prefix_fails_clearly() -> None:
    with pytest.raises(CommandError, match="No API key"):
        call_command("revoke_api_key", "mk-unknown")


def test_models_lists_the_profiles_and_their_experts(client: Client) -> None:
    _, key = api_key_create()
    response = client.get("/v1/models", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "list"
    models = {m["id"]: m for m in body["data"]}
    assert set(models) == {"macaron-tiny", "macaron-tall", "macaron-venti"}
    assert models["macaron-tiny"]["served"] is True
    assert models["macaron-venti"]["served"] is False
    experts = {e["name"]: e for e in models["macaron-tiny"]["experts"]}
    assert set(experts) == {"chat", "agent", "coding", "ui"}
    # Each expert says whether its adapter is trained, as its manifest does.
    from inference.experts import read_manifest

    for name, expert in experts.items():
        assert expert["trained"] is bool(read_manifest(name).get("trained", False))
    assert client.get("/v1/models").status_code == 401
