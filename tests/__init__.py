"""golflab's tests, grouped by what they test (``engine``, ``simulation``, ``kernel``, ``coach``, ``classroom``,
``widgets``, ``browser``, ``project``); their helpers are ``tests.support``."""
