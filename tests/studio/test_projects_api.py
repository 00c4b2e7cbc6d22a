"""A project's history over HTTP: versions, diffs, hand edits, undo and redo, revert, fork; only
for the project's owner, and nothing stored when a request is refused."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.test import Client

from studio import messages
from studio.errors import PROJECT_GONE
from studio.models import Project, Version
from studio.services.versions import version_add
from tests.studio.conftest import NEWSLETTER_SPEC

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]

BUTTON = "/root/c/1/c/3"  # the newsletter's button 'Subscribe'
RELABEL = {"op": "set", "path": BUTTON, "field": "label", "value": "Sign me up"}


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob", password="unused-in-tests")


def project_of(owner: User, name: str = "Newsletter") -> Project:
    project = Project.objects.create(owner=owner, name=name)
    spec = json.loads(NEWSLETTER_SPEC.read_text())
    version_add(project=project, spec=spec, kind="generated", label="a newsletter form")
    return project


@pytest.fixture
def project(alice: User) -> Project:
    return project_of(alice)


@pytest.fixture
def signed_in(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


def current(project: Project) -> Version:
    project.refresh_from_db()
    assert project.current_version is not None
    return project.current_version


def post(client: Client, url: str, body: object = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def edit(client: Client, project: Project, op: dict[str, Any], base: Any = None) -> Any:
    return post(
        client, f"/p/{project.id}/edit", {"base": str(base or current(project).id), "op": op}
    )


class Tab:
    """A channel in the project's group, as each open studio tab's consumer holds one."""

    def __init__(self, project: Project) -> None:
        self.layer: Any = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(messages.project_group(project.id), self.channel)

    def receive(self, timeout: float = 5) -> dict[str, Any]:
        async def next_message() -> dict[str, Any]:
            message: dict[str, Any] = await asyncio.wait_for(
                self.layer.receive(self.channel), timeout
            )
            return message

        return async_to_sync(next_message)()


def endpoints(project: Project, version: Version) -> list[tuple[str, str]]:
    p, v = project.id, version.id
    return [
        ("get", f"/p/{p}/versions"),
        ("get", f"/p/{p}/versions/{v}"),
        ("get", f"/p/{p}/diff?from={v}&to={v}"),
        ("post", f"/p/{p}/edit"),
        ("post", f"/p/{p}/undo"),
        ("post", f"/p/{p}/redo"),
        ("post", f"/p/{p}/versions/{v}/revert"),
        ("post", f"/p/{p}/versions/{v}/fork"),
    ]


def call(client: Client, method: str, url: str) -> Any:
    if method == "get":
        return client.get(url)
    return post(client, url, {"base": url.split("/")[2], "op": RELABEL})


def test_a_visitor_gets_a_401_and_changes_nothing(client: Client, project: Project) -> None:
    for method, url in [*endpoints(project, current(project)), ("get", "/studio/catalog")]:
        response = call(client, method, url)
        assert response.status_code == 401, url
        assert response.json()["error"] == {
            "code": "not_signed_in",
            "message": "Sign in to use the studio.",
        }
    assert project.versions.count() == 1
    assert Project.objects.count() == 1


def test_another_users_project_is_a_404_and_changes_nothing(
    client: Client, project: Project, bob: User
) -> None:
    client.force_login(bob)
    for method, url in endpoints(project, current(project)):
        response = call(client, method, url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "unknown_project"
    assert project.versions.count() == 1
    assert Project.objects.count() == 1


def test_a_deleted_project_is_a_404_with_a_clear_message(
    signed_in: Client, project: Project
) -> None:
    version = current(project)
    Project.objects.filter(pk=project.pk).delete()  # in another tab
    response = edit(signed_in, project, RELABEL, base=version.id)
    assert response.status_code == 404
    assert response.json()["error"]["message"] == PROJECT_GONE


def test_it_lists_versions_and_where_the_project_stands(
    signed_in: Client, project: Project
) -> None:
    first = current(project)
    body = signed_in.get(f"/p/{project.id}/versions").json()
    assert body["current"] == str(first.id)
    assert (body["can_undo"], body["can_redo"]) == (False, False)
    assert body["versions"] == [
        {
            "id": str(first.id),
            "number": 1,
            "kind": "generated",
            "label": "a newsletter form",
            "created_at": first.created_at.isoformat(),
            "author": None,
            "generation": None,
            "parent": None,
        }
    ]


def test_it_opens_a_version_with_the_html_and_state_the_frame_draws(
    signed_in: Client, project: Project
) -> None:
    version = current(project)
    body = signed_in.get(f"/p/{project.id}/versions/{version.id}").json()
    assert body["id"] == str(version.id)
    assert body["spec"] == version.spec
    assert "Join our newsletter" in body["html"]
    assert body["state"] == version.spec["state"]


def test_an_edit_makes_a_version_and_every_tab_hears_of_it(
    signed_in: Client, project: Project, alice: User
) -> None:
    base = current(project)
    tab = Tab(project)
    response = edit(signed_in, project, RELABEL)
    assert response.status_code == 200
    body = response.json()
    made = current(project)
    assert body["id"] == str(made.id)
    assert (body["number"], body["kind"]) == (2, "edited")
    assert body["label"] == "edited: label of button 'Subscribe'"
    assert (body["author"], body["parent"]) == ("alice", str(base.id))
    assert "Sign me up" in body["html"] and "Subscribe" not in body["html"]
    assert (body["current"], body["can_undo"], body["can_redo"]) == (str(made.id), True, False)
    assert made.spec["root"]["c"][1]["c"][3]["label"] == "Sign me up"
    assert made.author == alice
    assert tab.receive() == {
        "type": "project.changed",
        "project": str(project.id),
        "current": str(made.id),
        "can_undo": True,
        "can_redo": False,
    }


def test_an_edit_on_a_version_that_is_no_longer_current_is_a_409(
    signed_in: Client, project: Project
) -> None:
    first = current(project)
    assert edit(signed_in, project, RELABEL).status_code == 200  # another tab moved on
    response = edit(signed_in, project, {**RELABEL, "value": "Join"}, base=first.id)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "stale_version"
    assert "changed since version 1: it is now at version 2" in error["message"]
    assert project.versions.count() == 2


def test_an_invalid_edit_is_a_400_with_the_problem_and_stores_nothing(
    signed_in: Client, project: Project
) -> None:
    before = current(project)
    response = edit(
        signed_in, project, {"op": "set", "path": BUTTON, "field": "kind", "value": "x"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_edit",
        "message": "'kind' is one of 'primary', 'secondary', 'ghost', 'danger'.",
        "path": f"{BUTTON}/kind",
    }
    response = edit(signed_in, project, {"op": "delete", "path": "/root"})
    assert response.json()["error"]["message"] == "The page itself cannot be deleted."
    assert project.versions.count() == 1
    assert current(project) == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, "The request body is not valid JSON."),
        (b"[1, 2]", 400, "The request body must be a JSON object."),
        (b'{"op": {"op": "title", "value": "x"}}', 400, "'base' is required: a version id."),
        (b'{"base": "v1", "op": {}}', 400, "'base' is not a version id."),
        (b'{"base": "' + b"0" * 20_000 + b'"}', 413, "Request bodies are limited to 16384 bytes."),
    ],
)
def test_malformed_bodies_get_clear_errors(
    signed_in: Client, project: Project, body: bytes, status: int, message: str
) -> None:
    response = signed_in.post(f"/p/{project.id}/edit", body, content_type="application/json")
    assert response.status_code == status
    assert response.json()["error"]["message"] == message
    assert project.versions.count() == 1


def test_an_edit_without_an_op_is_a_400(signed_in: Client, project: Project) -> None:
    response = post(signed_in, f"/p/{project.id}/edit", {"base": str(current(project).id)})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "'op' is required: the edit to make."


def test_a_version_of_another_project_is_a_404_everywhere(
    signed_in: Client, project: Project, alice: User
) -> None:
    elsewhere = current(project_of(alice, "Another"))
    here = current(project)
    p, v = project.id, elsewhere.id
    responses = [
        signed_in.get(f"/p/{p}/versions/{v}"),
        signed_in.get(f"/p/{p}/diff?from={here.id}&to={v}"),
        edit(signed_in, project, RELABEL, base=v),
        post(signed_in, f"/p/{p}/undo", {"base": str(v)}),
        post(signed_in, f"/p/{p}/versions/{v}/revert"),
        post(signed_in, f"/p/{p}/versions/{v}/fork"),
    ]
    for response in responses:
        assert response.status_code == 404
        assert response.json()["error"] == {
            "code": "unknown_version",
            "message": "That version is not part of this project.",
        }
    assert project.versions.count() == 1
    assert Project.objects.count() == 2


def test_undo_and_redo_step_over_manual_edits_only(signed_in: Client, project: Project) -> None:
    tab = Tab(project)
    v1 = current(project)
    assert post(signed_in, f"/p/{project.id}/undo").json()["error"] == {
        "code": "nothing_to_undo",
        "message": "Nothing to undo: only manual edits can be undone, and version 1 is generated.",
    }
    v2 = edit(signed_in, project, RELABEL).json()
    v3 = edit(signed_in, project, {"op": "theme", "field": "mode", "value": "dark"}).json()
    assert [tab.receive()["current"] for _ in range(2)] == [v2["id"], v3["id"]]

    undone = post(signed_in, f"/p/{project.id}/undo").json()
    assert (undone["current"], undone["can_undo"], undone["can_redo"]) == (v2["id"], True, True)
    assert undone["version"]["id"] == v2["id"]
    assert "Sign me up" in undone["version"]["html"]
    assert tab.receive() == {
        "type": "project.changed",
        "project": str(project.id),
        "current": v2["id"],
        "can_undo": True,
        "can_redo": True,
    }
    undone = post(signed_in, f"/p/{project.id}/undo").json()
    assert (undone["current"], undone["can_undo"], undone["can_redo"]) == (str(v1.id), False, True)
    assert post(signed_in, f"/p/{project.id}/undo").status_code == 409

    redone = post(signed_in, f"/p/{project.id}/redo").json()
    assert (redone["current"], redone["can_redo"]) == (v2["id"], True)
    redone = post(signed_in, f"/p/{project.id}/redo").json()
    assert (redone["current"], redone["can_undo"], redone["can_redo"]) == (v3["id"], True, False)
    response = post(signed_in, f"/p/{project.id}/redo")
    assert response.status_code == 409
    assert response.json()["error"] == {"code": "nothing_to_redo", "message": "Nothing to redo."}
    assert project.versions.count() == 3  # undo and redo move the pointer, adding nothing

    # A new edit after an undo starts a new branch: the undone edit is no longer redoable.
    post(signed_in, f"/p/{project.id}/undo")
    v4 = edit(signed_in, project, {"op": "title", "value": "Tips"}).json()
    assert (v4["number"], v4["parent"], v4["can_redo"]) == (4, v2["id"], False)
    project.refresh_from_db()
    assert project.redo == []


def test_undo_from_a_tab_that_is_behind_is_a_409(signed_in: Client, project: Project) -> None:
    v1 = current(project)
    edit(signed_in, project, RELABEL)
    response = post(signed_in, f"/p/{project.id}/undo", {"base": str(v1.id)})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "stale_version"
    assert current(project).number == 2


def test_revert_makes_a_new_version_equal_to_an_old_one(
    signed_in: Client, project: Project
) -> None:
    v1 = current(project)
    v2 = edit(signed_in, project, RELABEL).json()
    tab = Tab(project)
    response = post(signed_in, f"/p/{project.id}/versions/{v1.id}/revert")
    assert response.status_code == 200
    body = response.json()
    assert (body["number"], body["kind"], body["label"]) == (3, "reverted", "reverted to version 1")
    assert (body["parent"], body["current"], body["can_undo"]) == (v2["id"], body["id"], False)
    assert body["spec"] == v1.spec
    assert tab.receive()["current"] == body["id"]
    again = post(signed_in, f"/p/{project.id}/versions/{body['id']}/revert")
    assert again.status_code == 409
    assert again.json()["error"]["message"] == "Version 3 is already the current version."


def test_fork_copies_a_version_into_a_new_project(
    signed_in: Client, project: Project, alice: User
) -> None:
    v1 = current(project)
    edit(signed_in, project, RELABEL)
    response = post(signed_in, f"/p/{project.id}/versions/{v1.id}/fork")
    assert response.status_code == 200
    body = response.json()
    fork = Project.objects.get(pk=body["project"])
    assert body["url"] == f"/p/{fork.id}/"
    assert (fork.owner, fork.name) == (alice, "Newsletter (fork of v1)")
    (only,) = fork.versions.all()
    assert (only.number, only.kind, only.parent) == (1, "forked", None)
    assert only.label == "forked from version 1 of Newsletter"
    assert only.spec == v1.spec
    assert fork.current_version == only
    assert current(project).number == 2  # the original is untouched
    assert signed_in.get(f"/p/{fork.id}/versions").json()["current"] == str(only.id)


def test_a_forks_name_stays_within_the_limit(signed_in: Client, alice: User) -> None:
    long = project_of(alice, "n" * 120)
    body = post(signed_in, f"/p/{long.id}/versions/{current(long).id}/fork").json()
    name = Project.objects.get(pk=body["project"]).name
    assert len(name) == 120 and name.endswith(" (fork of v1)")


def test_it_diffs_two_versions(signed_in: Client, project: Project) -> None:
    v1 = current(project)
    v2 = edit(signed_in, project, RELABEL).json()
    body = signed_in.get(f"/p/{project.id}/diff?from={v1.id}&to={v2['id']}").json()
    assert body["changes"] == [
        {"change": "changed", "path": BUTTON, "node": "button 'Sign me up'", "fields": ["label"]}
    ]
    assert body["summary"] == "1 changed"
    assert (body["from"]["number"], body["to"]["number"]) == (1, 2)
    back = signed_in.get(f"/p/{project.id}/diff?from={v2['id']}&to={v1.id}").json()
    assert back["changes"][0]["node"] == "button 'Subscribe'"


@pytest.mark.parametrize(
    ("query", "message"),
    [("", "'from' is required: a version id."), ("?from=x&to=y", "'from' is not a version id.")],
)
def test_a_diff_needs_two_version_ids(
    signed_in: Client, project: Project, query: str, message: str
) -> None:
    response = signed_in.get(f"/p/{project.id}/diff{query}")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == message


def test_the_catalog_lists_every_component_and_its_fields(signed_in: Client) -> None:
    body = signed_in.get("/studio/catalog").json()
    components = {c["name"]: c for c in body["components"]}
    assert "chart" in components and "page" in components
    button = {f["name"]: f for f in components["button"]["fields"]}
    assert button["label"] == {
        "name": "label",
        "kind": "str",
        "required": True,
        "values": [],
        "default": None,
        "doc": "",
        "max_length": 60,
    }
    assert button["kind"]["values"] == ["primary", "secondary", "ghost", "danger"]
    assert button["if"]["kind"] == "cond"
    assert [t["name"] for t in body["theme"]] == ["mode", "accent", "radius", "density"]
    assert body["wrappers"][0] == "card"
    assert "open" in {a["name"] for a in body["actions"]}
    assert body["operations"]["set"] == ["path", "field", "value"]


def test_posts_need_the_csrf_token(project: Project, alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = f"/p/{project.id}/edit"
    body = json.dumps({"base": str(current(project).id), "op": RELABEL})
    assert client.post(url, body, content_type="application/json").status_code == 403
    token = "k" * 32
    client.cookies["csrftoken"] = token
    response = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert project.versions.count() == 2


def test_unknown_project_and_version_ids_in_the_url_are_404s(signed_in: Client) -> None:
    assert signed_in.get(f"/p/{uuid.uuid4()}/versions").status_code == 404
    assert signed_in.get(f"/p/{uuid.uuid4()}/versions/not-a-version").status_code == 404
