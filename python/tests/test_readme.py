"""Every ```python block of the package's README runs against the server
(DATABASE_URL), each as a program of its own (as a user would paste it):
the examples users copy are executed code."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(os.environ.get("CHRONOID_PYTHON_README", pathlib.Path(__file__).parent.parent / "README.md"))
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_examples() -> None:
    assert len(BLOCKS) >= 12


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_readme_example(n: int, tmp_path: pathlib.Path) -> None:
    run = subprocess.run([sys.executable, "-c", BLOCKS[n]], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"README example {n + 1}:\n{BLOCKS[n]}\n{run.stdout}\n{run.stderr}"
