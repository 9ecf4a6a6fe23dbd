#!/usr/bin/env python3
"""Append DuckDB's extension metadata footer to a shared library.

DuckDB reads the last 512 bytes of a `.duckdb_extension` file: eight 32-byte NUL-padded fields
(stored last-to-first: three unused, ABI type, extension version, DuckDB/C API version, platform,
magic "4") followed by a 256-byte signature, all zero for an unsigned extension. The 22 bytes
before it make the footer a WebAssembly custom section, as DuckDB's own tooling writes it, so
the same layout works for every platform.

usage: duckdb_footer.py INPUT.so OUTPUT.duckdb_extension [--version V] [--platform P] [--capi v1.2.0]
"""
import argparse
import shutil
import sys

FIELD = 32
SIGNATURE = 256


def field(text: str) -> bytes:
    raw = text.encode("ascii")
    if len(raw) >= FIELD:
        sys.exit(f"duckdb_footer: field {text!r} longer than {FIELD - 1} bytes")
    return raw + b"\0" * (FIELD - len(raw))


def wasm_custom_section_header() -> bytes:
    name = b"duckdb_signature"
    # section id 0, LEB128 section size 531 (= 1 + 16 + 2 + 512), name length, name, LEB128 payload size 512
    return bytes([0x00, 0x93, 0x04, len(name)]) + name + bytes([0x80, 0x04])


def footer(platform: str, capi_version: str, extension_version: str, abi: str) -> bytes:
    fields = [
        field(""),
        field(""),
        field(""),
        field(abi),
        field(extension_version),
        field(capi_version),
        field(platform),
        field("4"),
    ]
    body = b"".join(fields) + b"\0" * SIGNATURE
    assert len(body) == 512
    return wasm_custom_section_header() + body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--version", default="v0.1.0", help="extension version recorded in the footer")
    ap.add_argument("--platform", default="linux_amd64")
    ap.add_argument("--capi", default="v1.2.0", help="minimum DuckDB C API version")
    ap.add_argument("--abi", default="C_STRUCT")
    args = ap.parse_args()
    shutil.copyfile(args.input, args.output)
    with open(args.output, "ab") as out:
        out.write(footer(args.platform, args.capi, args.version, args.abi))


if __name__ == "__main__":
    main()
