//! Without the `precice` feature the differential tests (differential.rs, and the root's
//! differential_sphere_drop.rs) are not built: this ignored test makes `cargo test` report
//! them as skipped, with how to run them, instead of saying nothing.

#[cfg(not(feature = "precice"))]
#[test]
#[ignore = "the differential tests against libprecice need `--features precice` and libprecice 3.4 (docs/precice-backend.md)"]
fn differential_tests_against_libprecice() {}
