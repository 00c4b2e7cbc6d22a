"""The one error type services raise for bad requests: a stable code plus a readable message."""


class InvalidRequest(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
