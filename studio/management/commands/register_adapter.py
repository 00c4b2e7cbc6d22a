"""`manage.py register_adapter NAME PATH`: validate a LoRA folder against the served base, make
it the active NAME, and have every running worker load it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from studio.services import adapter_broadcast
from studio.services.adapters import AdapterRejected, adapter_register


class Command(BaseCommand):
    help = "Register (or replace) an expert's LoRA adapter; running workers load it at once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the public name requests use as 'router'")
        parser.add_argument("path", help="a peft LoRA folder with macaron-manifest.json")
        parser.add_argument("--purpose", default="", help="one line on what the expert is for")
        parser.add_argument(
            "--structured",
            action="store_true",
            default=None,
            help="decode under the UI4A schema and render views (else: the manifest says)",
        )

    def handle(self, *args: Any, **o: Any) -> None:
        try:
            record = adapter_register(
                name=o["name"], path=o["path"], purpose=o["purpose"], structured=o["structured"]
            )
        except AdapterRejected as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"Registered {record.name}: sha256 {record.sha256[:12]}, rank {record.rank}, "
            f"{'structured' if record.structured else 'text'} expert"
        )
        resident = adapter_broadcast.resident_everywhere()
        for worker, reply in sorted(resident.items()):
            versions = [a for a in reply.get("resident", []) if a["sha256"] == record.sha256]
            state = f"loaded in {versions[0]['load_ms']} ms" if versions else "not resident yet"
            self.stdout.write(f"  {worker}: {state}")
        if not resident:
            self.stdout.write("  no worker answered; workers load it on its first request")
