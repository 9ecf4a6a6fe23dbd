"""Where the CLI's `schema` argument comes from: text, a DDL file, a Spider tables.json (one entry per
db_id), a BIRD schema.json ({db_id: [DDL, ...]}) or a single tables.json entry. The extension reads
every form (DDL, a tables.json entry as JSON, a JSON array of DDL strings).

A path that does not exist is an error, not schema text: schema text always holds a space or JSON
brackets, a file name does not."""

from __future__ import annotations

import json
from pathlib import Path

from ._errors import UsageError
from ._inputs import input_file, is_dir, is_file, read_text

SCHEMA_FILES = (".json", ".sql", ".ddl", ".txt")


class MissingDatabase(UsageError):
    """A db_id that the schema file does not hold."""

    def __init__(self, spec: str, db_id):
        super().__init__(f"{spec} has no database {db_id!r}")
        self.db_id = db_id


def _looks_like_path(spec: str) -> bool:
    text = spec.strip()
    if any(c.isspace() for c in text) or text[:1] in ("{", "[", "("):
        return False
    return "/" in text or Path(text).suffix.lower() in SCHEMA_FILES or "." not in text


def _json(text: str, spec: str, option: str):
    try:
        return json.loads(text)
    except ValueError as e:
        raise UsageError(f"{option} {spec}: line {getattr(e, 'lineno', 1)}, column {getattr(e, 'colno', 1)}: "
                         f"not JSON ({getattr(e, 'msg', e)}); expected a Spider tables.json, a BIRD "
                         "schema.json or a tables.json entry") from None


class Schemas:
    """Resolves a schema per db_id from `spec` (a path or schema text; None: schema-less).

    `db_hint` says how a user names the database for this command (explain: --db-id; score and
    roc: a db_id column)."""

    def __init__(self, spec: str | None, option: str = "--schema", db_hint: str = "a db_id column"):
        self.spec = spec
        self.option = option
        self.db_hint = db_hint
        self.fixed: str | None = None  # one schema for every row
        self.by_db: dict | None = None  # db_id -> schema text
        if spec is None:
            return
        if str(spec).strip() == "":
            raise UsageError(f"{option}: empty (expected a schema file or schema text)")
        path = Path(spec)
        if not is_file(spec):
            if is_dir(spec):
                raise UsageError(f"{option} {spec}: is a folder, expected a schema file or schema text")
            if _looks_like_path(spec):
                raise UsageError(f"{option} {spec}: no such file (schema text would be DDL or JSON)")
            self.fixed = spec  # schema text given inline
            return
        text = read_text(input_file(spec, option), option)
        if not text.strip():
            raise UsageError(f"{option} {spec}: the file is empty")
        if path.suffix.lower() != ".json":
            self.fixed = text
            return
        data = _json(text, spec, option)
        if isinstance(data, list) and data and all(isinstance(e, dict) and "db_id" in e for e in data):
            self.by_db = {e["db_id"]: json.dumps(e) for e in data}
        elif isinstance(data, dict) and "db_id" in data:
            self.fixed = json.dumps(data)
        elif isinstance(data, dict) and data:
            self.by_db = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in data.items()}
        elif isinstance(data, list) and data and all(isinstance(e, str) for e in data):
            self.fixed = json.dumps(data)
        else:
            raise UsageError(f"{option} {spec}: not a Spider tables.json (an array of entries with db_id), a BIRD "
                             "schema.json ({db_id: [DDL, ...]}), a tables.json entry or a JSON array of DDL strings")

    @property
    def per_db(self) -> bool:
        return self.by_db is not None

    def has(self, db_id) -> bool:
        return self.by_db is None or db_id in self.by_db

    def get(self, db_id) -> str | None:
        if self.by_db is None:
            return self.fixed
        if db_id is None:
            raise UsageError(f"{self.option} {self.spec} holds one schema per database: say which ({self.db_hint})")
        if db_id not in self.by_db:
            raise MissingDatabase(self.spec, db_id)
        return self.by_db[db_id]


def schema_text(value) -> str | None:
    """A schema cell of an input file as the extension reads it: text as it is, a JSON object or
    array (a tables.json entry, a list of DDL) as JSON text."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    raise UsageError(f"a schema of type {type(value).__name__} ({str(value)[:40]}), expected text or JSON")
