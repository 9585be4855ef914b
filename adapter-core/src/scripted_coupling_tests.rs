//! The scripted coupling of `testing` checked on its own: what it records, serves and refuses,
//! and the windows it runs (kept out of testing.rs, which the engine tests include by path).

use crate::coupling::{Coupling, CouplingData};
use crate::testing::{Call, ScriptedCoupling};

#[test]
fn records_vertices_and_writes_serves_reads_and_fails_where_told() {
    let mut c = ScriptedCoupling::new("P").with_mesh_dimensions("Flat", 2).failing(Call::Write, "Bad", "no");
    let mut ids = [0; 2];
    c.set_mesh_vertices("M", &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0], &mut ids).unwrap();
    let mut more = [0; 1];
    c.set_mesh_vertices("M", &[2.0, 2.0, 2.0], &mut more).unwrap();
    assert_eq!((ids, more, c.get_mesh_vertex_size("M").unwrap()), ([0, 1], [2], 3));
    assert_eq!((c.get_mesh_dimensions("Flat").unwrap(), c.get_data_dimensions("Flat", "d").unwrap()), (2, 2));
    c.serve("M", "x", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    let mut v = [0.0; 6];
    c.read_data("M", "x", &[2, 0], 0.0, &mut v).unwrap();
    assert_eq!(v, [7.0, 8.0, 9.0, 1.0, 2.0, 3.0]);
    let e = c.read_data("M", "y", &[0], 0.0, &mut v[..3]).unwrap_err().to_string();
    assert!(e.contains("unexpected read of `y` on mesh `M`"), "{e}");
    let mut zeros = ScriptedCoupling::new("P").zeros_when_unscripted();
    let mut v = [1.0; 3];
    zeros.read_data("M", "y", &[0], 0.0, &mut v).unwrap();
    assert_eq!(v, [0.0; 3]);
    c.write_data("M", "f", &ids, &[1.0; 6]).unwrap();
    assert_eq!(c.written("M", "f"), [1.0; 6]);
    assert_eq!(c.write_data("Bad", "f", &ids, &[1.0; 6]).unwrap_err().to_string(), "no");
}

#[test]
fn runs_its_windows_and_asks_for_checkpoints_at_their_starts() {
    let mut c = ScriptedCoupling::new("P").with_windows(2, 0.5).with_checkpoints();
    let mut starts = 0;
    while c.is_coupling_ongoing().unwrap() {
        starts += usize::from(c.requires_writing_checkpoint().unwrap());
        let dt = c.get_max_time_step_size().unwrap().min(0.3);
        c.advance(dt).unwrap();
    }
    assert_eq!(starts, 2);
    c.finalize().unwrap();
    assert!(c.finalized());
}
