"""The README's Python example runs as written (in a fresh interpreter, in a
scratch directory that sees the repo's ``data/``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import REPO


def test_the_readme_example_runs(tmp_path):
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("\n## Python\n"):]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "no Python example in the README's Python section"
    os.symlink(REPO / "data", tmp_path / "data")
    (tmp_path / "example.py").write_text(blocks[0])
    subprocess.run([sys.executable, "example.py"], cwd=tmp_path, check=True, timeout=600)
    assert (tmp_path / "bunny.clash").exists()
