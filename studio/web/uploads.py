"""A multipart upload within a byte budget: refused by its declared Content-Length before a
byte is read, and cut off by an upload handler as soon as the received file data passes the
budget (for a client that declares nothing, or lies)."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from studio.errors import TooLarge
from studio.services.datasets.limits import megabytes

# Multipart framing and form fields around the file itself.
MULTIPART_SLACK = 64 * 1024


class UploadBudget(FileUploadHandler):
    """First in the handler chain: counts file bytes and stops the upload past `limit`."""

    def __init__(self, request: HttpRequest, limit: int) -> None:
        super().__init__(request)
        self.limit = limit
        self.received = 0
        self.exceeded = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            self.exceeded = True
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> Any:
        return None  # the next handler (Django's own) makes the file


def too_large(limit: int, size: int | None = None) -> TooLarge:
    what = f"this one is {megabytes(size)}" if size else "this one is larger"
    return TooLarge("file_too_large", f"Uploads are limited to {megabytes(limit)}; {what}.")


def install_budget(request: HttpRequest, limit: int) -> UploadBudget:
    """Before anything reads the body: refuse a declared size over the budget, and put the
    counting handler first. The view must be csrf_exempt outside (the CSRF check reads the
    body) and check CSRF itself after this."""
    declared = request.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > limit + MULTIPART_SLACK:
        raise too_large(limit, int(declared))
    budget = UploadBudget(request, limit)
    request.upload_handlers.insert(0, budget)
    return budget
