"""The one kind of error a user can cause: it ends the command with one line and exit code 2."""


class UserError(Exception):
    """A problem with the user's input, said in one line (no traceback is shown)."""
