#!/usr/bin/env python3
"""Writes THIRD_PARTY_NOTICES (`make notices`): the licenses of what dist/ and the wheel carry.

Native libraries shipped beside the extension: Z3 (libz3, MIT), ONNX Runtime (libonnxruntime, MIT;
its own third-party notices travel as ONNXRUNTIME_THIRD_PARTY_NOTICES.txt); code compiled into the
extension: SQLite (public domain, rusqlite's bundled copy), DuckDB's C extension API
headers (MIT, through the duckdb crates), and every Rust crate of the library's normal dependency
tree, listed from `cargo tree` with the license its Cargo.toml declares. The Apache-2.0 text is
included once, from a crate in the local cargo registry.

usage: notices.py [--out THIRD_PARTY_NOTICES]
"""

import argparse
import glob
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MIT = """Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE
USE OR OTHER DEALINGS IN THE SOFTWARE."""

NATIVE = [
    ("Z3 (libz3.so, from the z3-solver 5.4.0.0 wheel)", "MIT", "https://github.com/Z3Prover/z3",
     "Copyright (c) Microsoft Corporation"),
    ("ONNX Runtime (libonnxruntime.so, from the onnxruntime 1.31.1 wheel; its own notices are in "
     "ONNXRUNTIME_THIRD_PARTY_NOTICES.txt beside it)", "MIT", "https://github.com/microsoft/onnxruntime",
     "Copyright (c) Microsoft Corporation"),
    ("DuckDB C extension API (compiled in through the duckdb and libduckdb-sys crates)", "MIT",
     "https://github.com/duckdb/duckdb", "Copyright 2018-2026 Stichting DuckDB Foundation"),
]

SQLITE = """SQLite 3.50.2 (compiled in through rusqlite's bundled libsqlite3-sys): public domain.
https://sqlite.org/copyright.html
  The author disclaims copyright to this source code. In place of a legal notice, here is a blessing:
    May you do good and not evil.
    May you find forgiveness for yourself and forgive others.
    May you share freely, never taking more than you give."""


def crates():
    out = subprocess.run(
        ["cargo", "tree", "--offline", "-e", "normal", "--target", "x86_64-unknown-linux-gnu", "--prefix", "none",
         "--format", "{p}|{l}"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    rows = set()
    for line in out.splitlines():
        if "|" not in line:
            continue
        package, license_ = line.split("|", 1)
        package = package.replace(" (*)", "").strip()
        license_ = license_.replace(" (*)", "").strip() or "(not declared)"
        name_version = " ".join(package.split()[:2])
        if name_version.startswith("sqlsim "):
            continue
        rows.add((name_version, license_))
    return sorted(rows)


def apache_text():
    home = os.environ.get("CARGO_HOME", str(Path.home() / ".cargo"))
    found = sorted(glob.glob(f"{home}/registry/src/*/serde-1.*/LICENSE-APACHE"))
    if not found:
        sys.exit("notices.py: no LICENSE-APACHE in the cargo registry (build once first)")
    return Path(found[-1]).read_text().strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "THIRD_PARTY_NOTICES"))
    args = parser.parse_args()
    parts = ["THIRD-PARTY NOTICES for sqlsim",
             "",
             "sqlsim itself is MIT-licensed (LICENSE). Its builds (dist/, the Python wheel) carry or compile in",
             "the software below. Written by scripts/build/notices.py (`make notices`); do not edit by hand.",
             ""]
    for what, license_, url, copyright_ in NATIVE:
        parts += ["=" * 100, f"{what}", f"License: {license_}  {url}", "", copyright_, "", MIT, ""]
    parts += ["=" * 100, SQLITE, ""]
    rows = crates()
    parts += ["=" * 100, f"Rust crates compiled into the extension ({len(rows)}), with the license each declares.",
              "The MIT text is above (each crate's copyright holders are named in its source); the Apache-2.0",
              "text follows the list.", ""]
    width = max(len(r[0]) for r in rows)
    parts += [f"  {name:<{width}}  {license_}" for name, license_ in rows]
    parts += ["", "=" * 100, apache_text(), ""]
    Path(args.out).write_text("\n".join(parts))
    print(f"wrote {args.out} ({len(rows)} crates)")


if __name__ == "__main__":
    main()
