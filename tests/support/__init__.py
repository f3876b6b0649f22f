"""Helpers the tests share, imported as a package: ``from tests.support.kernel_marks import needs_compiled``."""
