//! Where the loaded library lies on disk: both adapters call [`publish`] when the extension is
//! loaded, which finds this shared object's directory through `dladdr` and hands it to the core
//! (`registry::set_library_dir`), so the core stays free of loader calls and `unsafe`.

use std::ffi::{CStr, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Tells the core which directory the extension was loaded from (it finds ONNX Runtime and the
/// models there); nothing when the loader cannot say.
pub(super) fn publish() {
    if let Some(dir) = library_dir() {
        crate::registry::set_library_dir(dir);
    }
}

/// The directory of the shared object holding this code, symlinks resolved.
fn library_dir() -> Option<PathBuf> {
    // SAFETY: `Dl_info` is a C struct of raw pointers and integers, for which all-zero bytes
    // (null pointers, zero addresses) are a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let addr = library_dir as *const () as *const libc::c_void;
    // SAFETY: `addr` is the address of a function in this object and `info` is a live, exclusive
    // local; dladdr only reads the loader's tables and writes `info`.
    let found = unsafe { libc::dladdr(addr, &mut info) };
    if found == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: `dli_fname` is non-null (checked) and points to the loader's NUL-terminated path of
    // this object, which stays valid while the object is loaded, i.e. while this code runs; the
    // bytes are copied into a `PathBuf` on the next line, before the borrow ends.
    let name = unsafe { CStr::from_ptr(info.dli_fname) };
    let path = PathBuf::from(OsStr::from_bytes(name.to_bytes()));
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    path.parent().map(Path::to_path_buf)
}
