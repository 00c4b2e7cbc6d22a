"""Downloading a version: a standalone HTML file and the spec as JSON, for its owner only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from studio.models import Project, Version
from studio.services.exports import export_filename
from studio.services.versions import version_add
from tests.studio.conftest import NEWSLETTER_SPEC

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(NEWSLETTER_SPEC.read_text())
    return loaded


@pytest.fixture
def version(spec: dict[str, Any]) -> Version:
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Bike shop: sales!", owner=owner)
    version_add(project=project, spec={"root": {"t": "page", "c": []}}, kind="generated", label="1")
    return version_add(project=project, spec=spec, kind="refined", label="the newsletter")


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(version: Version, extension: str) -> str:
    return f"/p/{version.project_id}/versions/{version.id}/export.{extension}"


def test_it_downloads_the_version_as_a_standalone_html_file(version: Version) -> None:
    response = signed_in(version.project.owner).get(url(version, "html"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="bike-shop-sales-v2.html"'
    document = response.content.decode()
    assert document.startswith("<!doctype html>")
    assert "Join our newsletter" in document
    assert "<title>Newsletter</title>" in document
    assert " src=" not in document and "<link" not in document  # everything is inlined


def test_it_downloads_the_spec_as_json(version: Version, spec: dict[str, Any]) -> None:
    response = signed_in(version.project.owner).get(url(version, "json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="bike-shop-sales-v2.json"'
    assert json.loads(response.content) == spec


def test_an_older_version_exports_as_it_was(version: Version) -> None:
    first = Version.objects.get(project=version.project, number=1)
    response = signed_in(version.project.owner).get(url(first, "json"))
    assert json.loads(response.content) == {"root": {"t": "page", "c": []}}
    assert "v1.json" in response["Content-Disposition"]


@pytest.mark.parametrize("extension", ["html", "json"])
def test_nobody_else_can_export_it(version: Version, extension: str) -> None:
    bob = get_user_model().objects.create_user("bob")
    assert signed_in(bob).get(url(version, extension)).status_code == 404
    visitor = Client().get(url(version, extension))
    assert visitor.status_code == 302 and visitor["Location"].startswith("/signin/")


def test_a_version_of_another_project_is_not_found(version: Version) -> None:
    other = Project.objects.create(name="Other", owner=version.project.owner)
    response = signed_in(version.project.owner).get(
        f"/p/{other.id}/versions/{version.id}/export.html"
    )
    assert response.status_code == 404


def test_it_is_a_download_not_a_form_target(version: Version) -> None:
    assert signed_in(version.project.owner).post(url(version, "html")).status_code == 405


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Bike shop: sales!", "bike-shop-sales-v3.html"),
        ("Café façade", "cafe-facade-v3.html"),
        ("???", "macaron-view-v3.html"),
        ("日本語", "macaron-view-v3.html"),
        ('"; rm -rf / <script>', "rm-rf-script-v3.html"),
        ("x" * 200, "x" * 60 + "-v3.html"),
    ],
)
def test_the_filename_is_clean(name: str, expected: str) -> None:
    assert export_filename(project_name=name, number=3, extension="html") == expected
