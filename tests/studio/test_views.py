"""The studio's pages and JSON endpoint: sandboxed preview, CSP, persisted results."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from studio.models import Generation, Project
from studio.worker.run import generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]


@pytest.fixture
def client(alice: User) -> Client:
    """Signed in as alice: every studio page wants a user."""
    signed_in = Client()
    signed_in.force_login(alice)
    return signed_in


def test_the_studio_page_has_a_sandboxed_preview_and_a_strict_policy(
    client: Client, alice: User
) -> None:
    response = client.get(f"/p/{Project.objects.create(owner=alice).id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'sandbox="allow-scripts allow-forms"' in html
    assert "allow-same-origin" not in html
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    from inference.experts import read_manifest

    # Experts are marked untrained until they are trained.
    trained = bool(read_manifest("ui").get("trained", False))
    assert ("ui (untrained)" in html) is not trained


def test_a_project_page_shows_its_finished_view(
    client: Client, alice: User, spec_text: str, limits_redis: None
) -> None:
    project = Project.objects.create(owner=alice)
    generation = Generation.objects.create(
        project=project, prompt="a newsletter", expert="ui", structured=True
    )
    generation_run(generation_id=generation.id, engine=ScriptedFakeEngine(spec_text))
    response = client.get(f"/p/{project.id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Join our newsletter" in html  # rendered into the frame's srcdoc
    assert "a newsletter" in html


def test_unknown_and_ownerless_projects_and_unknown_generations_are_404s(client: Client) -> None:
    assert client.get(f"/p/{uuid.uuid4()}/").status_code == 404
    assert client.get(f"/p/{Project.objects.create().id}/").status_code == 404
    response = client.get(f"/api/generations/{uuid.uuid4()}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_generation"
    assert client.get("/api/generations/not-a-uuid").status_code == 404


async def test_static_files_are_served_and_other_paths_pass_through() -> None:
    """Static files come from WhiteNoise behind an async-only middleware chain."""
    from django.test import AsyncClient

    client = AsyncClient()
    script = await client.get("/static/studio/app.js")
    assert script.status_code == 200
    assert b"".join(script.streaming_content).startswith(b"// The studio")  # type: ignore[attr-defined]
    # The studio's modules import Preact and htm from the npm install, as JavaScript.
    for vendored in (
        "preact/preact.module.js",
        "preact-hooks/hooks.module.js",
        "htm/htm.module.js",
    ):
        module = await client.get(f"/static/vendor/{vendored}")
        assert module.status_code == 200, vendored
        assert module["Content-Type"].startswith("text/javascript")
    assert (await client.get("/static/vendor/axe-core/axe.min.js")).status_code == 404
    assert (await client.get("/static/no-such-file.js")).status_code == 404
    assert (await client.get("/healthz")).status_code == 200


def test_the_studio_page_allows_its_import_map_by_hash_and_nothing_else_inline(
    client: Client,
) -> None:
    from django.contrib.auth import get_user_model

    from studio.web.importmap import import_map
    from ui4a import assets

    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(owner=owner)
    client.force_login(owner)
    response = client.get(f"/p/{project.id}/")
    html = response.content.decode()
    assert f'<script type="importmap">{import_map()}</script>' in html
    script_src = next(
        d.split()[1:]
        for d in response["Content-Security-Policy"].split(";")
        if d.split()[:1] == ["script-src"]
    )
    inline = [assets.csp_hash(s) for s in [*assets.scripts(), import_map()]]
    assert script_src == ["'self'", *inline]
    assert '<script type="module" src="/static/studio/app.js"></script>' in html
