"""The wheel's tags: `py3-none-<platform>`, not a pure wheel (it carries ELF files), not tied to a
Python ABI (no Python extension module: the hosts load the files by path). The platform tag comes
from SQLSIM_WHEEL_PLAT (scripts/build/build_wheel.py sets it to what `auditwheel show` reports) and
defaults to linux_x86_64. The version is Cargo.toml's, written to VERSION by the build script."""

import os
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel

HERE = Path(__file__).resolve().parent


def version():
    staged = HERE / "VERSION"
    if staged.is_file():
        return staged.read_text().strip()
    for line in (HERE.parent / "Cargo.toml").read_text().splitlines():
        if line.startswith("version"):
            return line.split('"')[1]
    raise SystemExit("setup.py: no VERSION file and no version in ../Cargo.toml")


class BinaryDistribution(Distribution):
    """Carries ELF files: installed to platlib (the wheel root is not purelib)."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        return "py3", "none", os.environ.get("SQLSIM_WHEEL_PLAT", "linux_x86_64")


setup(version=version(), distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
