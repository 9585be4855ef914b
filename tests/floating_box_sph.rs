//! The SPH fluid coupled to the MBS through the native engine: the shipped
//! `configs/floating_box_sph` case (a 2D tank, a box half as dense as water released 2 cm above
//! its floating position), run with `tidelink-sph` (Fluid) and `tidelink-mbs` (Solid) in
//! threads. The box must settle at the draft where buoyancy equals its weight.
//!
//! The draft is measured from the run's own outputs: the box's mean height from the Solid's
//! CSV, and the mean water level from the water volume the Fluid's last ParaView frame holds
//! (each particle stands for dp² ρ0/ρ of water), so the level rise the box causes in the finite
//! tank is accounted for exactly rather than assumed.
//!
//! Run time: 2.4 s of simulated time, about 24 000 SPH steps of 1540 particles; about a minute
//! and a half in a debug build on two cores (the solver library is optimised in debug builds too).

use tidelink_mbs::io::output;
use tidelink_vtk::{read_vtu, PvdIndex};

mod support;
use support::in_threads;
use support::temp_copy::TempCopy;

// The shipped case's physics.
/// Box width along x, depth along y (m) and mass (kg).
const B: f64 = 0.2;
const D: f64 = 0.2;
const H: f64 = 0.1;
const M: f64 = 2.0;
/// Tank length (m), initial water depth (m), particle spacing (m), water density, gravity.
const L: f64 = 0.8;
const DEPTH: f64 = 0.2;
const DP: f64 = 0.01;
const RHO: f64 = 1000.0;
const G: f64 = 9.81;

/// A box floating at rest displaces its weight: draft = M / (ρ B D) = 5 cm, which the coupled
/// run must reproduce within 3 %.
///
/// After release the box heaves with a period of about 0.8 s and a slowly decaying amplitude
/// (a few mm by t = 1 s): its equilibrium height is the mean over t ∈ [0.8, 2.4] s, two periods
/// (a non-whole number of periods shifts the mean by at most A T/(2π · 1.6 s) ≈ 0.3 mm, 0.6 % of
/// the draft). The water level η follows from the volume: L (η + DEPTH) − B (η − z_bottom) = V.
/// Also checked: the mean vertical fluid force balances the weight (to 2 %), and the box does
/// not roll.
#[test]
fn a_floating_box_settles_at_the_draft_where_buoyancy_equals_weight() {
    let copy = TempCopy::shipped(
        "configs/floating_box_sph",
        "precice-config.xml",
        &[(r#"<max-time-windows value="3000" />"#, r#"<max-time-windows value="2400" />"#)],
    );
    let fluid_file = copy.copy("fluid/participant.yaml", &[]);
    let solid_file = copy.copy("solid/participant.yaml", &[]);
    copy.copy_all(&["fluid/sph_model.yaml", "solid/model.yaml", "solid/solver.yaml"]);
    let outputs = in_threads::fluid_and_mbs(in_threads::sph, fluid_file, solid_file, &copy.case);
    let csv = outputs.iter().find(|p| p.ends_with("solid/output/box.csv")).expect("the Solid's box.csv");
    let rows = output::read(csv).expect("read box.csv");
    assert_eq!(rows.last().map(|r| (r.time * 1e3).round()), Some(2400.0), "the run reached 2.4 s");
    let z0 = rows[0].position.z;
    let lowest = rows.iter().map(|r| r.position.z).fold(f64::INFINITY, f64::min);
    assert!(lowest < z0 - 0.015, "the released box sank towards its floating position (lowest z {lowest})");

    let late: Vec<_> = rows.iter().filter(|r| r.time >= 0.8 - 1e-9).collect();
    let n = late.len() as f64;
    let z_centre = late.iter().map(|r| r.position.z).sum::<f64>() / n;
    let fz = late.iter().map(|r| r.force.z).sum::<f64>() / n;
    let roll = late.iter().map(|r| r.rotation.norm()).fold(0.0, f64::max);

    // The water volume (per metre of depth) from the last frame of the fluid.
    let pvd = outputs.iter().find(|p| p.extension().is_some_and(|e| e == "pvd")).expect("the Fluid's sph.pvd");
    let index = PvdIndex::read(pvd).expect("read sph.pvd");
    let last = index.entries().iter().rfind(|e| e.part == 0).expect("a fluid frame");
    assert!((last.time - 2.4).abs() < 1e-9, "last frame at {}", last.time);
    let frame = read_vtu(&pvd.parent().unwrap().join(&last.file)).expect("read the last fluid frame");
    let density = frame.point_array("density").expect("a density array");
    let volume: f64 = density.values.iter().map(|rho| DP * DP * RHO / rho).sum();
    assert_eq!(density.values.len(), 1540, "no particle lost (80 × 20 minus the 60 inside the box at release)");

    let bottom = z_centre - H / 2.0;
    let level = (volume - L * DEPTH - B * bottom) / (L - B);
    let draft = level - bottom;
    let expected = M / (RHO * B * D);
    println!(
        "mean box centre z = {z_centre:.5} m, water level {level:.5} m (volume {volume:.6} m²): draft {draft:.5} m \
         against {expected} m ({:+.2} %); mean Fz {fz:.4} N against weight {:.4} N; max rotation {roll:.2e} rad",
        100.0 * (draft / expected - 1.0),
        M * G
    );
    assert!((draft / expected - 1.0).abs() < 0.03, "draft {draft} m is not within 3 % of {expected} m");
    assert!((fz / (M * G) - 1.0).abs() < 0.02, "mean vertical force {fz} N against the weight {} N", M * G);
    assert!(roll < 0.02, "the box rolled by {roll} rad");
}
