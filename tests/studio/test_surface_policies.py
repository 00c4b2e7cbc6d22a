"""Every surface that shows a view allows, by hash, every inline script and style of the
document it serves: the studio page (and the preview document it holds), the projects page's
thumbnail, the API's view, and the exported file. Read from the served HTML, as a browser would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from studio.models import Generation, Project, Version
from studio.services.api_keys import api_key_create
from studio.services.shared_views import view_token_for
from studio.services.versions import version_add
from tests.csp import directives, inline_of, sha256_source
from ui4a import assets
from ui4a.policy import Surface, policy_for
from ui4a.registry import components, example_path

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def chart_spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(example_path(components()["chart"]).read_text())
    return spec


@pytest.fixture
def version(chart_spec: dict[str, Any]) -> Version:
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Sales", owner=owner)
    return version_add(project=project, spec=chart_spec, kind="generated", label="sales charts")


@pytest.fixture
def owner_client(version: Version) -> Client:
    client = Client()
    assert version.project.owner is not None
    client.force_login(version.project.owner)
    return client


def studio_page(client: Client, version: Version) -> Any:
    return client.get(f"/p/{version.project_id}/")


def thumbnail(client: Client, version: Version) -> Any:
    return client.get(f"/p/{version.project_id}/view")


def api_view(client: Client, version: Version) -> Any:
    key, _ = api_key_create(name="surface")
    generation = Generation.objects.create(
        api_key=key, prompt="charts", expert="ui", structured=True, spec=version.spec
    )
    return client.get(f"/v1/views/{view_token_for(generation_id=generation.id)}")


def exported_file(client: Client, version: Version) -> Any:
    return client.get(f"/p/{version.project_id}/versions/{version.id}/export.html")


SURFACES: dict[str, Callable[[Client, Version], Any]] = {
    "studio page": studio_page,
    "thumbnail": thumbnail,
    "api view": api_view,
    "exported file": exported_file,
}


def assert_allows(policy: str, scripts: list[str], styles: list[str], where: str) -> None:
    rules = directives(policy)
    for script in scripts:
        assert sha256_source(script) in rules["script-src"], f"{where}: a script is blocked"
    for style in styles:
        assert sha256_source(style) in rules["style-src"], f"{where}: a style is blocked"


@pytest.mark.parametrize("surface", SURFACES)
def test_every_inline_script_and_style_is_allowed_by_the_policies_over_it(
    surface: str, version: Version, owner_client: Client
) -> None:
    response = SURFACES[surface](owner_client, version)
    assert response.status_code == 200
    header = response["Content-Security-Policy"]
    page = inline_of(response.content.decode())
    # The view document itself: the page (or the studio's preview frame, whose srcdoc document
    # inherits the page's policy on top of its own meta one).
    views = [inline_of(doc) for doc in page.srcdocs] if surface == "studio page" else [page]
    assert len(views) == 1
    view = views[0]
    assert len(view.scripts) == len(assets.scripts()) == 3, "idiomorph, Chart.js, the runtime"
    assert view.styles, "the view's stylesheet"
    assert len(view.meta_policies) == 1
    assert not view.external_scripts
    assert_allows(view.meta_policies[0], view.scripts, view.styles, f"{surface} meta")
    assert_allows(header, view.scripts, view.styles, f"{surface} header")
    assert_allows(header, page.scripts, page.styles, f"{surface} page")


def test_the_check_above_can_fail_a_document_with_an_unlisted_script(
    version: Version, owner_client: Client
) -> None:
    response = thumbnail(owner_client, version)
    doctored = response.content.decode().replace("</body>", "<script>alert(1)</script></body>")
    view = inline_of(doctored)
    with pytest.raises(AssertionError, match="a script is blocked"):
        assert_allows(response["Content-Security-Policy"], view.scripts, view.styles, "doctored")


def test_the_exported_file_asks_for_nothing_over_the_network(
    version: Version, owner_client: Client
) -> None:
    meta = directives(
        inline_of(exported_file(owner_client, version).content.decode()).meta_policies[0]
    )
    assert meta["default-src"] == ["'none'"]
    assert meta["connect-src"] == ["'none'"]
    assert meta["img-src"] == ["data:"]
    assert meta["form-action"] == ["'none'"]


def test_the_api_view_may_not_be_framed_and_the_thumbnail_only_by_us(
    version: Version, owner_client: Client
) -> None:
    assert directives(api_view(owner_client, version)["Content-Security-Policy"])[
        "frame-ancestors"
    ] == ["'none'"]
    assert directives(thumbnail(owner_client, version)["Content-Security-Policy"])[
        "frame-ancestors"
    ] == ["'self'"]


def test_a_view_header_lists_the_origins_that_may_frame_it() -> None:
    policy = policy_for(
        Surface.VIEW_HEADER, frame_ancestors=["https://shop.example", "http://localhost:8001"]
    )
    rules = directives(policy)
    assert rules["frame-ancestors"] == ["https://shop.example", "http://localhost:8001"]
    assert rules["sandbox"] == ["allow-scripts", "allow-forms"]
    assert rules["connect-src"] == ["'none'"]


@pytest.mark.parametrize(
    "bad",
    [
        "https://shop.example; script-src *",
        "https://shop.example,https://evil.example",
        "javascript:alert(1)",
        "*",
        "'none' https://shop.example",
    ],
)
def test_a_frame_ancestor_that_is_not_an_origin_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        policy_for(Surface.VIEW_HEADER, frame_ancestors=bad)


def test_options_that_do_not_apply_to_a_surface_are_refused() -> None:
    with pytest.raises(ValueError, match="frame-ancestors"):
        policy_for(Surface.VIEW_META, frame_ancestors="'self'")
    with pytest.raises(ValueError, match="inline scripts"):
        policy_for(Surface.VIEW_HEADER, page_scripts=["{}"])
