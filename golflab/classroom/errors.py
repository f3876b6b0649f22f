"""The store's errors, importable without SQLAlchemy (an app shows them; a guest's page never
loads the store)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be opened or written (its message says why, in plain words)."""


class StoreConflict(StoreUnavailable):
    """Another page wrote the same thing first (a unique key): reading again shows what it wrote."""


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer golflab than this one."""


class SignedOut(PermissionError):
    """The page's session has ended (signed out, expired, or its password reset): nothing was done."""

    def __init__(self, message: str = "this page is signed out (its sign-in was ended or has expired): "
                                      "sign in again to go on; nothing was changed") -> None:
        super().__init__(message)
