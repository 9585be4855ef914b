//! Without the `precice` feature the tests against libprecice (differential.rs,
//! tutorials_precice.rs, and the root's differential_sphere_drop.rs) are not built: these
//! ignored tests make `cargo test` report them as skipped, with how to run them, instead of
//! saying nothing.

#[cfg(not(feature = "precice"))]
#[test]
#[ignore = "the differential tests against libprecice need `--features precice` and libprecice 3.4 (docs/precice-backend.md)"]
fn differential_tests_against_libprecice() {}

#[cfg(not(feature = "precice"))]
#[test]
#[ignore = "libprecice constructing the configs/tutorials participants needs `--features precice` and libprecice 3.4 (docs/precice-backend.md)"]
fn tutorial_configurations_on_libprecice() {}
