//! Dynamic added mass: two fluid senders' increments on top of the Solid's baseline, window by
//! window, through the native engine; an increment that breaks the mass matrix stops the run.

use super::*;

/// A fluid participant that only sends added-mass increments: a heave increment
/// `heave(window)` for body 0 on its own FluidAddedMass mesh.
struct AmSender {
    name: &'static str,
    mesh: String,
    heave: fn(usize) -> f64,
    ids: Vec<VertexId>,
    window: usize,
}

impl Adapter for AmSender {
    fn name(&self) -> &str {
        self.name
    }
    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let coords = AddedMassExchange::coordinates(1);
        self.ids = vec![0; coords.len() / 3];
        coupling.set_mesh_vertices(&self.mesh, &coords, &mut self.ids)?;
        Ok(())
    }
    fn read_data(&mut self, _: &mut dyn CouplingData, _: f64, _: f64) -> AdapterResult<()> {
        Ok(())
    }
    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let mut values = vec![0.0; PER_BODY];
        values[6 * 2 + 2] = (self.heave)(self.window);
        coupling.write_data(&self.mesh, "am_coeffs", &self.ids, &values)?;
        self.window += 1;
        Ok(())
    }
    fn advance(&mut self, _: f64, _: f64) -> AdapterResult<()> {
        Ok(())
    }
}

/// A fluid participant that pushes the ball up with a constant force (one vertex at its reference frame).
struct Pusher {
    force: f64,
    ids: Vec<VertexId>,
}

impl Adapter for Pusher {
    fn name(&self) -> &str {
        "Pusher"
    }
    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.ids = vec![0];
        coupling.set_mesh_vertices("PushMesh", &[0.0, 0.0, 0.0], &mut self.ids)?;
        Ok(())
    }
    fn read_data(&mut self, _: &mut dyn CouplingData, _: f64, _: f64) -> AdapterResult<()> {
        Ok(())
    }
    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        coupling.write_data("PushMesh", "forces", &self.ids, &[0.0, 0.0, self.force])?;
        Ok(())
    }
    fn advance(&mut self, _: f64, _: f64) -> AdapterResult<()> {
        Ok(())
    }
}

const WINDOW: f64 = 0.01;
const WINDOWS: usize = 10;

/// Solid + two added-mass senders (A, B) + the pusher, each pair in a serial-explicit scheme
/// with the Solid second (so it reads at the window end, no lag).
fn dynamic_xml() -> String {
    let mut x = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" ?>
<precice-configuration>
  <data:vector name="forces" />
  <data:scalar name="am_coeffs" />
  <mesh name="SolidMesh" dimensions="3"><use-data name="forces" /></mesh>
  <mesh name="PushMesh" dimensions="3"><use-data name="forces" /></mesh>
"#,
    );
    for s in ["A", "B"] {
        x += &format!(
            r#"  <mesh name="FluidAddedMass_{s}" dimensions="3"><use-data name="am_coeffs" /></mesh>
  <mesh name="SolidAddedMass_{s}" dimensions="3"><use-data name="am_coeffs" /></mesh>
"#
        );
    }
    x += r#"  <participant name="Solid">
    <provide-mesh name="SolidMesh" />
    <read-data name="forces" mesh="SolidMesh" />
"#;
    for s in ["A", "B"] {
        x += &format!(
            r#"    <provide-mesh name="SolidAddedMass_{s}" />
    <receive-mesh name="FluidAddedMass_{s}" from="Fluid{s}" />
    <read-data name="am_coeffs" mesh="SolidAddedMass_{s}" />
    <mapping:nearest-neighbor direction="read" from="FluidAddedMass_{s}" to="SolidAddedMass_{s}" constraint="consistent" />
"#
        );
    }
    x += r#"  </participant>
  <participant name="Pusher">
    <provide-mesh name="PushMesh" />
    <receive-mesh name="SolidMesh" from="Solid" />
    <write-data name="forces" mesh="PushMesh" />
    <mapping:nearest-neighbor direction="write" from="PushMesh" to="SolidMesh" constraint="conservative" />
  </participant>
"#;
    for s in ["A", "B"] {
        x += &format!(
            r#"  <participant name="Fluid{s}">
    <provide-mesh name="FluidAddedMass_{s}" />
    <write-data name="am_coeffs" mesh="FluidAddedMass_{s}" />
  </participant>
"#
        );
    }
    for p in ["Pusher", "FluidA", "FluidB"] {
        x += &format!(
            r#"  <m2n:sockets acceptor="{p}" connector="Solid" exchange-directory="{{dir}}" />
"#
        );
    }
    let scheme = |first: &str, exchange: &str| {
        format!(
            r#"  <coupling-scheme:serial-explicit>
    <participants first="{first}" second="Solid" />
    <time-window-size value="{WINDOW}" />
    <max-time-windows value="{WINDOWS}" />
    {exchange}
  </coupling-scheme:serial-explicit>
"#
        )
    };
    x += &scheme("Pusher", r#"<exchange data="forces" mesh="SolidMesh" from="Pusher" to="Solid" />"#);
    for s in ["A", "B"] {
        x += &scheme(
            &format!("Fluid{s}"),
            &format!(r#"<exchange data="am_coeffs" mesh="FluidAddedMass_{s}" from="Fluid{s}" to="Solid" />"#),
        );
    }
    x + "</precice-configuration>\n"
}

const BALL_MASS: f64 = 1000.0;
const BASELINE_HEAVE: f64 = 500.0;
const FORCE: f64 = 1e4;

fn increment_a(window: usize) -> f64 {
    if window < 5 {
        200.0
    } else {
        700.0
    }
}
fn increment_b(_: usize) -> f64 {
    300.0
}
fn increment_bad(window: usize) -> f64 {
    if window < 3 {
        0.0
    } else {
        -3000.0
    }
}

/// Runs the Solid (files from `c`) against the pusher and senders A (`a`) and B; the ball's
/// vertical velocity after every window, or the Solid's error.
fn run_dynamic(c: &TempCase, a: fn(usize) -> f64) -> (Result<Vec<f64>, String>, Vec<Outcome>) {
    let velocities = Arc::new(Mutex::new(Vec::new()));
    let (file, xml) = (solid_file(c), c.config.clone());
    let v2 = velocities.clone();
    let fluid = |name: &'static str, mut adapter: Box<dyn Adapter + Send>, xml: std::path::PathBuf| {
        (
            name,
            Box::new(move || {
                let mut cpl = coupling::open(Backend::Native, name, &xml).map_err(|e| format!("{name}: {e}"))?;
                driver::run(adapter.as_mut(), cpl.as_mut(), ReadDataTime::WindowStart, &mut ())
                    .map(|_| ())
                    .map_err(|e| format!("{name}: {e}"))
            }) as Box<dyn FnOnce() -> Result<(), String> + Send>,
        )
    };
    let sender = |name: &'static str, mesh: &str, heave: fn(usize) -> f64| -> Box<dyn Adapter + Send> {
        Box::new(AmSender { name, mesh: mesh.to_string(), heave, ids: Vec::new(), window: 0 })
    };
    let results = testing::run_in_threads(vec![
        (
            "Solid",
            Box::new(move || {
                let (mut solid, spec) = build(&file, &xml).map_err(|e| format!("Solid: {e:#}"))?;
                let handle = solid.coupling_bodies()[0].handle;
                solid.on_after_step(Box::new(move |sys, _| {
                    let vz = sys.bodies.get(handle).map(|b| b.linvel().z).unwrap_or(f64::NAN);
                    v2.lock().unwrap().push(vz);
                }));
                let mut cpl = coupling::open(Backend::Native, "Solid", &xml).map_err(|e| format!("Solid: {e}"))?;
                driver::run(&mut solid, cpl.as_mut(), spec.adapter.read_data_time, &mut ())
                    .map(|_| ())
                    .map_err(|e| format!("Solid: {e}"))
            }) as Box<dyn FnOnce() -> Result<(), String> + Send>,
        ),
        fluid("Pusher", Box::new(Pusher { force: FORCE, ids: Vec::new() }), c.config.clone()),
        fluid("FluidA", sender("FluidA", "FluidAddedMass_A", a), c.config.clone()),
        fluid("FluidB", sender("FluidB", "FluidAddedMass_B", increment_b), c.config.clone()),
    ]);
    let mut results = results.into_iter();
    let solid = results.next().expect("the Solid's result");
    let v = velocities.lock().unwrap().clone();
    (solid.map(|_| v), results.collect())
}

fn ball_case() -> TempCase {
    ball_case_with(true)
}

/// The ball coupled on the dynamic XML, with the baseline entry (heave 500 kg) or without one.
fn ball_case_with(entry: bool) -> TempCase {
    let text = if entry {
        "  added_mass:\n    density: 1000\n    blocks:\n      - name: ball\n        data: [[0.2, 0, 0, 0, 0, 0], \
         [0, 0.2, 0, 0, 0, 0], [0, 0, 0.5, 0, 0, 0], [0, 0, 0, 0.01, 0, 0], [0, 0, 0, 0, 0.01, 0], \
         [0, 0, 0, 0, 0, 0.01]]\n"
    } else {
        ""
    };
    case(&dynamic_xml(), &participant(&["ball"], text, [0.0; 3]), &model(&["ball"]))
}

/// The accelerations per window against F/(m + baseline + ΔA1 + ΔA2).
fn check_accelerations(v: &[f64], baseline: f64) {
    assert_eq!(v.len(), WINDOWS, "one step per window");
    let mut previous = 0.0;
    for (k, vz) in v.iter().enumerate() {
        let total = BALL_MASS + baseline + increment_a(k) + increment_b(k);
        let expected = FORCE / total;
        let a = (vz - previous) / WINDOW;
        println!("window {k}: a = {a:.12} m/s², F/(m + A + ΔA1 + ΔA2) = {expected:.12} (total {total} kg)");
        assert!((a - expected).abs() < 1e-9 * expected, "window {k}: a = {a}, expected {expected}");
        previous = *vz;
    }
}

#[test]
fn dynamic_added_mass_from_two_senders_adds_to_the_baseline_and_replaces_each_window() {
    let c = ball_case();
    let (solid, others) = run_dynamic(&c, increment_a);
    for r in others {
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    check_accelerations(&solid.unwrap_or_else(|e| panic!("{e}")), BASELINE_HEAVE);
}

#[test]
fn dynamic_added_mass_without_an_entry_starts_from_zero() {
    let c = ball_case_with(false);
    let (solid, others) = run_dynamic(&c, increment_a);
    for r in others {
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    check_accelerations(&solid.unwrap_or_else(|e| panic!("{e}")), 0.0);
}

#[test]
fn an_increment_that_makes_the_mass_matrix_indefinite_stops_the_run_with_an_error() {
    let c = ball_case();
    let (solid, _) = run_dynamic(&c, increment_bad);
    let e = solid.expect_err("the Solid must refuse M + A <= 0");
    assert!(e.contains("the added mass received for the window starting at t = 0.03"), "{e}");
    assert!(e.contains("not positive definite") && e.contains("body `ball`"), "{e}");
}

/// A coupling without partners: 3D meshes and vectors, but `data_dims` components for the data
/// on the Solid's added-mass meshes; every read gives zeros.
fn declared(data_dims: usize) -> ScriptedCoupling {
    ScriptedCoupling::new("Solid")
        .with_mesh_data_dimensions("SolidAddedMass_A", data_dims)
        .with_mesh_data_dimensions("SolidAddedMass_B", data_dims)
        .zeros_when_unscripted()
}

#[test]
fn added_mass_data_must_be_scalar() {
    let c = ball_case();
    let (mut solid, _) = build(&solid_file(&c), &c.config).unwrap_or_else(|e| panic!("{e:#}"));
    let e = solid.initialize_participant(&mut declared(3)).unwrap_err().to_string();
    assert!(
        e.contains("data `am_coeffs` on added-mass mesh `SolidAddedMass_A` has 3 components")
            && e.contains("declare it <data:scalar name=\"am_coeffs\"/>"),
        "{e}"
    );
    let (mut solid, _) = build(&solid_file(&c), &c.config).unwrap();
    solid.initialize_participant(&mut declared(1)).unwrap();
    // Zero increments leave the baseline.
    solid.read_data(&mut declared(1), 0.0, WINDOW).unwrap();
    assert_eq!(solid.system().added_mass.as_ref().unwrap().blocks()[0][(2, 2)], BASELINE_HEAVE);
}
