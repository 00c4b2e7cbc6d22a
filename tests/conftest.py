"""Fixtures shared by every test: a private Redis, the real stack, and one Debian Chromium.

Real-stack tests start Redis, a Celery worker hosting the vLLM engine with the default model,
and Daphne, once per session, on free loopback ports and a throwaway database.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from studio.chromium import launch_chromium
from studio.stack import Stack, free_port, new_stack, throwaway_stack, wait_worker_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CORES = os.cpu_count() or 2
REPL_IDLE_SECONDS = 40


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last. Playwright's sync API keeps its event loop running in the main
    thread once the session's Chromium is up, and an asyncio test after that cannot start its
    own loop ("Cannot run the event loop while another loop is running")."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for the whole session; each test gets a fresh context."""
    from playwright.sync_api import sync_playwright  # only browser tests need it

    with sync_playwright() as p:
        chromium = launch_chromium(p)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    yield context.new_page()
    context.close()


@pytest.fixture
def errors(page: Page) -> list[str]:
    """Console errors and uncaught exceptions on `page`; a CSP violation shows up here too."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    return seen


@pytest.fixture(scope="session")
def redis_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A private Redis server on a free loopback port."""
    stack = new_stack(tmp_path_factory.mktemp("redis"))
    stack.start_redis(free_port())
    yield stack
    stack.stop()


@pytest.fixture(scope="session")
def redis_url(redis_stack: Stack) -> str:
    return redis_stack.env["REDIS_URL"]


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Redis, one engine worker and Daphne, against a throwaway SQLite database."""
    run_dir = tmp_path_factory.mktemp("stack")
    # Tests start a second worker beside this one: engines sharing a host split its cores.
    # One designer runs every stack test: eight generations at once (two workers sharing a
    # queue), and more than the default ten a minute.
    live = throwaway_stack(
        run_dir,
        {
            "MACARON_ENGINE_THREADS": str(max(1, CORES // 2)),
            "MACARON_STUDIO_MAX_CONCURRENT": "8",
            "MACARON_STUDIO_RATE_PER_MINUTE": "100",
            # A REPL session idles out within a test's patience (tests/stack/test_repl_stack.py).
            "MACARON_REPL_IDLE_SECONDS": str(REPL_IDLE_SECONDS),
        },
    )
    try:
        live.start_redis(free_port())
        worker = live.start_worker()
        live.start_daphne(free_port())
        wait_worker_ready(worker)
        yield live
    finally:
        live.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Django drops the test database's file but not SQLite's WAL and shared-memory files
    beside it."""
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    for suffix in ("-wal", "-shm"):
        if name and os.path.exists(name + suffix):
            os.remove(name + suffix)
