//! Test helpers shared by every crate's tests (feature `testing`): the engine's temporary case
//! folders, participants run in threads and the one way to find the reference data of
//! ../shared ([`shared_path`]), plus what adapters' tests need. Kept here so no test copies a
//! fixture.

pub use tidelink_coupling::testing::{
    find_shared, run_in_threads, run_participants, shared_dir, shared_path, temp_case, thread_log_directory, Job,
    TempCase,
};
