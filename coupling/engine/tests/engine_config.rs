//! Configuration handling seen through the engine (docs/design/coupling-semantics.md §9, §12 scenario A28 a–f) and the
//! schemes the native engine does not run yet.

mod common;

use common::*;

fn pair(scheme: Scheme) -> Xml {
    Xml::new(2).scheme(scheme.ex("DataOne", "A", "B").ex("DataTwo", "B", "A"))
}

fn open_err(xml: &str) -> String {
    let case = temp_case(xml);
    fails(NativeParticipant::new("A", &case.config), ErrorKind::Config, &[])
}

#[test]
fn a28a_root_without_children() {
    let msg = open_err("<?xml version=\"1.0\"?>\n<precice-configuration>\n</precice-configuration>\n");
    assert!(msg.contains("Tag <mesh> was not found"), "{msg}");
}

#[test]
fn a28b_scheme_needs_a_termination_condition() {
    let msg = open_err(&pair(Scheme::serial("A", "B").window(1)).build());
    assert!(msg.contains("At least one termination condition is required"), "{msg}");
}

#[test]
fn a28c_degree_zero_with_implicit_substeps() {
    let scheme = Scheme::new("serial-implicit", "A", "B").window(1).windows(1).child(r#"<max-iterations value="3"/>"#);
    let msg = open_err(&pair(scheme).degree("DataOne", 0).degree("DataTwo", 0).build());
    assert!(msg.contains("Please deactivate exchange of substeps"), "{msg}");
}

/// A28 d: `initialize="maybe"` is false, with a warning; A28 e: `value="1/4"` is Δ = 0.25.
#[test]
fn a28d_e_lenient_values_in_a_run() {
    let case = Xml::new(2)
        .scheme(
            Scheme::parallel("A", "B")
                .window("1/4")
                .windows(1)
                .ex_with("DataOne", "A", "B", r#"initialize="maybe""#)
                .ex("DataTwo", "B", "A"),
        )
        .case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a, b) = run2(
        move || {
            let mut a = open(&ca, "A");
            write(&mut a, "DataOne", 5.0);
            // Without requiresInitialData(): initialize() only works if nothing is initialized.
            a.initialize().unwrap();
            let max = a.get_max_time_step_size().unwrap();
            a.advance(max).unwrap();
            a.finalize().unwrap();
            (max, 0.0)
        },
        move || {
            let mut b = open(&cb, "B");
            assert!(!b.requires_initial_data().unwrap());
            b.initialize().unwrap();
            let max = b.get_max_time_step_size().unwrap();
            let v = read(&mut b, "DataOne", 0.0);
            b.advance(max).unwrap();
            b.finalize().unwrap();
            (max, v)
        },
    );
    assert_eq!((a.0, b.0), (0.25, 0.25), "time-window-size 1/4");
    assert_eq!(b.1, 0.0, "initialize=\"maybe\" is false: B starts from zero, not from A's 5");
    // ... as in preCICE, but not silently: a warning at the attribute's line says so.
    let (_, warnings) = tidelink_precice_config::load(&case.config).expect("a valid configuration");
    let text = warnings.to_string();
    let xml = std::fs::read_to_string(&case.config).expect("the XML");
    let line = xml.lines().position(|l| l.contains("initialize=\"maybe\"")).expect("the attribute") + 1;
    assert!(
        text.contains(&format!(
            ":{line}: warning: attribute \"initialize\" of tag <exchange> is \"maybe\", which preCICE reads as false"
        )),
        "{text}"
    );
}

#[test]
fn a28f_m2n_after_the_scheme() {
    let msg = open_err(&pair(Scheme::serial("A", "B").window(1).windows(1)).m2n_after_schemes().build());
    assert!(msg.contains("There is no m2n communication configured between participants"), "{msg}");
}
