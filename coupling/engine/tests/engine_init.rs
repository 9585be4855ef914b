//! Initial data in explicit schemes (docs/design/coupling-semantics.md §2.5, §5.4): scenario A17 and the
//! all-or-nothing rule per direction.

mod common;

use common::*;

fn read3(p: &mut NativeParticipant, data: &str, rel: f64) -> [f64; 3] {
    let mut v = [0.0; 3];
    let m = mesh(p.participant_name());
    p.read_data(&m, data, &[0], rel, &mut v).unwrap_or_else(|e| panic!("read {data}: {e}"));
    v
}

/// A17: 3D, B (second) initializes DataTwo = 2; A writes the vector DataOne = (1,1,1).
#[test]
fn a17_initialization_in_serial_explicit() {
    let case = Xml::new(3)
        .vector("DataOne")
        .scheme(Scheme::serial("A", "B").window(1).windows(3).ex("DataOne", "A", "B").ex_with(
            "DataTwo",
            "B",
            "A",
            r#"initialize="true""#,
        ))
        .case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    run2(
        move || {
            let mut a = open(&ca, "A");
            assert!(!a.requires_initial_data().unwrap(), "A sends nothing initialized");
            a.initialize().unwrap();
            let max = a.get_max_time_step_size().unwrap();
            close("A reads B's initial data", read(&mut a, "DataTwo", max), 2.0);
            for k in 1..=3 {
                a.write_data(&mesh("A"), "DataOne", &[0], &[1.0, 1.0, 1.0]).unwrap();
                a.advance(1.0).unwrap();
                let rel = a.get_max_time_step_size().unwrap();
                close(format!("A reads after window {k}"), read(&mut a, "DataTwo", rel), 2.5);
            }
            assert!(!a.is_coupling_ongoing().unwrap());
            a.finalize().unwrap();
        },
        move || {
            let mut b = open(&cb, "B");
            assert!(b.requires_initial_data().unwrap(), "B sends DataTwo initialized");
            assert!(b.requires_initial_data().unwrap(), "repeated calls keep returning true");
            write(&mut b, "DataTwo", 2.0);
            b.initialize().unwrap();
            let max = b.get_max_time_step_size().unwrap();
            assert_eq!(read3(&mut b, "DataOne", max), [1.0; 3], "B reads A's window-1 value right after initialize");
            for k in 1..=3 {
                write(&mut b, "DataTwo", 2.5);
                b.advance(1.0).unwrap();
                let rel = b.get_max_time_step_size().unwrap();
                assert_eq!(read3(&mut b, "DataOne", rel), [1.0; 3], "B reads after window {k}");
            }
            assert!(!b.is_coupling_ongoing().unwrap());
            assert_eq!(read3(&mut b, "DataOne", 0.0), [1.0; 3], "B reads at rel 0 after the end");
            b.finalize().unwrap();
        },
    );
}

/// coupling-semantics.md §5.4: one `initialize="true"` in a direction initializes all data of that
/// direction; a direction without it starts from zero even when the sender wrote values.
#[test]
fn initialize_is_all_or_nothing_per_direction() {
    let case = Xml::new(2)
        .scheme(
            Scheme::serial("A", "B")
                .window(1)
                .windows(1)
                .ex_with("DataOne", "A", "B", r#"initialize="true""#)
                .ex("DataThree", "A", "B")
                .ex("DataTwo", "B", "A"),
        )
        .case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    run2(
        move || {
            let mut a = open(&ca, "A");
            assert!(a.requires_initial_data().unwrap());
            write(&mut a, "DataOne", 3.0);
            write(&mut a, "DataThree", 7.0);
            a.initialize().unwrap();
            for rel in [0.0, 0.5, 1.0] {
                close(format!("A reads the uninitialized DataTwo at rel {rel}"), read(&mut a, "DataTwo", rel), 0.0);
            }
            write(&mut a, "DataOne", 4.0);
            write(&mut a, "DataThree", 8.0);
            a.advance(1.0).unwrap();
            close("A reads B's window-1 value after the end", read(&mut a, "DataTwo", 0.0), 6.0);
            a.finalize().unwrap();
        },
        move || {
            let mut b = open(&cb, "B");
            assert!(!b.requires_initial_data().unwrap(), "B -> A has no initialized exchange");
            write(&mut b, "DataTwo", 5.0);
            b.initialize().unwrap();
            for (data, start, end) in [("DataOne", 3.0, 4.0), ("DataThree", 7.0, 8.0)] {
                close(format!("B reads {data} at rel 0"), read(&mut b, data, 0.0), start);
                close(format!("B reads {data} at rel 0.5"), read(&mut b, data, 0.5), 0.5 * (start + end));
                close(format!("B reads {data} at rel 1"), read(&mut b, data, 1.0), end);
            }
            write(&mut b, "DataTwo", 6.0);
            b.advance(1.0).unwrap();
            b.finalize().unwrap();
        },
    );
}
