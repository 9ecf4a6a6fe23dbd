#!/usr/bin/env python3
"""Builds dist/sqlsim-<version>-py3-none-<manylinux tag>.whl from dist/ and python/ (`make wheel`).

Steps, each with a maintained tool:
1. stage python/ (pyproject.toml, setup.py, the sqlsim package) in target/wheel/stage with the
   binaries from dist/ in sqlsim/lib/ (both extensions, libz3, ONNX Runtime, the GMN models: the
   extension finds the libraries through its $ORIGIN run path and the models beside itself), the
   SQL report scripts in sqlsim/sql/, LICENSE and THIRD_PARTY_NOTICES, docs/python.md as README;
2. `pip wheel --no-build-isolation --no-deps` with setuptools (tag py3-none-linux_x86_64: not pure,
   no Python ABI, since no Python extension module is inside);
3. `auditwheel show` names the manylinux policy every bundled ELF file satisfies (glibc symbol
   versions, libraries outside the wheel limited to the policy's list);
4. `wheel tags --platform-tag` sets that tag; the result replaces any older sqlsim wheel in dist/.

usage: build_wheel.py [--dist dist] [--tools .cache/wheel-tools/bin/python]
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import ROOT, die  # noqa: E402

LIB_PATTERNS = ("sqlsim.so", "sqlsim.duckdb_extension", "libz3.so.*", "libonnxruntime.so.*", "*.onnx",
                "ONNXRUNTIME_THIRD_PARTY_NOTICES.txt")
SQL_SCRIPTS = ("spider_eval.sql", "spider_eval_sqlite.sql", "bird_eval.sql")


def version():
    for line in (ROOT / "Cargo.toml").read_text().splitlines():
        if line.startswith("version"):
            return line.split('"')[1]
    die("no version in Cargo.toml")


def stage(dist: Path, at: Path):
    shutil.rmtree(at, ignore_errors=True)
    package = at / "sqlsim"
    shutil.copytree(ROOT / "python" / "sqlsim", package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "lib"))
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / "python" / name, at / name)
    shutil.copy2(ROOT / "docs" / "python.md", at / "README.md")
    (at / "VERSION").write_text(version() + "\n")
    for name in ("LICENSE", "THIRD_PARTY_NOTICES"):
        shutil.copy2(ROOT / name, at / name)
        shutil.copy2(ROOT / name, package / name)
    lib = package / "lib"
    lib.mkdir()
    for pattern in LIB_PATTERNS:
        found = sorted(dist.glob(pattern))
        if not found:
            die(f"{dist}/{pattern} is missing: run `make` first")
        for f in found:
            shutil.copy2(f, lib / f.name)
    (package / "sql").mkdir()
    for name in SQL_SCRIPTS:
        shutil.copy2(ROOT / "sql" / name, package / "sql" / name)


def run(cmd, **kw):
    done = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if done.returncode != 0:
        die(f"{' '.join(map(str, cmd))} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", default=str(ROOT / "dist"))
    parser.add_argument("--tools", default=str(ROOT / ".cache" / "wheel-tools" / "bin" / "python"),
                        help="python of the venv holding requirements-wheel.txt")
    args = parser.parse_args()
    dist, tools = Path(args.dist).resolve(), args.tools
    work = ROOT / "target" / "wheel"
    staged, built = work / "stage", work / "built"
    stage(dist, staged)
    shutil.rmtree(built, ignore_errors=True)
    run([tools, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
         "-w", str(built), str(staged)])
    wheels = sorted(built.glob("sqlsim-*.whl"))
    if len(wheels) != 1:
        die(f"expected one wheel in {built}, found {wheels}")
    report = run([tools, "-m", "auditwheel", "show", str(wheels[0])])
    tags = re.findall(r'"(manylinux_\d+_\d+_x86_64)"', report)
    if not tags:
        die(f"auditwheel found no manylinux policy the wheel satisfies:\n{report}")
    tag = tags[0]
    print(" ".join(report.split()))
    run([tools, "-m", "wheel", "tags", "--remove", "--platform-tag", tag, str(wheels[0])])
    tagged = sorted(built.glob(f"sqlsim-*-{tag}.whl"))
    if len(tagged) != 1:
        die(f"wheel tags left {sorted(built.iterdir())}")
    for old in dist.glob("sqlsim-*.whl"):
        old.unlink()
    target = dist / tagged[0].name
    shutil.copy2(tagged[0], target)
    print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target} "
          f"({target.stat().st_size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
