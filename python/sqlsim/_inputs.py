"""Reading the CLI's input files with errors that name the file, the line or column and what was
expected, never a parser's internals: a JSONL file is read line by line in Python (a bad line is
named with its number and column), CSV/TSV and Parquet by DuckDB after a check that the file is
what its name says (a JSONL file named .csv, a CSV named .jsonl)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ._scripts import sql_string
from ._errors import UsageError

JSONL = (".jsonl", ".ndjson")
READERS = {".json": "read_json_auto({})", ".csv": "read_csv_auto({}, header=true)",
           ".tsv": "read_csv_auto({}, header=true, delim='\t')", ".parquet": "read_parquet({})"}
SUFFIXES = JSONL + tuple(READERS)


def is_file(text) -> bool:
    """Whether `text` names an existing file; False for text no file could be named (too long,
    holding a NUL byte), so that SQL or schema text given inline is never an OS error."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def is_dir(text) -> bool:
    try:
        return Path(text).is_dir()
    except (OSError, ValueError):
        return False


def input_file(path: str, what: str) -> Path:
    """`path` as an existing, readable regular file, or a UsageError saying which of those it is not."""
    if path is None or str(path).strip() == "":
        raise UsageError(f"{what}: an empty path (expected a file)")
    p = Path(path)
    if is_dir(path):
        raise UsageError(f"{what} {path}: is a folder, expected a file")
    if not is_file(path):
        raise UsageError(f"{what} {path}: no such file")
    try:
        with open(p, "rb"):
            pass
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot be read ({e.strerror})") from None
    return p


def read_text(path: Path, what: str) -> str:
    """The file as UTF-8 text; bytes that are not UTF-8 are an error naming the line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise UsageError(f"{what} {path}: line {line} is not UTF-8 text (byte 0x{data[e.start]:02x})") from None


def _looks_like_json_line(line: str) -> bool:
    return line.lstrip().startswith(("{", "["))


def _jsonl_rows(path: Path, what: str) -> list[dict]:
    rows = []
    for number, line in enumerate(read_text(path, what).splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as e:
            hint = ""
            if number == 1 and "," in line and not _looks_like_json_line(line):
                hint = " (it looks like CSV: name the file .csv)"
            raise UsageError(f"{what} {path}: line {number}, column {getattr(e, 'colno', 1)}: not JSON "
                             f"({getattr(e, 'msg', e)}); expected one JSON object per line{hint}") from None
        if not isinstance(value, dict):
            raise UsageError(f"{what} {path}: line {number}: a JSON {type(value).__name__}, expected one JSON "
                             "object per line")
        rows.append(value)
    return rows


def _check_csv(path: Path, what: str, delimiter: str):
    text = read_text(path, what)
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise UsageError(f"{what} {path}: empty, expected a header row and one row per pair")
    if _looks_like_json_line(first):
        raise UsageError(f"{what} {path}: line 1 starts with '{first.lstrip()[0]}': it looks like JSON lines, "
                         f"not {'TSV' if delimiter == chr(9) else 'CSV'} (name the file .jsonl)")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
        for record in reader:
            if record and len(record) != len(header):
                raise UsageError(f"{what} {path}: line {reader.line_num} has {len(record)} fields, the header "
                                 f"has {len(header)} ({', '.join(header)})")
    except csv.Error as e:
        raise UsageError(f"{what} {path}: line {reader.line_num}: not CSV ({e})") from None
    if len(set(header)) != len(header):
        raise UsageError(f"{what} {path}: the header names a column twice ({', '.join(header)})")


def read_rows(path: str, what: str = "input") -> list[dict]:
    """The rows of a JSONL, JSON, CSV/TSV or Parquet file as dicts (by the file's suffix)."""
    suffix = Path(str(path)).suffix.lower()
    if is_dir(path):
        raise UsageError(f"{what} {path}: is a folder, expected a file")
    if suffix not in SUFFIXES:
        raise UsageError(f"{what} {path}: expected a file ending in {', '.join(SUFFIXES)}")
    p = input_file(path, what)
    if suffix in JSONL:
        return _jsonl_rows(p, what)
    if suffix in (".csv", ".tsv"):
        _check_csv(p, what, "\t" if suffix == ".tsv" else ",")
    elif suffix == ".parquet" and p.read_bytes()[:4] != b"PAR1":
        raise UsageError(f"{what} {path}: not a Parquet file (it does not start with PAR1)")
    import duckdb

    try:
        rel = duckdb.connect().sql("SELECT * FROM " + READERS[suffix].format(sql_string(str(p))))
        names = rel.columns
        rows = [dict(zip(names, r)) for r in rel.fetchall()]
    except duckdb.Error as e:
        first = str(e).strip().splitlines()[0][:200]
        raise UsageError(f"{what} {path}: cannot be read as {suffix[1:].upper()} ({first})") from None
    if suffix == ".json" and rows and set(rows[0]) == {"json"}:
        raise UsageError(f"{what} {path}: expected a JSON array of objects")
    return rows


def columns_of(rows: list[dict]) -> list[str]:
    """Every column any row has, in first-seen order (JSON lines may differ in their keys)."""
    seen: dict = {}
    for r in rows:
        for k in r:
            seen.setdefault(k, None)
    return list(seen)


def require_columns(rows: list[dict], path: str, wanted: dict):
    """Each of `wanted` ({column: the option that names it}) must be a column of the file."""
    have = columns_of(rows)
    for column, option in wanted.items():
        if column is not None and column not in have:
            raise UsageError(f"{path}: no column {column!r} ({option}); the file has {', '.join(have) or 'none'}")
