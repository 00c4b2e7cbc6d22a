"""Accounts: the studio wants a signed-in user; one-time sign-in links work once and expire;
`manage.py signin_url` makes the local user; the API keeps its keys and /healthz stays open."""

from __future__ import annotations

import datetime
import re
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from studio.services.accounts import signin_path, signin_tokens, signin_user_ensure

pytestmark = pytest.mark.django_db

LINK = re.compile(r"^http://studio\.test:9000/signin/[\w-]+/[0-9a-z]+-[0-9a-f]+/$")


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", password="a-long-secret-1")


def test_it_sends_anonymous_visitors_to_the_sign_in_page(client: Client) -> None:
    for url in ["/", "/p/8c3e1b36-7d8e-4a51-9a3c-5b0a4ab5a0a1/"]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/signin/?next=")
    page = client.get("/signin/")
    assert page.status_code == 200
    assert b"Sign in" in page.content and b"manage.py signin_url" in page.content
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]


def test_it_leaves_the_health_check_and_the_key_authenticated_api_alone(client: Client) -> None:
    assert client.get("/healthz").status_code == 200
    api = client.get("/v1/models")
    assert api.status_code == 401  # a missing key, not a sign-in redirect
    assert api.json()["error"]["code"]


def test_it_signs_in_with_a_password_and_out_with_a_post(client: Client, alice: User) -> None:
    response = client.post("/signin/", {"username": "alice", "password": "a-long-secret-1"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200
    assert client.get("/signout/").status_code == 405  # a link cannot sign anyone out
    assert client.post("/signout/").status_code == 302
    assert client.get("/").status_code == 302


def test_a_wrong_password_gets_a_clear_message(client: Client, alice: User) -> None:
    response = client.post("/signin/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content


def test_a_sign_in_link_works_once(client: Client, alice: User) -> None:
    link = signin_path(user=alice)
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/").status_code == 200

    stranger = Client()
    again = stranger.get(link)
    assert again.status_code == 400
    assert b"expired or was already used" in again.content
    assert stranger.get("/").status_code == 302


def test_a_link_made_after_signing_in_dies_when_used_in_the_same_second(alice: User) -> None:
    """last_login is hashed to the microsecond, so quick reuse is refused too."""
    first, second = Client(), Client()
    first.get(signin_path(user=alice))
    alice.refresh_from_db()
    link = signin_path(user=alice)
    assert first.get(link).status_code == 302
    assert second.get(link).status_code == 400


def test_a_sign_in_link_expires(
    client: Client, alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MACARON_SIGNIN_LINK_SECONDS = 3600
    link = signin_path(user=alice)
    now = datetime.datetime.now()
    monkeypatch.setattr(signin_tokens, "_now", lambda: now + datetime.timedelta(seconds=3590))
    assert signin_tokens.check_token(alice, link.rstrip("/").rsplit("/", 1)[1])
    monkeypatch.setattr(signin_tokens, "_now", lambda: now + datetime.timedelta(seconds=3700))
    assert client.get(link).status_code == 400
    assert client.get("/").status_code == 302


@pytest.mark.parametrize(
    "path",
    [
        "/signin/MQ/not-a-token/",
        "/signin/bm9wZQ/1-abc/",  # a uid that is no number
        "/signin/!!!/1-abc/",
        "/signin/MTIzNDU2/1-abc/",  # nobody
        "/signin/MQ/" + "1" * 500 + "-abc/",
    ],
)
def test_forged_links_are_refused(client: Client, alice: User, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (400, 404)
    assert client.get("/").status_code == 302


def test_a_link_for_a_deactivated_user_is_refused(client: Client, alice: User) -> None:
    link = signin_path(user=alice)
    alice.is_active = False
    alice.save()
    assert client.get(link).status_code == 400


def test_a_link_goes_on_to_a_next_url_of_ours_only(client: Client, alice: User) -> None:
    ours = client.get(signin_path(user=alice) + "?next=/p/x/")
    assert ours["Location"] == "/p/x/"
    alice.refresh_from_db()  # that sign-in killed every link made before it
    theirs = Client().get(signin_path(user=alice) + "?next=https://evil.example/")
    assert theirs["Location"] == "/"


def test_the_command_creates_the_local_superuser_once_and_prints_a_link(client: Client) -> None:
    out, err = StringIO(), StringIO()
    call_command("signin_url", "--url", "http://studio.test:9000", stdout=out, stderr=err)
    link = out.getvalue().strip()
    assert LINK.match(link), link
    assert "Created the superuser" in err.getvalue()
    local = User.objects.get()
    assert local.is_superuser and not local.has_usable_password()

    out2, err2 = StringIO(), StringIO()
    call_command("signin_url", "--url", "http://studio.test:9000/", stdout=out2, stderr=err2)
    assert User.objects.count() == 1 and "Created" not in err2.getvalue()
    assert LINK.match(out2.getvalue().strip())

    assert client.get(link.removeprefix("http://studio.test:9000")).status_code == 302
    assert client.get("/admin/").status_code == 200  # the local user manages users


def test_the_command_makes_a_named_plain_user(client: Client) -> None:
    signin_user_ensure()  # the local superuser exists already
    out, err = StringIO(), StringIO()
    call_command("signin_url", "--username", "bob", stdout=out, stderr=err)
    bob = User.objects.get(username="bob")
    assert not bob.is_superuser and not bob.is_staff
    assert "Created the user 'bob'" in err.getvalue()
    assert out.getvalue().startswith("http://127.0.0.1:")
    with pytest.raises(CommandError, match="username"):
        call_command("signin_url", "--username", "no spaces allowed", stdout=StringIO())
    with pytest.raises(CommandError, match="1 to 150"):
        call_command("signin_url", "--username", "x" * 151, stdout=StringIO())


def test_without_a_name_it_picks_the_first_superuser(alice: User) -> None:
    root = User.objects.create_superuser("root", password=None)
    assert signin_user_ensure() == (root, False)


def test_runstack_prints_a_sign_in_link_the_way_jupyter_prints_its_token_url() -> None:
    from studio.management.commands.runstack import Command

    out = StringIO()
    Command(stdout=out)._print_signin_link("http://127.0.0.1:8000")
    printed = out.getvalue()
    assert "just created, without a password" in printed
    link = re.search(r"one-time link.*\n    (http://127\.0\.0\.1:8000/signin/\S+/)\n$", printed)
    assert link is not None, printed
    assert Client().get(link.group(1).removeprefix("http://127.0.0.1:8000")).status_code == 302
