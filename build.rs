//! Records the git commit for `sqlsim_version()` and links the library so that missing symbols fail the build.

use std::process::Command;

fn main() {
    let hash = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SQLSIM_GIT_HASH={hash}");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs");
    // A symbol missing at link time must fail the build, not the host's dlopen; native
    // libraries shipped beside the extension in dist/ are found through $ORIGIN.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,defs");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-rpath,$ORIGIN");
    // `cargo test` and `cargo run` put build-script search paths that lie inside the target
    // directory on the loader path: link libz3 into OUT_DIR so that test, example and doctest
    // executables find the z3-solver wheel's copy (the cdylib keeps only $ORIGIN, so dist/ must
    // carry libz3 itself).
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    if let (Ok(dir), Ok(out)) = (
        std::env::var("Z3_LIBRARY_PATH_OVERRIDE"),
        std::env::var("OUT_DIR"),
    ) {
        let runtime = std::path::Path::new(&out).join("z3-runtime");
        let _ = std::fs::create_dir_all(&runtime);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let name = e.file_name();
                if name.to_string_lossy().starts_with("libz3.so") {
                    let link = runtime.join(&name);
                    let _ = std::fs::remove_file(&link);
                    let _ = std::os::unix::fs::symlink(e.path(), &link);
                }
            }
        }
        println!("cargo:rustc-link-search=native={}", runtime.display());
    }
}
