"""The READMEs' Python examples run as written (in a fresh interpreter, in a
scratch directory that sees the repo's ``data/``): the package's two, in
``crates/clash-py/README.md``, and the repository README's one."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import REPO

PACKAGE_README = REPO / "crates" / "clash-py" / "README.md"


def python_blocks(readme):
    return re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S)


def run(block, tmp_path):
    os.symlink(REPO / "data", tmp_path / "data")
    (tmp_path / "example.py").write_text(block)
    subprocess.run([sys.executable, "example.py"], cwd=tmp_path, check=True, timeout=600)


def test_the_readme_example_runs(tmp_path):
    blocks = python_blocks(PACKAGE_README)
    assert len(blocks) == 2, "the package's README has two examples"
    run(blocks[0], tmp_path)
    assert (tmp_path / "bunny.clash").exists()


def test_the_readme_world_and_robot_example_runs(tmp_path):
    run(python_blocks(PACKAGE_README)[1], tmp_path)


def test_the_repository_readme_example_runs(tmp_path):
    blocks = python_blocks(REPO / "README.md")
    assert len(blocks) == 1, "the repository's README has one Python example"
    run(blocks[0], tmp_path)
