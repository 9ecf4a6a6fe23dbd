"""Tiny databases and official-format input files for the report tests (test_spider_report.py,
test_bird_report.py): two db_ids with three rows each, written under a temporary folder in the layout both
benchmarks use, <root>/db/<db_id>/<db_id>.sqlite, plus a Spider tables.json describing them.

The zoo table lacks the `weight` column that tables.json lists, so a gold query naming it parses (it has a
hardness) but fails on the database.
"""
import json
import os
import sqlite3

TABLES = [
    {"db_id": "shop", "table_names_original": ["item"], "table_names": ["item"],
     "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"]],
     "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"]],
     "column_types": ["text", "number", "text", "number"], "primary_keys": [1], "foreign_keys": []},
    {"db_id": "zoo", "table_names_original": ["animal"], "table_names": ["animal"],
     "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "species"], [0, "age"], [0, "weight"]],
     "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "species"], [0, "age"], [0, "weight"]],
     "column_types": ["text", "number", "text", "text", "number", "number"], "primary_keys": [1],
     "foreign_keys": []},
]

DATABASES = {
    "shop": ["CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL)",
             "INSERT INTO item VALUES (1, 'pen', 2.5), (2, 'book', 12), (3, 'lamp', 30)"],
    "zoo": ["CREATE TABLE animal(id INTEGER PRIMARY KEY, name TEXT, species TEXT, age INTEGER)",
            "INSERT INTO animal VALUES (1, 'rex', 'dog', 3), (2, 'tom', 'cat', 5), (3, 'fido', 'dog', 1)"],
}


def write_databases(root):
    """<root>/db/<db_id>/<db_id>.sqlite for both db_ids and <root>/tables.json; returns (db_dir, tables)."""
    db_dir = os.path.join(root, "db")
    for db_id, statements in DATABASES.items():
        os.makedirs(os.path.join(db_dir, db_id), exist_ok=True)
        con = sqlite3.connect(os.path.join(db_dir, db_id, db_id + ".sqlite"))
        for statement in statements:
            con.execute(statement)
        con.commit()
        con.close()
    tables = os.path.join(root, "tables.json")
    with open(tables, "w") as f:
        json.dump(TABLES, f)
    return db_dir, tables
