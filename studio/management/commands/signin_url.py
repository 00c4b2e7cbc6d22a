"""`manage.py signin_url [--username NAME] [--url BASE]`: prints a one-time sign-in link.

With no users yet it creates a local superuser first, so a fresh clone needs no setup. The link
alone goes to stdout (for scripts and tests); what was created goes to stderr.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from studio.errors import InvalidRequest
from studio.services.accounts import signin_url, signin_user_ensure


class Command(BaseCommand):
    help = "Print a one-time sign-in link for the studio, creating a local user if none exists."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--username",
            help="who signs in (created if missing); default: the first superuser, else the "
            "first user, else a new superuser named after this OS account",
        )
        parser.add_argument(
            "--url",
            default=f"http://127.0.0.1:{os.environ.get('PORT', '8000')}",
            help="the studio's base URL (default: %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user, created = signin_user_ensure(username=options["username"])
        except InvalidRequest as exc:
            raise CommandError(exc.message) from exc
        if created:
            role = "superuser" if user.is_superuser else "user"
            self.stderr.write(
                f"Created the {role} {user.get_username()!r}; it has no password (sign in by "
                "link, or set one with `manage.py changepassword`)."
            )
        self.stderr.write(f"One-time sign-in link for {user.get_username()!r}:")
        self.stdout.write(signin_url(user=user, base_url=options["url"]))
