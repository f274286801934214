"""Errors that reach the user as one line and exit code 2."""


class UsageError(ValueError):
    """Bad arguments or input; the message says what to fix."""
