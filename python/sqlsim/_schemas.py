"""Where the CLI's `schema` argument comes from: text, a DDL file, a Spider tables.json (one entry per
db_id), a BIRD schema.json ({db_id: [DDL, ...]}) or a single tables.json entry. The extension reads
every form (DDL, a tables.json entry as JSON, a JSON array of DDL strings)."""

from __future__ import annotations

import json
from pathlib import Path


class Schemas:
    """Resolves a schema per db_id from `spec` (a path or schema text; None: schema-less)."""

    def __init__(self, spec: str | None):
        self.spec = spec
        self.fixed: str | None = None  # one schema for every row
        self.by_db: dict | None = None  # db_id -> schema text
        if spec is None or spec == "":
            return
        path = Path(spec)
        if not path.is_file():
            self.fixed = spec  # schema text given inline
            return
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() != ".json":
            self.fixed = text
            return
        data = json.loads(text)
        if isinstance(data, list) and data and all(isinstance(e, dict) and "db_id" in e for e in data):
            self.by_db = {e["db_id"]: json.dumps(e) for e in data}
        elif isinstance(data, dict) and "db_id" in data:
            self.fixed = json.dumps(data)
        elif isinstance(data, dict):
            self.by_db = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in data.items()}
        elif isinstance(data, list) and all(isinstance(e, str) for e in data):
            self.fixed = json.dumps(data)
        else:
            raise ValueError(f"{spec}: not a Spider tables.json, a BIRD schema.json, a tables.json entry or a "
                             "JSON array of DDL strings")

    @property
    def per_db(self) -> bool:
        return self.by_db is not None

    def get(self, db_id: str | None) -> str | None:
        if self.by_db is None:
            return self.fixed
        if db_id is None:
            raise ValueError(f"{self.spec} holds one schema per database: say which (--db-id, or a db_id column)")
        if db_id not in self.by_db:
            raise ValueError(f"{self.spec} has no database {db_id!r}")
        return self.by_db[db_id]
