"""The projects page and its actions, for alice; charlie must never see or touch her projects."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from studio.models import Generation, Project, Version
from studio.services.projects import project_duplicate
from studio.services.versions import version_add
from ui4a import assets

pytestmark = pytest.mark.django_db

SPEC: dict[str, Any] = json.loads((Path(__file__).parent / "newsletter.json").read_text())


@pytest.fixture
def charlie() -> User:
    return User.objects.create_user("charlie")


@pytest.fixture
def as_alice(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def as_charlie(charlie: User) -> Client:
    client = Client()
    client.force_login(charlie)
    return client


@pytest.fixture
def newsletter(alice: User) -> Project:
    project = Project.objects.create(owner=alice, name="Newsletter signup")
    version_add(project=project, spec=SPEC, kind="generated", label="a newsletter", author=alice)
    changed = {**SPEC, "title": "Newsletter, take two"}
    version_add(project=project, spec=changed, kind="edited", label="edited: title", author=alice)
    return project


def test_it_lists_my_projects_with_a_sandboxed_lazy_thumbnail(
    as_alice: Client, newsletter: Project, alice: User, charlie: User
) -> None:
    Project.objects.create(owner=alice, name="Empty one")
    Project.objects.create(owner=charlie, name="Charlie's secret")
    html = as_alice.get("/").content.decode()
    assert "Newsletter signup" in html and "Empty one" in html
    assert "Charlie" not in html
    assert "2 versions" in html and "0 versions" in html
    assert re.search(r"Changed <time datetime=\"[^\"]+\"[^>]*>(now|[^<]+ ago)</time>", html)
    assert (
        f'<iframe title="Preview of Newsletter signup" src="/p/{newsletter.id}/view"\n'
        '          sandbox="allow-scripts" loading="lazy"' in html
    )
    assert "allow-same-origin" not in html
    assert html.count("<iframe") == 1  # the empty project shows a placeholder instead
    assert "No version yet" in html


def test_the_thumbnail_is_the_current_version_framable_by_us_alone(
    as_alice: Client, newsletter: Project
) -> None:
    response = as_alice.get(f"/p/{newsletter.id}/view")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Newsletter, take two" in body and "Join our newsletter" in body
    policy = response["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in policy and "sandbox allow-scripts" in policy
    assert "connect-src 'none'" in policy
    # Every script the document inlines may run (chart.js too), and nothing else inline.
    assert all(assets.csp_hash(script) in policy for script in assets.scripts())
    assert "'unsafe-inline'" not in policy
    assert response["X-Frame-Options"] == "SAMEORIGIN"


def test_an_empty_project_has_an_empty_view(as_alice: Client, alice: User) -> None:
    project = Project.objects.create(owner=alice)
    response = as_alice.get(f"/p/{project.id}/view")
    assert response.status_code == 200 and b"ui4a-root" in response.content


def test_another_users_project_is_a_404_everywhere(as_charlie: Client, newsletter: Project) -> None:
    base = f"/p/{newsletter.id}/"
    for url in [base, base + "view", base + "rename", base + "delete"]:
        assert as_charlie.get(url).status_code == 404, url
    for url in [base + "rename", base + "duplicate", base + "delete"]:
        assert as_charlie.post(url, {"name": "mine now"}).status_code == 404, url
    newsletter.refresh_from_db()
    assert newsletter.name == "Newsletter signup"
    assert Project.objects.count() == 1


def test_anonymous_visitors_are_sent_to_sign_in(newsletter: Project) -> None:
    client = Client()
    for url in ["/", f"/p/{newsletter.id}/view", f"/p/{newsletter.id}/delete"]:
        assert client.get(url)["Location"].startswith("/signin/?next="), url
    assert client.post("/projects/new")["Location"].startswith("/signin/")
    assert Project.objects.count() == 1


def test_new_project_is_a_post_that_opens_the_studio(as_alice: Client, alice: User) -> None:
    assert as_alice.get("/projects/new").status_code == 405
    response = as_alice.post("/projects/new")
    project = Project.objects.get()
    assert project.owner == alice and project.name == "Untitled project"
    assert response["Location"] == f"/p/{project.id}/"
    assert as_alice.get(response["Location"]).status_code == 200


def test_it_renames_and_says_so(as_alice: Client, newsletter: Project) -> None:
    response = as_alice.post(
        f"/p/{newsletter.id}/rename", {"name": "  Weekly\n  digest ", "next": "/?q=week"}
    )
    assert response["Location"] == "/?q=week"
    newsletter.refresh_from_db()
    assert newsletter.name == "Weekly digest"
    page = as_alice.get("/?q=week").content.decode()
    assert "Renamed to “Weekly digest”." in page


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Give the project a name."),
        ("x" * 121, "The name has 121 characters; the limit is 120."),
    ],
)
def test_a_refused_name_is_explained_and_changes_nothing(
    as_alice: Client, newsletter: Project, name: str, message: str
) -> None:
    response = as_alice.post(f"/p/{newsletter.id}/rename", {"name": name})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'aria-invalid="true"' in html
    newsletter.refresh_from_db()
    assert newsletter.name == "Newsletter signup"


def test_it_renames_by_json(as_alice: Client, newsletter: Project) -> None:
    url = f"/p/{newsletter.id}/rename"
    ok = as_alice.post(url, {"name": "Digest"}, content_type="application/json")
    assert ok.status_code == 200
    assert ok.json()["name"] == "Digest" and ok.json()["url"] == f"/p/{newsletter.id}/"
    bad = as_alice.post(url, {"name": ""}, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["error"] == {"code": "invalid_name", "message": "Give the project a name."}
    huge = as_alice.post(url, {"name": "x" * 5000}, content_type="application/json")
    assert huge.json()["error"]["code"] == "body_too_large"
    broken = as_alice.post(url, "{", content_type="application/json")
    assert broken.json()["error"]["code"] == "invalid_json"
    newsletter.refresh_from_db()
    assert newsletter.name == "Digest"


def test_it_duplicates_the_current_version_as_version_one_of_a_copy(
    as_alice: Client, newsletter: Project, alice: User
) -> None:
    response = as_alice.post(f"/p/{newsletter.id}/duplicate", {"next": "/"})
    assert response["Location"] == "/"
    copy = Project.objects.exclude(pk=newsletter.pk).get()
    assert copy.name == "Newsletter signup (copy)" and copy.owner == alice
    version = copy.versions.get()  # the history stays behind
    assert copy.current_version == version
    assert version.number == 1 and version.kind == Version.Kind.FORKED
    assert version.spec == newsletter.versions.get(number=2).spec
    assert version.author == alice
    assert "Duplicated “Newsletter signup” as “Newsletter signup (copy)”." in (
        as_alice.get("/").content.decode()
    )


def test_duplicating_keeps_names_in_bounds_and_empty_projects_empty(alice: User) -> None:
    long = Project.objects.create(owner=alice, name="y" * 120)
    copy = project_duplicate(project=long)
    assert len(copy.name) == 120 and copy.name.endswith("y (copy)")
    assert copy.current_version is None and not copy.versions.exists()


def test_it_duplicates_by_json(as_alice: Client, newsletter: Project) -> None:
    response = as_alice.post(f"/p/{newsletter.id}/duplicate", HTTP_ACCEPT="application/json")
    assert response.status_code == 201
    assert response.json()["name"] == "Newsletter signup (copy)"


def test_delete_asks_first_then_deletes_everything_in_it(
    as_alice: Client, newsletter: Project
) -> None:
    Generation.objects.create(project=newsletter, prompt="a newsletter", expert="ui")
    confirm = as_alice.get(f"/p/{newsletter.id}/delete?next=/%3Fq%3Dnews")
    html = confirm.content.decode()
    assert "Delete “Newsletter signup”?" in html and "2 versions" in html
    assert 'value="/?q=news"' in html  # back to the search it came from
    assert Project.objects.filter(pk=newsletter.pk).exists()

    response = as_alice.post(f"/p/{newsletter.id}/delete", {"next": "/?q=news"})
    assert response["Location"] == "/?q=news"
    assert not Project.objects.exists() and not Version.objects.exists()
    assert not Generation.objects.exists()
    assert "Deleted “Newsletter signup”." in as_alice.get("/").content.decode()
    for url in [f"/p/{newsletter.id}/", f"/p/{newsletter.id}/view"]:
        assert as_alice.get(url).status_code == 404  # e.g. still open in another tab


def test_a_next_url_elsewhere_is_ignored(as_alice: Client, newsletter: Project) -> None:
    confirm = as_alice.get(f"/p/{newsletter.id}/delete?next=javascript:alert(1)")
    assert b"javascript:" not in confirm.content
    response = as_alice.post(f"/p/{newsletter.id}/duplicate", {"next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_it_searches_by_name_in_any_case(as_alice: Client, alice: User) -> None:
    for name in ["Sales dashboard", "Signup form", "Checkout"]:
        Project.objects.create(owner=alice, name=name)
    html = as_alice.get("/?q=  SIGN ").content.decode()
    assert "Signup form" in html and "Sales dashboard" not in html and "Checkout" not in html
    assert "1 project matching “SIGN”" in html
    nothing = as_alice.get("/?q=invoice").content.decode()
    assert "No projects match “invoice”." in nothing
    assert as_alice.get("/?q=" + "a" * 10_000).status_code == 200


def test_it_pages_long_lists(as_alice: Client, alice: User) -> None:
    Project.objects.bulk_create(Project(owner=alice, name=f"Project {n}") for n in range(30))
    first = as_alice.get("/").content.decode()
    assert first.count('class="project"') == 24 and "Page 1 of 2" in first and "Older" in first
    second = as_alice.get("/?page=2").content.decode()
    assert second.count('class="project"') == 6
    assert as_alice.get("/?page=banana").status_code == 200


def test_a_first_visit_says_how_to_start(as_alice: Client) -> None:
    assert "No projects yet" in as_alice.get("/").content.decode()


def test_forms_need_their_csrf_token(alice: User, newsletter: Project) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(f"/p/{newsletter.id}/delete").status_code == 403
    assert client.post("/projects/new").status_code == 403
    assert Project.objects.count() == 1


def test_the_admin_lists_projects_with_their_owners(newsletter: Project) -> None:
    admin = User.objects.create_superuser("root", password=None)
    client = Client()
    client.force_login(admin)
    html = client.get("/admin/studio/project/").content.decode()
    assert "Newsletter signup" in html and "alice" in html
    assert client.get("/admin/auth/user/").status_code == 200
    assert client.get(f"/admin/studio/project/{newsletter.id}/change/").status_code == 200
