//! The ParaView scene of a real run: configs/sphere_drop with `output.vtk: true`, started by
//! `tidelink run`. The `.pvd` index lists one frame per CSV row at the same times, and in each
//! frame the ball's sphere (radius 0.12 m) sits around the position the CSV gives for that time.

mod support;

use std::path::Path;
use tidelink_mbs::io::output;
use tidelink_vtk::{read_vtu, CellType, PvdIndex};

#[test]
fn the_scene_follows_the_ball_frame_by_frame() {
    support::participant_programs(&[("tidelink-buoyancy", "tidelink-buoyancy"), ("tidelink-mbs", "tidelink-mbs")]);
    let dir = tempfile::tempdir().expect("folder");
    // 150 windows of 1 ms, a row and a frame every 10 ms.
    support::sphere_drop_case(dir.path(), 150, &[("solid/participant.yaml", "fps: 1000", "fps: 100\n  vtk: true")]);
    let o =
        std::process::Command::new(env!("CARGO_BIN_EXE_tidelink")).arg("run").arg(dir.path()).output().expect("run");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let out = dir.path().join("solid/output");
    let rows = output::read(&out.join("ball.csv")).expect("the ball's CSV");
    let pvd = PvdIndex::read(&out.join("bodies.pvd")).expect("the scene's index");
    assert_eq!(rows.len(), 16, "rows at 0, 10, …, 150 ms");
    let times: Vec<f64> = pvd.entries().iter().map(|e| e.time).collect();
    assert_eq!(times, rows.iter().map(|r| r.time).collect::<Vec<_>>(), "one frame per row, at its time");
    let mut moved = 0.0f64;
    for (entry, row) in pvd.entries().iter().zip(&rows) {
        let grid = read_vtu(&out.join(&entry.file)).unwrap_or_else(|e| panic!("{}: {e}", entry.file));
        assert!(grid.cell_count() > 0 && (0..grid.cell_count()).all(|k| grid.cell(k).unwrap().0 == CellType::Triangle));
        let c = row.position;
        for p in grid.points() {
            let r = ((p[0] - c.x).powi(2) + (p[1] - c.y).powi(2) + (p[2] - c.z).powi(2)).sqrt();
            // Coordinates are stored as Float32: 0.2 m to within about 2e-8 m.
            assert!((r - 0.12).abs() < 1e-6, "t = {}: a point {r} m from the ball's centre {c:?}", entry.time);
        }
        moved = moved.max((c.z - rows[0].position.z).abs());
    }
    assert!(moved > 0.05, "the ball fell by {moved} m: the frames must follow a moving body");
    assert!(Path::new(&out.join("scene")).is_dir());
}
