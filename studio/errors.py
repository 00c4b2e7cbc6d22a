"""The error types services and selectors raise for requests they refuse: a stable code plus a
readable message.

Subclasses say why (not authenticated, not found, too large, rate limited), so the HTTP layer
can map each to its status without services knowing about HTTP.
"""

from __future__ import annotations


class InvalidRequest(ValueError):
    def __init__(self, code: str, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.param = param  # the request field at fault, when there is one


# What anyone gets for a project that is gone or was never theirs: the same words either way,
# so a 404 tells no one that someone else's project exists.
PROJECT_GONE = (
    "This project no longer exists (deleted, perhaps in another tab); nothing was changed."
)


class NotAuthenticated(InvalidRequest):
    """No key, a bad key, a revoked key, or a key sent where it must not be."""


class NotFound(InvalidRequest):
    """An unknown (or unserved) model, expert or generation; other keys' things included."""


class TooLarge(InvalidRequest):
    """The request body is over the limit."""


class Conflict(InvalidRequest):
    """It clashes with what is there (a tool name another author holds): 409."""


class Unprocessable(InvalidRequest):
    """Well formed, but it failed a check run on it (a tool's tests): 422."""


class RateLimited(InvalidRequest):
    def __init__(self, code: str, message: str, *, retry_after: int) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class EngineFailed(InvalidRequest):
    """The generation ran but failed (or did not finish in time); the caller may retry."""


class Gone(InvalidRequest):
    """It existed and was withdrawn on purpose (an unpublished widget): 410, not 404."""


class Unavailable(InvalidRequest):
    """This host cannot do it now or at all (no sandbox for REPL sessions): 503."""
