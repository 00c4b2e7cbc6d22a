"""`manage.py create_api_key [--name NAME]`: prints a new key, the only time it is shown."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from studio.services.api_keys import api_key_create


class Command(BaseCommand):
    help = "Create an API key for /v1/ and show it once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default="", help="a label to recognise the key by")

    def handle(self, *args: Any, **options: Any) -> None:
        api_key, key = api_key_create(name=options["name"])
        self.stderr.write(
            f"Created API key {api_key.prefix}… (name {api_key.name!r}). "
            "It is shown once, below; only its hash is stored."
        )
        self.stdout.write(key)
