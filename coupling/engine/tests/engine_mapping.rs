//! Data mapping through coupled runs (docs/design/coupling-semantics.md §7.1, §7.3): scenario A21, nearest-neighbor,
//! with B's read-consistent mapping from A's mesh and its write-conservative mapping onto it.

mod common;

use common::*;

/// A provides x = 0, 1, 2 (y = 0); B provides (0.4, 0) and (1.6, 0). A writes the scalar
/// DataOne, B writes the vector DataTwo; two serial-explicit windows of size 1.
#[test]
fn a21_nearest_neighbor_consistent_and_conservative() {
    let case = Xml::new(2)
        .vector("DataTwo")
        .scheme(Scheme::serial("A", "B").window(1).windows(2).ex("DataOne", "A", "B").ex("DataTwo", "B", "A"))
        .case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a, _) = run2(
        move || {
            let mut a = open_at(&ca, "A", Some(&[0.0, 0.0, 1.0, 0.0, 2.0, 0.0]));
            a.initialize().unwrap();
            let mut got = Vec::new();
            for k in 0..2 {
                let shift = 10.0 * k as f64;
                a.write_data("A-Mesh", "DataOne", &[0, 1, 2], &[10.0 + shift, 20.0 + shift, 30.0 + shift]).unwrap();
                a.advance(1.0).unwrap();
                let mut v = [0.0; 6];
                a.read_data("A-Mesh", "DataTwo", &[0, 1, 2], 0.0, &mut v).unwrap();
                got.push(v.to_vec());
            }
            a.finalize().unwrap();
            got
        },
        move || {
            let mut b = open_at(&cb, "B", Some(&[0.4, 0.0, 1.6, 0.0]));
            b.initialize().unwrap();
            assert_eq!(b.get_mesh_vertex_size("A-Mesh").unwrap(), 3, "B received A's mesh");
            for k in 0..2 {
                let shift = 10.0 * k as f64;
                let mut v = [0.0; 2];
                b.read_data("B-Mesh", "DataOne", &[0, 1], 1.0, &mut v).unwrap();
                assert_eq!(v, [10.0 + shift, 30.0 + shift], "window {}: consistent picks the nearest input", k + 1);
                b.read_data("B-Mesh", "DataOne", &[0, 1], 0.5, &mut v).unwrap();
                let start = if k == 0 { [0.0, 0.0] } else { [10.0, 30.0] };
                for i in 0..2 {
                    close(
                        format!("window {} vertex {i} at rel 0.5 (mapped samples interpolated)", k + 1),
                        v[i],
                        0.5 * (start[i] + [10.0, 30.0][i] + shift),
                    );
                }
                let s = k as f64 + 1.0;
                b.write_data("B-Mesh", "DataTwo", &[0, 1], &[5.0 * s, -5.0 * s, 7.0 * s, -7.0 * s]).unwrap();
                b.advance(1.0).unwrap();
            }
            b.finalize().unwrap();
            vec![]
        },
    );
    for (k, v) in a.iter().enumerate() {
        let s = k as f64 + 1.0;
        assert_eq!(
            v,
            &vec![5.0 * s, -5.0 * s, 0.0, 0.0, 7.0 * s, -7.0 * s],
            "window {}: conservative adds onto the nearest output",
            k + 1
        );
    }
}
