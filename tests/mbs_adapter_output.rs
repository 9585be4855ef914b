//! `output.format: HDF5` through a coupled run of the sphere_drop case (native engine,
//! participants in threads): one group per body with its time series, read back.

mod support;
use support::in_threads;
use support::temp_copy::TempCopy;

/// The output files of a 0.2 s run, copied into a temporary folder (removed when dropped, also
/// when an assertion fails) before the case's own folder goes.
fn run(format: &str, fps: &str) -> (tempfile::TempDir, Vec<std::path::PathBuf>) {
    let copy = TempCopy::shipped(
        "configs/sphere_drop",
        "precice-config.xml",
        &[(r#"<max-time-windows value="1000" />"#, r#"<max-time-windows value="200" />"#)],
    );
    let solid_file = copy.copy(
        "solid/participant.yaml",
        &[("format: CSV", &format!("format: {format}")), ("fps: 1000 ", &format!("fps: {fps} "))],
    );
    copy.copy_all(&["solid/model.yaml", "solid/solver.yaml", "fluid/buoyancy_model.yaml"]);
    let fluid_file = copy.copy("fluid/participant.yaml", &[]);
    let outputs = in_threads::fluid_and_mbs(in_threads::buoyancy, fluid_file, solid_file, &copy.case);
    // Copy the files out of the temporary case before it is removed.
    let keep = tempfile::Builder::new().prefix(&format!("tidelink_adapter_output_{format}_{fps}_")).tempdir().unwrap();
    let copies = outputs
        .iter()
        .map(|p| {
            let to = keep.path().join(p.file_name().unwrap());
            std::fs::copy(p, &to).unwrap();
            to
        })
        .collect();
    (keep, copies)
}

#[test]
fn hdf5_output_holds_the_ball_series_at_the_set_rate() {
    let (_keep, outputs) = run("HDF5", "100");
    assert_eq!(outputs.len(), 1, "{outputs:?}");
    assert!(outputs[0].ends_with("bodies.h5"), "{outputs:?}");
    let (time, ch) = tidelink_mbs::io::hdf5_output::read(&outputs[0], "ball").unwrap();
    // 0.2 s at 100 rows per second: t = 0, 0.01, ..., 0.2.
    assert_eq!(time.len(), 21, "{time:?}");
    assert!((time[20] - 0.2).abs() < 1e-9);
    assert_eq!(ch.len(), 6);
    assert!(ch.iter().all(|c| c.len() == 3 * time.len()));
    // The ball falls in the air first: z decreases from 0.18, vz ≈ −g t.
    assert_eq!(ch[0][2], 0.18);
    let k = 5; // t = 0.05 s, still in the air (it reaches the water at ≈ 0.11 s)
    assert!((ch[2][3 * k + 2] + 9.81 * time[k]).abs() < 2e-2, "vz {}", ch[2][3 * k + 2]);
    // In the water by the end: the buoyancy force pushes up.
    assert!(ch[4][3 * 20 + 2] > 0.0, "fz {}", ch[4][3 * 20 + 2]);
}

#[test]
fn none_format_writes_nothing() {
    assert!(run("NONE", "100").1.is_empty());
}
