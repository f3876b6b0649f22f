"""How hard passwords are hashed: argon2-cffi's recommended profile unless GOLFLAB_PASSWORD_HASHING
says otherwise (the test suite's conftest makes it ``cheapest``), and hashes of either kind verify."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from argon2 import PasswordHasher, extract_parameters, profiles

from golflab.classroom import security


def test_passwords_are_hashed_at_the_recommended_cost_unless_told_otherwise():
    code = ("from argon2 import extract_parameters; from golflab.classroom import security; "
            "print(security.password_hashing(), extract_parameters(security.hash_password('secret-1')).time_cost)")
    env = {k: v for k, v in os.environ.items() if k != security.PASSWORD_HASHING_ENV}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["recommended", str(profiles.RFC_9106_LOW_MEMORY.time_cost)]


def test_the_test_suite_hashes_cheaply_and_either_kind_of_hash_verifies():
    assert security.password_hashing() == "cheapest"
    cheap = security.hash_password("secret-1")
    assert extract_parameters(cheap).memory_cost == profiles.CHEAPEST.memory_cost
    strong = PasswordHasher.from_parameters(profiles.RFC_9106_LOW_MEMORY).hash("secret-2")
    assert security.password_matches(cheap, "secret-1") and security.password_matches(strong, "secret-2")
    assert not security.password_matches(strong, "secret-1")


def test_an_unknown_hashing_is_refused_naming_the_allowed_ones(monkeypatch):
    monkeypatch.setenv(security.PASSWORD_HASHING_ENV, "fast")
    with pytest.raises(ValueError, match="'fast' is not a password hashing: use one of recommended, cheapest"):
        security.password_hashing()
