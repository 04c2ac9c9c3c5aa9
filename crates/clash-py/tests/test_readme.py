"""The README's Python example runs as written (in a fresh interpreter, in a
scratch directory that sees the repo's ``data/``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import REPO


def python_blocks():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("\n## Python\n"):readme.index("\n## One example per crate\n")]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def run(block, tmp_path):
    os.symlink(REPO / "data", tmp_path / "data")
    (tmp_path / "example.py").write_text(block)
    subprocess.run([sys.executable, "example.py"], cwd=tmp_path, check=True, timeout=600)


def test_the_readme_example_runs(tmp_path):
    blocks = python_blocks()
    assert len(blocks) == 2, "the README's Python section has two examples"
    run(blocks[0], tmp_path)
    assert (tmp_path / "bunny.clash").exists()


def test_the_readme_world_and_robot_example_runs(tmp_path):
    run(python_blocks()[1], tmp_path)
