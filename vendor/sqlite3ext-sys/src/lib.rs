//! FFI bindings to sqlite3ext.h (the loadable-extension API), generated at build time from the
//! headers of libsqlite3-sys's bundled SQLite, except `sqlite3_module`. Links no SQLite of its own.
#![allow(non_upper_case_globals)]
#![allow(non_camel_case_types)]
#![allow(non_snake_case)]
#![allow(clippy::all)]

// Makes libsqlite3-sys (and so the one bundled SQLite) part of every build that uses these bindings.
extern crate libsqlite3_sys;

use std::os::raw::{c_char, c_int, c_void};

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// `sqlite3_module` as SQLite 3.39 declares it: the methods of module versions 1 to 3, which
/// sqlite-loadable fills field by field (with `iVersion: 2`). SQLite 3.44 appended `xIntegrity`
/// for version 4 and reads it only from modules whose `iVersion` is 4 or more, so a host of any
/// version reads nothing past this struct.
#[repr(C)]
#[derive(Debug, Copy, Clone)]
pub struct sqlite3_module {
    pub iVersion: c_int,
    pub xCreate: Option<
        unsafe extern "C" fn(
            arg1: *mut sqlite3,
            pAux: *mut c_void,
            argc: c_int,
            argv: *const *const c_char,
            ppVTab: *mut *mut sqlite3_vtab,
            arg2: *mut *mut c_char,
        ) -> c_int,
    >,
    pub xConnect: Option<
        unsafe extern "C" fn(
            arg1: *mut sqlite3,
            pAux: *mut c_void,
            argc: c_int,
            argv: *const *const c_char,
            ppVTab: *mut *mut sqlite3_vtab,
            arg2: *mut *mut c_char,
        ) -> c_int,
    >,
    pub xBestIndex: Option<
        unsafe extern "C" fn(pVTab: *mut sqlite3_vtab, arg1: *mut sqlite3_index_info) -> c_int,
    >,
    pub xDisconnect: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xDestroy: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xOpen: Option<
        unsafe extern "C" fn(
            pVTab: *mut sqlite3_vtab,
            ppCursor: *mut *mut sqlite3_vtab_cursor,
        ) -> c_int,
    >,
    pub xClose: Option<unsafe extern "C" fn(arg1: *mut sqlite3_vtab_cursor) -> c_int>,
    pub xFilter: Option<
        unsafe extern "C" fn(
            arg1: *mut sqlite3_vtab_cursor,
            idxNum: c_int,
            idxStr: *const c_char,
            argc: c_int,
            argv: *mut *mut sqlite3_value,
        ) -> c_int,
    >,
    pub xNext: Option<unsafe extern "C" fn(arg1: *mut sqlite3_vtab_cursor) -> c_int>,
    pub xEof: Option<unsafe extern "C" fn(arg1: *mut sqlite3_vtab_cursor) -> c_int>,
    pub xColumn: Option<
        unsafe extern "C" fn(
            arg1: *mut sqlite3_vtab_cursor,
            arg2: *mut sqlite3_context,
            arg3: c_int,
        ) -> c_int,
    >,
    pub xRowid: Option<
        unsafe extern "C" fn(arg1: *mut sqlite3_vtab_cursor, pRowid: *mut sqlite3_int64) -> c_int,
    >,
    pub xUpdate: Option<
        unsafe extern "C" fn(
            arg1: *mut sqlite3_vtab,
            arg2: c_int,
            arg3: *mut *mut sqlite3_value,
            arg4: *mut sqlite3_int64,
        ) -> c_int,
    >,
    pub xBegin: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xSync: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xCommit: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xRollback: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab) -> c_int>,
    pub xFindFunction: Option<
        unsafe extern "C" fn(
            pVtab: *mut sqlite3_vtab,
            nArg: c_int,
            zName: *const c_char,
            pxFunc: *mut Option<
                unsafe extern "C" fn(
                    arg1: *mut sqlite3_context,
                    arg2: c_int,
                    arg3: *mut *mut sqlite3_value,
                ),
            >,
            ppArg: *mut *mut c_void,
        ) -> c_int,
    >,
    pub xRename:
        Option<unsafe extern "C" fn(pVtab: *mut sqlite3_vtab, zNew: *const c_char) -> c_int>,
    pub xSavepoint: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab, arg1: c_int) -> c_int>,
    pub xRelease: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab, arg1: c_int) -> c_int>,
    pub xRollbackTo: Option<unsafe extern "C" fn(pVTab: *mut sqlite3_vtab, arg1: c_int) -> c_int>,
    pub xShadowName: Option<unsafe extern "C" fn(arg1: *const c_char) -> c_int>,
}
