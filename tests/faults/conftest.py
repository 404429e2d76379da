"""Fixtures of the fault tests: a redis-server of a test's own."""

from .redis_server import redis_server  # noqa: F401  # a fixture
