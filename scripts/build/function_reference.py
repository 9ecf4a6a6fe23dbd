"""The README's function reference, generated from the registry: one row per SQL function as the
built extension's `sqlsim_functions()` reports it (name and parameters, result, its one or two
sentences), each linked to its full description in docs/functions.md, which every doc string names.

    .venv/bin/python scripts/build/function_reference.py                 # print the table
    .venv/bin/python scripts/build/function_reference.py --write README.md   # replace it between the markers
    .venv/bin/python scripts/build/function_reference.py --check README.md   # exit 1 when it differs

`make docs` runs --write; tests/docs/test_function_reference.py fails when the checked-in table is
not what the registry generates, so the reference cannot drift from the code. The extension is
dist/sqlsim.so (or $SQLSIM_DIST, or --extension), loaded into apsw as scripts/common.py does.
"""

import argparse
import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import common  # noqa: E402

BEGIN = "<!-- functions:begin -->"
END = "<!-- functions:end -->"
NOTE = ("<!-- written by `make docs` (scripts/build/function_reference.py) from sqlsim_functions(); "
        "do not edit by hand -->")
DETAILS = "docs/functions.md"


def registry_rows(extension=None):
    """(name, kind, signature, doc) of every function, in the registry's order."""
    con = common.connect_apsw(extension)
    try:
        return [tuple(r) for r in con.execute("SELECT name, kind, signature, doc FROM sqlsim_functions()")]
    finally:
        con.close()


def cell(text):
    """Text safe inside a Markdown table cell (a literal `|` would start a new cell)."""
    return " ".join(text.split()).replace("|", "\\|")


def split_doc(name, doc, details=DETAILS):
    """(sentences, link target) of a registry doc string, which ends with `See <details>#<name>.`:
    the full description lives in that section, the doc string is its one or two sentences."""
    ending = f" See {details}#{name}."
    if not doc.endswith(ending):
        raise ValueError(f"{name}'s doc must end with {ending.strip()!r}: {doc!r}")
    return doc[:-len(ending)], f"{details}#{name}"


def table(rows, details=DETAILS):
    """The Markdown table: the call as written (parameters with their types; optional ones in
    brackets), what it returns (a table function's columns), the registry's sentences and the link
    they end with, to the function's section of `details`."""
    lines = ["| function | returns | description |", "|---|---|---|"]
    for name, kind, signature, doc in rows:
        call, sep, returns = signature.partition(" -> ")
        if not sep or not call.startswith(name + "("):
            raise ValueError(f"unexpected signature for {name}: {signature!r}")
        text, target = split_doc(name, doc, details)
        lines.append(f"| `{cell(call)}` | {cell(returns)} | {cell(text)} [details]({target}) |")
    return "\n".join(lines)


def block(rows):
    """What goes between the markers (the markers' own lines excluded)."""
    return f"\n{NOTE}\n{table(rows)}\n"


def split(text, path):
    """(head, current block, tail) of a file around the markers; each marker must occur once."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{path}: needs exactly one {BEGIN} followed by one {END}")
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    return head, current, tail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extension", help="the SQLite extension file (default dist/sqlsim.so)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", help="replace the table between the markers of FILE")
    group.add_argument("--check", metavar="FILE", help="exit 1 when FILE's table is not the generated one")
    args = ap.parse_args()

    rows = registry_rows(args.extension)
    generated = block(rows)
    path = args.write or args.check
    if path is None:
        print(generated.strip("\n"))
        return 0
    text = Path(path).read_text(encoding="utf-8")
    head, current, tail = split(text, path)
    if args.check:
        if current == generated:
            return 0
        diff = difflib.unified_diff(current.splitlines(), generated.splitlines(), "checked in", "generated",
                                    lineterm="")
        print(f"{path}: the function reference differs from the registry; run `make docs`", file=sys.stderr)
        print("\n".join(diff), file=sys.stderr)
        return 1
    if current != generated:
        Path(path).write_text(head + BEGIN + generated + END + tail, encoding="utf-8")
        print(f"{path}: function reference updated ({len(rows)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
