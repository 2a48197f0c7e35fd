"""Every ```python block of the package's README runs, in order, against the
server (DATABASE_URL): the examples users copy are executed code."""

import os
import pathlib
import re

import pytest

README = pathlib.Path(os.environ.get("CHRONOID_PYTHON_README", pathlib.Path(__file__).parent.parent / "README.md"))
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_readme_example(n: int) -> None:
    exec(compile(BLOCKS[n], f"README.md example {n + 1}", "exec"), {"__name__": f"readme_{n}"})
