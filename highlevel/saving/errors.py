"""The errors a model file can raise when it is read: both are ``ValueError`` subclasses.

>>> import highlevel as hl
>>> issubclass(hl.saving.UnsafeFileError, ValueError), issubclass(hl.saving.InvalidFileError, ValueError)
(True, True)
"""


class InvalidFileError(ValueError):
    """The file is not a readable highlevel model or weights file (truncated, corrupt, wrong format).

    >>> import highlevel as hl
    >>> try:
    ...     hl.models.model_from_json('{"class_name": "os.system"}')
    ... except hl.saving.InvalidFileError as error:
    ...     print(type(error).__name__, isinstance(error, ValueError))
    InvalidFileError True
    """


class UnsafeFileError(ValueError):
    """The file asks for something a safe loader refuses: code or classes outside the allow-list, archive
    members with dangerous paths, links, or sizes meant to exhaust memory.

    >>> import highlevel as hl
    >>> issubclass(hl.saving.UnsafeFileError, ValueError)  # catch either error as a ValueError
    True
    """
