//! The participants as the in-thread tests run them: each one a [`testing::Job`] on its file
//! and the case's XML, on the native engine, reporting the output files it wrote (or its
//! error, prefixed with its name), for [`testing::run_participants`] or
//! [`testing::run_in_threads`].

#![allow(dead_code)]

use std::path::PathBuf;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::testing::{self, Job};

/// What a participant's job returns: the files it wrote, or its error.
pub type Outputs = Result<Vec<PathBuf>, String>;

/// The Solid `tidelink-mbs` on `file`: its output files.
pub fn mbs(file: PathBuf, xml: PathBuf) -> Job<Outputs> {
    (
        "Solid",
        Box::new(move || {
            tidelink_mbs::run_with_progress(&file, &xml, Backend::Native, &mut ())
                .map(|r| r.outputs)
                .map_err(|e| format!("Solid: {e:#}"))
        }),
    )
}

/// The Fluid `tidelink-buoyancy` on `file` (it writes no output).
pub fn buoyancy(file: PathBuf, xml: PathBuf) -> Job<Outputs> {
    (
        "Fluid",
        Box::new(move || {
            tidelink_buoyancy::run_with_progress(&file, &xml, Backend::Native, &mut ())
                .map(|_| Vec::new())
                .map_err(|e| format!("Fluid: {e:#}"))
        }),
    )
}

/// The Fluid `tidelink-stream` on `file` (it writes no output).
pub fn stream(file: PathBuf, xml: PathBuf) -> Job<Outputs> {
    (
        "Fluid",
        Box::new(move || {
            tidelink_buoyancy::stream::participant::run_with_progress(&file, &xml, Backend::Native, &mut ())
                .map(|_| Vec::new())
                .map_err(|e| format!("Fluid: {e:#}"))
        }),
    )
}

/// The Fluid `tidelink-tdpf` on `file` (its outputs are not kept).
pub fn tdpf(file: PathBuf, xml: PathBuf) -> Job<Outputs> {
    (
        "Fluid",
        Box::new(move || {
            tidelink_tdpf::participant::run_with_progress(&file, &xml, Backend::Native, &mut ())
                .map(|_| Vec::new())
                .map_err(|e| format!("Fluid: {e:#}"))
        }),
    )
}

/// The Fluid `tidelink-sph` on `file`: its output files (the ParaView frames).
pub fn sph(file: PathBuf, xml: PathBuf) -> Job<Outputs> {
    (
        "Fluid",
        Box::new(move || {
            tidelink_sph::run_with_progress(&file, &xml, Backend::Native, &mut ())
                .map(|(_, files)| files)
                .map_err(|e| format!("Fluid: {e:#}"))
        }),
    )
}

/// A Fluid (one of the functions above) and the Solid `tidelink-mbs` on their files of `case`,
/// run to the end: every output file; a participant that failed panics with its message.
pub fn fluid_and_mbs(
    fluid: fn(PathBuf, PathBuf) -> Job<Outputs>,
    fluid_file: PathBuf,
    solid_file: PathBuf,
    case: &testing::TempCase,
) -> Vec<PathBuf> {
    testing::run_participants(vec![fluid(fluid_file, case.config.clone()), mbs(solid_file, case.config.clone())])
}
