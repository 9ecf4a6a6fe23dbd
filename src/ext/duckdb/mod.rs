//! DuckDB adapter (C API v1.2.0 through the duckdb crate's loadable-extension bindings): converts
//! vectors, NULLs and errors, and registers the registry.
//!
//! Scalar functions receive whole chunks and spread the rows over cores with rayon (or hand the
//! chunk to the function's declared batch form). Every callback catches panics and reports them
//! through DuckDB's error channel; NULL values are checked before any C API call that would throw
//! on them.
//!
//! The `// SAFETY:` comments below rest on these facts of DuckDB's C API:
//! - **Loaded API.** Every `duckdb_*` function is a pointer that `duckdb_rs_extension_api_init`
//!   loads in [`initialize`]. All other calls happen later in `initialize` or in callbacks of
//!   functions registered there, so the pointers are loaded (a missing one panics, never UB).
//! - **Callback handles.** The handles DuckDB passes a callback (`info`, `input`, `output`) are
//!   live until the callback returns; nothing here keeps them longer.
//! - **Own handles.** Handles created here are destroyed exactly once, after their last use;
//!   DuckDB copies what it keeps (types, functions added to a set, names, error messages).
//! - **Typed, flat vectors.** DuckDB casts every argument to the declared parameter type and
//!   flattens a scalar function's input chunk before the call; a vector's data is an array of that
//!   type (f64 for DOUBLE, i64 for BIGINT, `duckdb_string_t` for VARCHAR) with room for a full
//!   chunk, and a chunk never has more rows than that.

mod table;

use crate::registry::{self, Host, Output, ScalarFunction, SqlType, Value};
use duckdb::ffi::*;
use rayon::prelude::*;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use table::register_table;

/// The minimum C API version requested: DuckDB 1.2.0 and every later release provide it.
const MIN_API_VERSION: &str = "v1.2.0";

/// Entry point DuckDB looks up for `sqlsim.duckdb_extension` (`LOAD 'dist/sqlsim.duckdb_extension'`).
///
/// # Safety
/// Called by DuckDB with its extension `info` and a pointer to its `access` table, both live
/// during the call.
#[no_mangle]
pub unsafe extern "C" fn sqlsim_init_c_api(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> bool {
    super::location::publish();
    let text = match guarded("sqlsim: initialization panicked", || {
        // SAFETY: `info` and `access` are this entry point's arguments, live during the call.
        unsafe { initialize(info, access) }
    }) {
        Ok(loaded) => return loaded,
        Err(text) => text,
    };
    // SAFETY: `access` points to DuckDB's access table, live during this call (`as_ref` would
    // also turn a null pointer into `None`).
    let set_error = unsafe { access.as_ref() }.and_then(|a| a.set_error);
    if let Some(set_error) = set_error {
        // SAFETY: DuckDB's own error setter for this load's `info`; `text` is NUL-terminated and
        // outlives the call (DuckDB copies it).
        unsafe { set_error(info, text.as_ptr()) };
    }
    false
}

/// Loads the C API and registers every function through a connection of its own.
///
/// # Safety
/// `info` and `access` are the arguments DuckDB passed to [`sqlsim_init_c_api`], during that call.
unsafe fn initialize(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> Result<bool, String> {
    // SAFETY: the caller's contract: `access` points to DuckDB's live access table for `info`;
    // the function reads it and calls its `get_api` with `info`.
    let have_api = unsafe { duckdb_rs_extension_api_init(info, access, MIN_API_VERSION) }
        .map_err(|e| format!("sqlsim: {e}"))?;
    if !have_api {
        return Ok(false);
    }
    // SAFETY: `access` points to DuckDB's access table, live during this call (the caller's
    // contract).
    let get_database = unsafe { access.as_ref() }
        .and_then(|a| a.get_database)
        .ok_or("sqlsim: DuckDB gave no get_database function")?;
    // SAFETY: DuckDB's own function, called with the `info` of this load.
    let database = unsafe { get_database(info) };
    if database.is_null() {
        return Ok(false);
    }
    let mut connection: duckdb_connection = ptr::null_mut();
    // SAFETY: API loaded (`have_api`); `database` is non-null and points to the database DuckDB
    // is loading us into; `connection` is a local out-parameter.
    if unsafe { duckdb_connect(*database, &mut connection) } != duckdb_state_DuckDBSuccess {
        return Err("sqlsim: could not open a connection to register functions".into());
    }
    // SAFETY: `connection` was opened just above and is closed only after this call.
    let registered = unsafe { register_all(connection) };
    // SAFETY: `connection` is open and disconnected exactly once; registration kept no copy.
    unsafe { duckdb_disconnect(&mut connection) };
    registered.map(|()| true)
}

/// Registers every scalar and table function of the registry.
///
/// # Safety
/// `connection` is an open connection (and so the API is loaded).
unsafe fn register_all(connection: duckdb_connection) -> Result<(), String> {
    for f in registry::SCALAR_FUNCTIONS {
        // SAFETY: `connection` is open (the caller's contract).
        unsafe { register_scalar(connection, f) }?;
    }
    for f in registry::TABLE_FUNCTIONS {
        // SAFETY: `connection` is open (the caller's contract).
        unsafe { register_table(connection, f) }?;
    }
    Ok(())
}

/// Runs a callback body with panics caught: its value, or the message to hand DuckDB
/// (the body's own error, or `panicked` when it panicked).
fn guarded<T>(panicked: &str, body: impl FnOnce() -> Result<T, String>) -> Result<T, CString> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(c_string(&message)),
        Err(_) => Err(c_string(panicked)),
    }
}

/// A C string for DuckDB; interior NUL bytes (never in our names, possible in messages) become spaces.
fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

fn duckdb_type(ty: SqlType) -> DUCKDB_TYPE {
    match ty {
        SqlType::Text => DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR,
        SqlType::Real => DUCKDB_TYPE_DUCKDB_TYPE_DOUBLE,
        SqlType::Integer => DUCKDB_TYPE_DUCKDB_TYPE_BIGINT,
    }
}

/// Runs `use_type` with a freshly created logical type, destroying it afterwards (DuckDB copies a
/// type it is given, so `use_type` must not keep the handle).
///
/// # Safety
/// The API is loaded.
unsafe fn with_logical_type(ty: SqlType, use_type: impl FnOnce(duckdb_logical_type)) {
    // SAFETY: API loaded (the caller's contract); takes a type id, returns a new handle.
    let mut logical = unsafe { duckdb_create_logical_type(duckdb_type(ty)) };
    use_type(logical);
    // SAFETY: `logical` was created above and `use_type` kept no copy: destroyed exactly once.
    unsafe { duckdb_destroy_logical_type(&mut logical) };
}

/// Registers one scalar function as a set with one overload per accepted argument count.
///
/// # Safety
/// `connection` is an open connection (and so the API is loaded).
unsafe fn register_scalar(
    connection: duckdb_connection,
    f: &'static ScalarFunction,
) -> Result<(), String> {
    let name = c_string(f.name);
    // SAFETY: API loaded; `name` is NUL-terminated and DuckDB copies it.
    let mut set = unsafe { duckdb_create_scalar_function_set(name.as_ptr()) };
    for arity in f.min_args()..=f.params.len() {
        // SAFETY: API loaded (the caller's contract).
        let mut function = unsafe { scalar_overload(f, &name, arity) };
        // SAFETY: `set` and `function` are live handles created here; the set keeps a copy of
        // the function, whose handle is then destroyed exactly once.
        unsafe {
            duckdb_add_scalar_function_to_set(set, function);
            duckdb_destroy_scalar_function(&mut function);
        }
    }
    // SAFETY: `connection` is open (the caller's contract); `set` is live, DuckDB copies it, and
    // it is destroyed exactly once, after this last use.
    let state = unsafe {
        let state = duckdb_register_scalar_function_set(connection, set);
        duckdb_destroy_scalar_function_set(&mut set);
        state
    };
    if state != duckdb_state_DuckDBSuccess {
        return Err(format!("sqlsim: could not register {}", f.name));
    }
    Ok(())
}

/// A new scalar function handle: `f`'s overload taking its first `arity` parameters. The caller
/// destroys it.
///
/// # Safety
/// The API is loaded.
unsafe fn scalar_overload(
    f: &'static ScalarFunction,
    name: &CStr,
    arity: usize,
) -> duckdb_scalar_function {
    // SAFETY: API loaded (the caller's contract); returns a new handle.
    let function = unsafe { duckdb_create_scalar_function() };
    for p in &f.params[..arity] {
        // SAFETY: API loaded; `function` is the live handle created above; the parameter's
        // type is copied, so the type handle may be destroyed after the call.
        unsafe {
            with_logical_type(p.ty, |t| {
                duckdb_scalar_function_add_parameter(function, t);
            })
        };
    }
    // SAFETY: `function` is live; `name` is NUL-terminated and copied; `scalar_callback` has the
    // signature DuckDB calls (the compiler checks it against `duckdb_scalar_function_t`); the
    // extra info is a `&'static ScalarFunction`, valid for as long as DuckDB may call back with
    // it, never written through (hence no destroy callback), and read back only as that type in
    // `scalar_callback`.
    unsafe {
        duckdb_scalar_function_set_name(function, name.as_ptr());
        with_logical_type(f.returns, |t| {
            duckdb_scalar_function_set_return_type(function, t);
        });
        duckdb_scalar_function_set_function(function, Some(scalar_callback));
        duckdb_scalar_function_set_extra_info(
            function,
            f as *const ScalarFunction as *mut c_void,
            None,
        );
        // The registry applies the NULL rule itself (optional arguments may be NULL).
        duckdb_scalar_function_set_special_handling(function);
        if !f.deterministic {
            duckdb_scalar_function_set_volatile(function);
        }
    }
    function
}

/// Reads row `row` of a flat input vector of type `ty`, checking validity first.
///
/// # Safety
/// `data` and `validity` come from the same live flat vector of type `ty` with more than `row`
/// rows, and the returned value (which may borrow the vector's strings) is used only while that
/// vector lives.
unsafe fn read_value<'a>(
    ty: SqlType,
    data: *const c_void,
    validity: *const u64,
    row: usize,
) -> Value<'a> {
    if !validity.is_null() {
        // SAFETY: a non-null validity mask of a vector with more than `row` rows (the caller's
        // contract) has a bit for `row`; DuckDB only reads it, despite the `*mut` parameter.
        let valid = unsafe { duckdb_validity_row_is_valid(validity as *mut u64, row as idx_t) };
        if !valid {
            return Value::Null;
        }
    }
    match ty {
        // SAFETY: the data of a DOUBLE vector is an f64 array with more than `row` entries.
        SqlType::Real => Value::Real(unsafe { *(data as *const f64).add(row) }),
        // SAFETY: the data of a BIGINT vector is an i64 array with more than `row` entries.
        SqlType::Integer => Value::Integer(unsafe { *(data as *const i64).add(row) }),
        SqlType::Text => {
            // SAFETY: the data of a VARCHAR vector is a `duckdb_string_t` array with more than
            // `row` entries. Both union variants start with the same u32 `length`; a string of up
            // to 12 bytes is stored inline in the struct, a longer one at `pointer.ptr`, `length`
            // bytes owned by the vector, which outlives the borrow (the caller's contract).
            let bytes: &'a [u8] = unsafe {
                let s = &*(data as *const duckdb_string_t).add(row);
                let len = s.value.inlined.length as usize;
                if len <= 12 {
                    std::slice::from_raw_parts(s.value.inlined.inlined.as_ptr() as *const u8, len)
                } else {
                    std::slice::from_raw_parts(s.value.pointer.ptr as *const u8, len)
                }
            };
            std::str::from_utf8(bytes).map_or(Value::Blob(bytes), Value::Text)
        }
    }
}

/// Writes `out` into row `row` of a flat output vector of type `ty`.
///
/// # Safety
/// `vector` is a live, writable flat vector of type `ty` with room for more than `row` rows.
unsafe fn write_value(vector: duckdb_vector, ty: SqlType, row: usize, out: &Output) {
    // SAFETY: `vector` is live (the caller's contract).
    let data = unsafe { duckdb_vector_get_data(vector) };
    match (out, ty) {
        // SAFETY: a DOUBLE vector's data is an f64 array with room for `row`.
        (Output::Real(x), SqlType::Real) => unsafe { *(data as *mut f64).add(row) = *x },
        // SAFETY: a BIGINT vector's data is an i64 array with room for `row`.
        (Output::Integer(i), SqlType::Integer) => unsafe { *(data as *mut i64).add(row) = *i },
        // SAFETY: a DOUBLE vector's data is an f64 array with room for `row`.
        (Output::Integer(i), SqlType::Real) => unsafe { *(data as *mut f64).add(row) = *i as f64 },
        // SAFETY: `vector` is a live VARCHAR vector with room for `row`; DuckDB copies the
        // `s.len()` bytes at `s.as_ptr()` into the vector's own string storage.
        (Output::Text(s), SqlType::Text) => unsafe {
            duckdb_vector_assign_string_element_len(
                vector,
                row as idx_t,
                s.as_ptr() as *const c_char,
                s.len() as idx_t,
            )
        },
        // NULL, or a value whose type does not match the declared column: NULL.
        // SAFETY: `vector` is live and writable; once `ensure_validity_writable` has run, its
        // validity mask is non-null and has a bit for every row it has room for.
        _ => unsafe {
            duckdb_vector_ensure_validity_writable(vector);
            duckdb_validity_set_row_invalid(duckdb_vector_get_validity(vector), row as idx_t);
        },
    }
}

/// The callback of every scalar function: runs one chunk, reporting errors and panics to DuckDB.
///
/// # Safety
/// Called by DuckDB with the handles of one call of a function registered by [`register_scalar`].
unsafe extern "C" fn scalar_callback(
    info: duckdb_function_info,
    input: duckdb_data_chunk,
    output: duckdb_vector,
) {
    let outcome = guarded("sqlsim: a scalar function panicked", || {
        // SAFETY: `info` is this call's; the extra info of every scalar function registered here
        // is a `&'static ScalarFunction` (`scalar_overload`), never freed or written.
        let f = unsafe { &*(duckdb_scalar_function_get_extra_info(info) as *const ScalarFunction) };
        // SAFETY: `input` and `output` are this call's chunk (flat, with `f`'s parameter types)
        // and result vector (flat, of `f.returns`), live until the callback returns.
        unsafe { run_scalar(f, input, output) }
    });
    if let Err(text) = outcome {
        // SAFETY: `info` is this call's; DuckDB copies the NUL-terminated message.
        unsafe { duckdb_scalar_function_set_error(info, text.as_ptr()) };
    }
}

/// Evaluates one chunk: decode every row (cheap borrows), compute rows (in parallel, or through
/// the function's batch form), write back.
///
/// # Safety
/// `input` is a live flat chunk whose columns have the types of `f`'s first parameters, and
/// `output` a live flat vector of type `f.returns` with room for the chunk's rows.
unsafe fn run_scalar(
    f: &'static ScalarFunction,
    input: duckdb_data_chunk,
    output: duckdb_vector,
) -> Result<(), String> {
    // SAFETY: `input` is live (the caller's contract).
    let (rows, column_count) = unsafe {
        (
            duckdb_data_chunk_get_size(input) as usize,
            duckdb_data_chunk_get_column_count(input) as usize,
        )
    };
    let columns = column_count.min(f.params.len());
    // Borrows of `input`'s strings: dropped before this function returns.
    let mut table: Vec<Vec<Value<'_>>> = vec![Vec::with_capacity(columns); rows];
    for (c, param) in f.params.iter().enumerate().take(columns) {
        // SAFETY: `input` is live and `c` is below its column count.
        let (data, validity) = unsafe {
            let vector = duckdb_data_chunk_get_vector(input, c as idx_t);
            (
                duckdb_vector_get_data(vector) as *const c_void,
                duckdb_vector_get_validity(vector) as *const u64,
            )
        };
        for (r, row) in table.iter_mut().enumerate() {
            // SAFETY: `data` and `validity` are column `c` of `input`: flat, of type `param.ty`
            // (the caller's contract), with `rows` > `r` rows; the values live in `table`, which
            // is dropped before `input` is.
            row.push(unsafe { read_value(param.ty, data, validity, r) });
        }
    }
    let results: Vec<crate::Result<Output>> = match f.batch {
        Some(batch) => batch(f, &table, Host::DuckDb),
        None if rows > 1 => table
            .par_iter()
            .map(|args| f.invoke(args, Host::DuckDb))
            .collect(),
        None => table
            .iter()
            .map(|args| f.invoke(args, Host::DuckDb))
            .collect(),
    };
    for (r, result) in results.iter().enumerate() {
        match result {
            // SAFETY: `output` is a live flat vector of type `f.returns` with room for `rows` rows
            // (the caller's contract), and a batch returns one result per row, so `r` < `rows`.
            Ok(out) => unsafe { write_value(output, f.returns, r, out) },
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}
