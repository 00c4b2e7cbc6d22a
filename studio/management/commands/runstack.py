"""`manage.py runstack`: Redis, a Celery worker with the engine, and Daphne, until Ctrl-C."""

from __future__ import annotations

import os
import signal
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from studio.services.accounts import signin_url, signin_user_ensure
from studio.stack import StackError, new_stack, wait_worker_ready


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = "Start Redis, one engine worker and Daphne; print the studio's URL and a sign-in link."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--redis-port", type=int, default=6379)
        parser.add_argument(
            "--redis-url",
            default=os.environ.get("REDIS_URL", ""),
            help="use this running Redis (default: $REDIS_URL) instead of starting the embedded "
            "one; without it, runstack refuses a port where a Redis it did not start listens",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Stop cleanly on SIGTERM and on SIGINT, even when started with SIGINT ignored (`&`).
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, _interrupt)
        stack = new_stack(settings.DATA_HOME / "run")
        try:
            if options["redis_url"]:
                stack.env["REDIS_URL"] = options["redis_url"]
            else:
                stack.start_redis(options["redis_port"], data_dir=settings.DATA_HOME / "redis")
            self.stdout.write("starting the engine worker (about a minute on a CPU)…")
            worker = stack.start_worker()
            stack.start_daphne(options["port"])
            wait_worker_ready(worker)
            self.stdout.write(self.style.SUCCESS(f"Macaron studio: {stack.url}/"))
            self._print_signin_link(stack.url)
            self.stdout.write(f"logs: {stack.run_dir}; Ctrl-C stops everything")
            while True:
                for service in stack.services:
                    service.check_alive()
                time.sleep(1)
        except KeyboardInterrupt:
            self.stdout.write("stopping…")
        except StackError as exc:
            self.stderr.write(str(exc))
            raise SystemExit(1) from None
        finally:
            stack.stop()

    def _print_signin_link(self, base_url: str) -> None:
        """As Jupyter prints its token URL: a link that signs the local user in, once."""
        user, created = signin_user_ensure()
        made = " (just created, without a password)" if created else ""
        self.stdout.write(
            f"To sign in as {user.get_username()!r}{made}, open this one-time link "
            "(`manage.py signin_url` prints another):\n"
            f"    {signin_url(user=user, base_url=base_url)}"
        )
