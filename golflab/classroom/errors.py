"""The store's errors, importable without SQLAlchemy (an app shows them; a guest's page never
loads the store)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be opened or written (its message says why, in plain words)."""


class StoreConflict(StoreUnavailable):
    """Another page wrote the same thing first (a unique key): reading again shows what it wrote."""


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer golflab than this one."""
