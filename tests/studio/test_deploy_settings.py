"""Serving behind a TLS-terminating proxy (docs/DEPLOY.md): off unless the environment says so;
on, the admin's sign-in passes its CSRF check, cookies are Secure, HSTS is sent, and view_url
comes out https://. The proxy's X-Forwarded-Proto stands in for the TLS it ends."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from studio.services.api_keys import api_key_create
from studio.settings import deploy_settings
from tests.studio.conftest import FakeWorker

pytestmark = [pytest.mark.django_db(transaction=True)]

PUBLIC = "https://studio.example.com"
# What the proxy sends on: the public host, and the scheme the browser used.
BEHIND_PROXY = {"Host": "studio.example.com", "X-Forwarded-Proto": "https"}


@pytest.fixture
def behind_tls_proxy(settings: Any) -> None:
    environ = {"MACARON_BEHIND_TLS_PROXY": "1", "MACARON_PUBLIC_ORIGIN": PUBLIC}
    deploy = deploy_settings(environ)
    for name in ("SECURE_PROXY_SSL_HEADER", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
        setattr(settings, name, deploy[name])
    settings.SECURE_HSTS_SECONDS = deploy["SECURE_HSTS_SECONDS"]
    settings.CSRF_TRUSTED_ORIGINS = deploy["CSRF_TRUSTED_ORIGINS"]
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, *deploy["PUBLIC_HOSTS"]]


def test_everything_is_off_unless_the_environment_turns_it_on() -> None:
    assert deploy_settings({}) == {
        "SECURE_PROXY_SSL_HEADER": None,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
        "CSRF_TRUSTED_ORIGINS": [],
        "PUBLIC_HOSTS": [],
    }
    on = deploy_settings({"MACARON_BEHIND_TLS_PROXY": "1", "MACARON_HSTS_SECONDS": "600"})
    assert on["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert on["SECURE_HSTS_SECONDS"] == 600


def admin_signin(client: Client, origin: str = PUBLIC, **headers: str) -> Any:
    form = client.get("/admin/login/", headers=headers)
    assert form.status_code == 200
    return client.post(
        "/admin/login/",
        {
            "username": "ops",
            "password": "pw-ops",
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
            "next": "/admin/",
        },
        headers={**headers, "Origin": origin, "Referer": f"{origin}/admin/login/"},
    )


@pytest.fixture
def operator() -> User:
    return User.objects.create_superuser("ops", password="pw-ops")


def test_behind_the_proxy_the_admin_signs_in_with_secure_cookies_and_hsts(
    behind_tls_proxy: None, operator: User
) -> None:
    client = Client(enforce_csrf_checks=True)
    response = admin_signin(client, **BEHIND_PROXY)
    assert response.status_code == 302, response.content[:300]
    assert response["Location"] == "/admin/"
    assert client.cookies["sessionid"]["secure"] and client.cookies["csrftoken"]["secure"]
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


def test_a_proxy_that_sends_its_upstreams_host_still_passes_csrf_by_the_public_origin(
    behind_tls_proxy: None, operator: User
) -> None:
    client = Client(enforce_csrf_checks=True)
    response = admin_signin(client, Host="127.0.0.1:8000", **{"X-Forwarded-Proto": "https"})
    assert response.status_code == 302, response.content[:300]


def test_without_the_settings_a_tls_proxys_admin_sign_in_fails_csrf(operator: User) -> None:
    """Why the settings exist: Django sees http:// where the browser saw https://."""
    client = Client(enforce_csrf_checks=True)
    headers = {"Host": "localhost", "X-Forwarded-Proto": "https"}
    response = admin_signin(client, "https://localhost", **headers)
    assert response.status_code == 403


def test_behind_the_proxy_view_url_is_https(
    behind_tls_proxy: None, fake_worker: FakeWorker, spec_text: str
) -> None:
    fake_worker.text = spec_text
    key = api_key_create(name="alice")[1]
    body = {
        "model": "macaron-tiny",
        "router": "ui",
        "messages": [{"role": "user", "content": "a form"}],
    }
    response = Client().post(
        "/v1/chat/completions",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}", **BEHIND_PROXY},
    )
    assert response.status_code == 200, response.content
    assert response.json()["view_url"].startswith(f"{PUBLIC}/v1/views/")
