//! Sets `cfg(tidelink_shared)` when the reference data folder ../shared is there (or
//! TIDELINK_REQUIRE_SHARED=1), so the tests that need it run, else show as ignored (docs/testing.md).
fn main() {
    tidelink_shared_data::build_script();
}
