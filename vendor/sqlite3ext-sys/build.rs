//! Generates the bindings to sqlite3ext.h from the headers of libsqlite3-sys's bundled SQLite
//! (`DEP_SQLITE3_INCLUDE`); compiles no SQLite of its own.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_SQLITE3_INCLUDE");
    let include = PathBuf::from(
        env::var("DEP_SQLITE3_INCLUDE")
            .expect("sqlite3ext-sys: libsqlite3-sys with `bundled` sets DEP_SQLITE3_INCLUDE"),
    );
    let header = include.join("sqlite3ext.h");
    let bindings = bindgen::Builder::default()
        .header(header.to_string_lossy())
        .clang_arg(format!("-I{}", include.display()))
        // Defined in src/lib.rs with its version 1 to 3 layout, the one sqlite-loadable fills.
        .blocklist_type("sqlite3_module")
        .parse_callbacks(Box::new(bindgen::CargoCallbacks))
        .generate()
        .expect("sqlite3ext-sys: bindgen could not read sqlite3ext.h");
    let out = PathBuf::from(env::var("OUT_DIR").expect("sqlite3ext-sys: OUT_DIR is unset"));
    bindings
        .write_to_file(out.join("bindings.rs"))
        .expect("sqlite3ext-sys: could not write bindings.rs");
}
