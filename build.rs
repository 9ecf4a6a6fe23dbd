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
}
