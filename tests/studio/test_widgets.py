"""Published widgets: publishing a version or the latest, the public page's headers (framed by
exactly the allowed origins), host events' target, 410 after unpublishing, counted views, and
the owner's endpoints (nobody else's)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from studio.errors import InvalidRequest
from studio.models import Project, Widget
from studio.services.versions import version_add
from studio.services.widget_origins import origin_normalise, origins_clean
from studio.services.widgets import widget_publish, widget_unpublish, widget_update
from studio.web.security import view_policy

pytestmark = pytest.mark.django_db

HOST = "https://shop.example"
OTHER_HOST = "http://localhost:8001"


def form_spec(submit: str) -> dict[str, Any]:
    return {
        "title": "Join",
        "root": {
            "t": "page",
            "c": [
                {
                    "t": "form",
                    "submit": submit,
                    "c": [
                        {"t": "input", "label": "Email", "bind": "email", "kind": "email"},
                        {"t": "input", "label": "Password", "bind": "pw", "kind": "password"},
                    ],
                }
            ],
        },
        "state": {"email": "", "pw": ""},
    }


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def project(alice: User) -> Project:
    project = Project.objects.create(owner=alice, name="Join form")
    version_add(project=project, spec=form_spec("Join v1"), kind="generated", label="a join form")
    return project


def publish(project: Project, *, origins: list[str], pinned: bool = False) -> Widget:
    assert project.current_version is not None
    return widget_publish(
        project=project,
        version_id=project.current_version.id if pinned else None,
        allowed_origins=origins,
        published_by=project.owner,
    )


def host_config(html: str) -> Any:
    found = re.search(r'<script type="application/json" id="ui4a-host">(.*?)</script>', html)
    assert found, "the widget document carries no host config"
    return json.loads(found.group(1))


# ---- allowed origins


@pytest.mark.parametrize(
    ("given", "normalised"),
    [
        ("https://Shop.Example", "https://shop.example"),
        ("https://shop.example:443/", "https://shop.example"),
        ("http://localhost:8001", "http://localhost:8001"),
        ("HTTP://127.0.0.1:80", "http://127.0.0.1"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
        ("https://[::1]:8443", "https://[::1]:8443"),
    ],
)
def test_it_normalises_an_origin_to_what_a_browser_sends(given: str, normalised: str) -> None:
    assert origin_normalise(given) == normalised


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("https://shop.example/embed", "no path"),
        ("https://*.example", "wildcards"),
        ("ftp://shop.example", "https://"),
        ("https://user:pw@shop.example", "user name"),
        ("shop.example", "https://"),
        ("https://shop.example?x=1", "no path, query"),
        ("https://shop example", "host name"),
        ("'none'", "https://"),
        ("https://a.example; script-src data:", "host name"),
        ("https://" + "a" * 300 + ".example", "longer than"),
    ],
)
def test_it_refuses_what_is_not_one_exact_origin_and_says_why(given: str, says: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        origin_normalise(given)
    assert says in refused.value.message


def test_it_keeps_origins_in_order_without_duplicates_and_caps_them() -> None:
    assert origins_clean([HOST, "https://SHOP.example/", OTHER_HOST]) == [HOST, OTHER_HOST]
    with pytest.raises(InvalidRequest, match="at most 10"):
        origins_clean([f"https://s{i}.example" for i in range(11)])


# ---- the public page


def test_it_is_framed_by_exactly_its_allowed_origins(client: Client, project: Project) -> None:
    widget = publish(project, origins=[HOST, OTHER_HOST])
    response = client.get(f"/w/{widget.public_id}?host={HOST}")
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert policy == view_policy(frame_ancestors=f"{HOST} {OTHER_HOST}")
    assert f"frame-ancestors {HOST} {OTHER_HOST};" in policy
    assert "connect-src 'none'" in policy
    assert policy.endswith("sandbox allow-scripts allow-forms")
    assert "X-Frame-Options" not in response
    assert response["Cache-Control"] == "no-store"
    assert "Join v1" in response.content.decode()


def test_a_link_only_widget_cannot_be_framed_at_all(client: Client, project: Project) -> None:
    widget = publish(project, origins=[])
    response = client.get(f"/w/{widget.public_id}")
    assert response.status_code == 200
    assert "frame-ancestors 'none';" in response["Content-Security-Policy"]
    config = host_config(response.content.decode())
    assert config == {"widget": widget.public_id, "origin": None, "buttons": []}


def test_its_events_go_to_the_host_that_framed_it_and_no_other(
    client: Client, project: Project
) -> None:
    single = publish(project, origins=[HOST])
    page = client.get(f"/w/{single.public_id}").content.decode()
    assert host_config(page) == {"widget": single.public_id, "origin": HOST, "buttons": []}

    several = publish(project, origins=[HOST, OTHER_HOST])
    # Without ?host= it cannot know which of two sites framed it: no events at all.
    page = client.get(f"/w/{several.public_id}").content.decode()
    assert host_config(page)["origin"] is None
    page = client.get(f"/w/{several.public_id}", {"host": OTHER_HOST + "/"}).content.decode()
    assert host_config(page)["origin"] == OTHER_HOST

    refused = client.get(f"/w/{several.public_id}", {"host": "https://evil.example"})
    assert refused.status_code == 400
    assert "https://evil.example is not one of the sites" in refused.content.decode()
    garbage = client.get(f"/w/{several.public_id}", {"host": "<script>alert(1)</script>"})
    assert garbage.status_code == 400
    assert "<script>alert" not in garbage.content.decode()


def test_the_widget_document_keeps_the_views_inline_scripts(
    client: Client, project: Project
) -> None:
    """The host config is data: the document's meta policy is a plain view's, byte for byte."""
    import ui4a

    widget = publish(project, origins=[HOST])
    page = client.get(f"/w/{widget.public_id}").content.decode()
    plain = ui4a.render_document(project.current_version.spec)  # type: ignore[union-attr]
    meta = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
    assert meta.search(page).group(1) == meta.search(plain).group(1)  # type: ignore[union-attr]


def test_a_pinned_widget_stays_and_a_latest_one_follows(
    client: Client, project: Project, alice: User
) -> None:
    pinned = publish(project, origins=[HOST], pinned=True)
    latest = publish(project, origins=[HOST])
    version_add(project=project, spec=form_spec("Join v2"), kind="edited", label="renamed")
    pinned_page = client.get(f"/w/{pinned.public_id}").content.decode()
    latest_page = client.get(f"/w/{latest.public_id}").content.decode()
    assert "Join v1" in pinned_page and "Join v2" not in pinned_page
    assert "Join v2" in latest_page and "Join v1" not in latest_page


def test_unpublishing_answers_410_at_once(client: Client, project: Project) -> None:
    widget = publish(project, origins=[HOST])
    assert client.get(f"/w/{widget.public_id}").status_code == 200
    widget_unpublish(widget=widget)
    gone = client.get(f"/w/{widget.public_id}")
    assert gone.status_code == 410
    assert "unpublished" in gone.content.decode()
    # Its host may still frame the notice, which runs nothing.
    assert f"frame-ancestors {HOST}; sandbox" in gone["Content-Security-Policy"]
    assert "<script" not in gone.content.decode()
    assert "X-Frame-Options" not in gone
    with pytest.raises(InvalidRequest, match="unpublished"):
        widget_update(widget=widget, allowed_origins=[HOST])


def test_an_unknown_widget_is_a_404(client: Client) -> None:
    response = client.get("/w/not-a-widget-id")
    assert response.status_code == 404
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_each_view_is_counted_and_a_refusal_is_not(client: Client, project: Project) -> None:
    widget = publish(project, origins=[HOST])
    stale = Widget.objects.get(pk=widget.pk)  # an owner's copy loaded before the views
    for _ in range(3):
        client.get(f"/w/{widget.public_id}")
    client.get(f"/w/{widget.public_id}", {"host": "https://evil.example"})
    widget_update(widget=stale, allowed_origins=[HOST, OTHER_HOST])
    widget.refresh_from_db()
    assert widget.view_count == 3  # the stale copy's save did not write its old count back
    widget_unpublish(widget=widget)
    client.get(f"/w/{widget.public_id}")
    widget.refresh_from_db()
    assert widget.view_count == 3


def test_the_loader_is_static_and_cacheable(client: Client) -> None:
    response = client.get("/w/embed.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "public, max-age=3600"
    assert b"macaron.resize" in response.content


# ---- the owner's endpoints


def post(client: Client, url: str, body: object) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_the_owner_publishes_lists_changes_and_unpublishes(
    client: Client, project: Project, alice: User
) -> None:
    client.force_login(alice)
    base = f"/p/{project.id}/widgets"
    made = post(client, base, {"version": "latest", "origins": ["https://Shop.example/"]})
    assert made.status_code == 200, made.content
    widget = made.json()["widget"]
    assert widget["follows_latest"] is True
    assert widget["origins"] == [HOST]
    assert widget["url"] == f"http://testserver/w/{widget['id']}"
    assert 'sandbox="allow-scripts allow-forms"' in widget["snippets"]["iframe"]
    assert 'loading="lazy"' in widget["snippets"]["iframe"]
    assert f'data-macaron-widget="{widget["id"]}"' in widget["snippets"]["loader"]
    assert "http://testserver/w/embed.js" in widget["snippets"]["loader"]

    version = project.current_version
    assert version is not None
    pinned = post(client, base, {"version": str(version.id), "origins": []}).json()["widget"]
    assert pinned["version"] == {"id": str(version.id), "number": 1}

    client.get(f"/w/{widget['id']}")
    listing = client.get(base).json()["widgets"]
    assert [w["id"] for w in listing] == [pinned["id"], widget["id"]]
    assert listing[1]["views"] == 1

    changed = post(client, f"{base}/{widget['id']}", {"origins": [HOST, OTHER_HOST]})
    assert changed.json()["widget"]["origins"] == [HOST, OTHER_HOST]

    gone = post(client, f"{base}/{widget['id']}/unpublish", {})
    assert gone.json()["widget"]["live"] is False
    assert client.get(f"/w/{widget['id']}").status_code == 410
    assert client.get(base).json()["widgets"][-1]["id"] == widget["id"]  # live ones first
    again = post(client, f"{base}/{widget['id']}", {"origins": [HOST]})
    assert again.status_code == 410


def test_a_bad_origin_is_named_and_changes_nothing(
    client: Client, project: Project, alice: User
) -> None:
    client.force_login(alice)
    base = f"/p/{project.id}/widgets"
    refused = post(client, base, {"origins": [HOST, "https://shop.example/embed"]})
    assert refused.status_code == 400
    assert "'https://shop.example/embed'" in refused.json()["error"]["message"]
    assert not Widget.objects.exists()
    widget = publish(project, origins=[HOST])
    refused = post(client, f"{base}/{widget.public_id}", {"origins": ["*"]})
    assert refused.status_code == 400
    widget.refresh_from_db()
    assert widget.allowed_origins == [HOST]
    unknown_version = post(client, base, {"version": "not-an-id"})
    assert unknown_version.status_code == 400


def test_nobody_else_sees_or_touches_a_projects_widgets(
    client: Client, project: Project, bob: User
) -> None:
    widget = publish(project, origins=[HOST])
    base = f"/p/{project.id}/widgets"
    assert client.get(base).status_code == 401  # a visitor
    client.force_login(bob)
    for response in (
        client.get(base),
        post(client, base, {"origins": []}),
        client.get(f"{base}/{widget.public_id}"),
        post(client, f"{base}/{widget.public_id}", {"origins": []}),
        post(client, f"{base}/{widget.public_id}/unpublish", {}),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "unknown_project"
    widget.refresh_from_db()
    assert widget.live and widget.allowed_origins == [HOST]
    # The owner's other project does not reach it either.
    other = Project.objects.create(owner=project.owner, name="Other")
    client.force_login(project.owner)  # type: ignore[arg-type]
    response = client.get(f"/p/{other.id}/widgets/{widget.public_id}")
    assert response.status_code == 404


def test_the_owner_chooses_which_buttons_clicks_reach_the_host(
    client: Client, project: Project, alice: User
) -> None:
    spec = form_spec("Join v2")
    spec["root"]["c"] += [
        {"t": "button", "label": "Talk  to sales", "kind": "secondary"},
        {"t": "button", "label": "Hi {email}"},
        {"t": "button", "label": "Talk to sales"},
    ]
    version_add(project=project, spec=spec, kind="edited", label="buttons")
    client.force_login(alice)
    base = f"/p/{project.id}/widgets"
    made = post(client, base, {"origins": [HOST], "buttons": ["Talk to sales"]}).json()["widget"]
    # The buttons it can choose from: state-reading labels are left out, repeats merged.
    assert made["buttons"] == ["Talk to sales"]
    assert made["event_buttons"] == ["Talk to sales"]
    page = client.get(f"/w/{made['id']}").content.decode()
    assert host_config(page)["buttons"] == ["Talk to sales"]

    refused = post(client, f"{base}/{made['id']}", {"buttons": ["x" * 81]})
    assert refused.status_code == 400
    assert post(client, f"{base}/{made['id']}", {"buttons": "Talk"}).status_code == 400
    cleared = post(client, f"{base}/{made['id']}", {"buttons": []}).json()["widget"]
    assert cleared["event_buttons"] == [] and cleared["origins"] == [HOST]


def test_a_view_is_counted_by_one_update_in_the_database(client: Client, project: Project) -> None:
    """No read-modify-write in Python: concurrent views cannot overwrite each other's count.
    (Threads cannot show it here: the test database is SQLite in memory, which refuses
    concurrent writers instead of waiting as the file database does.)"""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    widget = publish(project, origins=[HOST])
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/w/{widget.public_id}")
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if "view_count" in q["sql"] and not q["sql"].startswith("SELECT")
    ]
    assert len(writes) == 1
    assert re.search(r'SET "view_count" = \("studio_widget"."view_count" \+ 1\)', writes[0])


def test_operators_see_widgets_in_the_admin_and_can_unpublish(
    client: Client, project: Project
) -> None:
    widget = publish(project, origins=[HOST])
    admin = User.objects.create_superuser("root", password="unused-in-tests")
    client.force_login(admin)
    listing = client.get("/admin/studio/widget/")
    assert listing.status_code == 200
    assert widget.public_id in listing.content.decode()
    assert HOST in listing.content.decode()
    client.post(
        "/admin/studio/widget/",
        {"action": "unpublish", "_selected_action": [widget.pk]},
    )
    widget.refresh_from_db()
    assert not widget.live
