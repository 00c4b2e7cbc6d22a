"""`manage.py revoke_api_key PREFIX`: the key stops working at once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from studio.errors import NotFound
from studio.services.api_keys import api_key_revoke


class Command(BaseCommand):
    help = "Revoke an API key, named by its prefix (or the whole key)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("prefix")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            api_key = api_key_revoke(prefix=options["prefix"])
        except NotFound as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Revoked API key {api_key.prefix}…")
