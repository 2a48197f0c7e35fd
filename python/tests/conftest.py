"""The package's tests run against an installed wheel (never this source
tree: tests/t/024_python_package.pl installs the built wheel into a fresh
virtualenv) and a real server named by DATABASE_URL, where chronoid is
installed."""

import os
from collections.abc import Iterator

import psycopg
import pytest


@pytest.fixture(scope="session")
def url() -> str:
    return os.environ["DATABASE_URL"]


@pytest.fixture
def conn(url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("CREATE EXTENSION IF NOT EXISTS chronoid")
        yield c
