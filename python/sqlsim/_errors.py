"""The CLI's error for bad arguments or input: printed as one line without a traceback, exit status 2."""


class UsageError(ValueError):
    """Bad command-line input: the message names the file, row or column and what was expected."""
