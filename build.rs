//! Sets `cfg(tidelink_shared)` when the reference data folder ../shared is there (or
//! TIDELINK_REQUIRE_SHARED=1), so the tests that need it run, else show as ignored (docs/testing.md).
//! Sets `cfg(tidelink_second_uid)` when the tests can run a process as another user (built as
//! root with `setpriv` on PATH, or TIDELINK_REQUIRE_SECOND_UID=1): tests/strangers.rs.
fn main() {
    tidelink_shared_data::build_script();
    println!("cargo::rustc-check-cfg=cfg(tidelink_second_uid)");
    println!("cargo::rerun-if-env-changed=TIDELINK_REQUIRE_SECOND_UID");
    let required = std::env::var("TIDELINK_REQUIRE_SECOND_UID")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"));
    if required || (effective_uid() == Some(0) && on_path("setpriv")) {
        println!("cargo::rustc-cfg=tidelink_second_uid");
    }
}

/// The effective user id of the build, from /proc (Linux); `None` elsewhere.
fn effective_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `program` is a file in a folder of PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}
