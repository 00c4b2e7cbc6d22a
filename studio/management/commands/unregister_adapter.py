"""`manage.py unregister_adapter NAME`: refuse new requests for NAME; workers drain, then unload."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from studio.errors import NotFound
from studio.services.adapters import AdapterRejected, adapter_unregister


class Command(BaseCommand):
    help = "Unregister an adapter: in-flight requests on it finish, then workers unload it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")

    def handle(self, *args: Any, **o: Any) -> None:
        try:
            record = adapter_unregister(name=o["name"])
        except (AdapterRejected, NotFound) as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Unregistered {record.name} ({record.sha256[:12]}); workers drain it")
