"""Signing a browser in to Django's live test server as a user, without the sign-in page."""

from __future__ import annotations

from typing import Any

from django.test import Client
from playwright.sync_api import Page


def sign_in(page: Page, live_server: Any, user: Any) -> None:
    """Give the page's browser context `user`'s session cookie for the live server."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
