"""The one thing pyproject.toml cannot say: the wheel carries the top-level
sample_workspace/ as reme_tui/demo_workspace/, what `reme-tui demo` copies out (the
checkout keeps one copy; an editable install reads it in place)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SAMPLE = Path(__file__).resolve().parent / "sample_workspace"


class BuildWithDemoWorkspace(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not SAMPLE.is_dir():
            return
        target = Path(self.build_lib) / "reme_tui" / "demo_workspace"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(SAMPLE, target)


setup(cmdclass={"build_py": BuildWithDemoWorkspace})
