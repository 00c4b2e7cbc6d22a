"""Unexpected exceptions, as clients see them: a generic message with an id, never the text.

An exception's text can hold paths, SQL, a model's internals or another user's data; the log
keeps it under the same id, so a report quoting the id finds it."""

from __future__ import annotations

import logging
import uuid

log = logging.getLogger(__name__)


def failure_logged(context: str) -> str:
    """Log the exception being handled, with a fresh id; returns the id. Call in `except`."""
    failure_id = uuid.uuid4().hex[:12]
    log.exception("%s (failure %s)", context, failure_id)
    return failure_id


def failure_message(failure_id: str) -> str:
    return f"Something went wrong on our side (failure {failure_id}); try again, or quote the id."
