//! The reference a step's derivative is checked against: central differences of full
//! integrator steps, each input channel perturbed by `±ε` in the bodies' accumulators (the
//! force's moment with the start's lever arm, as [`crate::derivatives::channels`] defines it),
//! the outputs read from the two end states (rotations as `log(R₊ R₋ᵀ)`). Costs two converged
//! steps per input channel: for tests and diagnostics, not for production seeds.

use crate::derivatives::channels::{self, Input, Output};
use crate::derivatives::error::DerivativeError;
use crate::dynamics::body_set::BodySet;
use crate::solver::assembly::DofMap;
use crate::solver::bdf::Bdf;
use crate::solver::integrator::Integrator;
use crate::state::IntegratorHistory;
use crate::system::MultibodySystem;
use nalgebra::{DMatrix, DVector, UnitQuaternion, Vector3};

/// The world rotation taking `minus` to `plus`, as a rotation vector.
fn turn(plus: &UnitQuaternion<f64>, minus: &UnitQuaternion<f64>) -> Vector3<f64> {
    (plus * minus.inverse()).scaled_axis()
}

/// `y(plus) − y(minus)` for `outputs` (positions and velocities subtracted, rotations as the
/// world rotation between the two, state entries likewise).
pub fn output_difference(plus: &BodySet, minus: &BodySet, outputs: &[Output]) -> DVector<f64> {
    let dofs = DofMap::new(plus);
    let mut out = Vec::with_capacity(channels::output_len(outputs));
    for o in outputs {
        let pair = |h| plus.get(h).zip(minus.get(h));
        let d: Vec<f64> = match *o {
            Output::Position { body, point } => pair(body)
                .map(|(p, m)| ((p.reference_pose() * point) - (m.reference_pose() * point)).iter().copied().collect())
                .unwrap_or_default(),
            Output::Rotation { body } => pair(body)
                .map(|(p, m)| turn(&p.com_orientation(), &m.com_orientation()).iter().copied().collect())
                .unwrap_or_default(),
            Output::Velocity { body, point } => pair(body)
                .map(|(p, m)| {
                    let vp = p.point_velocity(&(p.reference_pose() * point).coords);
                    let vm = m.point_velocity(&(m.reference_pose() * point).coords);
                    (vp - vm).iter().copied().collect()
                })
                .unwrap_or_default(),
            Output::AngularVelocity { body } => {
                pair(body).map(|(p, m)| (p.angvel() - m.angvel()).iter().copied().collect()).unwrap_or_default()
            }
            Output::State(k) => {
                let coordinate = k % dofs.n.max(1);
                let found =
                    plus.iter().find(|(h, _)| dofs.offset(*h).is_some_and(|o| (o..o + 6).contains(&coordinate)));
                let value = found.map(|(h, p)| {
                    let m = minus.get(h).expect("same layout");
                    let c = coordinate - dofs.offset(h).expect("free");
                    let v = match (k >= dofs.n, c < 3) {
                        (false, true) => p.com_position() - m.com_position(),
                        (false, false) => turn(&p.com_orientation(), &m.com_orientation()),
                        (true, true) => p.linvel() - m.linvel(),
                        (true, false) => p.angvel() - m.angvel(),
                    };
                    v[c % 3]
                });
                vec![value.unwrap_or(0.0)]
            }
        };
        let len = o.channels();
        out.extend(if d.is_empty() { vec![0.0; len] } else { d });
    }
    DVector::from_vec(out)
}

/// `dy/du` (outputs × inputs) by central differences of backward-Euler steps of `h` from
/// `system` at `t`, each input channel perturbed by `±eps` (N or N m).
pub fn central_differences(
    system: &MultibodySystem,
    integrator: &Bdf,
    t: f64,
    h: f64,
    inputs: &[Input],
    outputs: &[Output],
    eps: f64,
) -> Result<DMatrix<f64>, DerivativeError> {
    let dofs = DofMap::new(&system.bodies);
    channels::check(&system.bodies, &dofs, inputs, outputs)?;
    let b = channels::input_map(&system.bodies, &dofs, inputs);
    let step = |sign: f64, col: usize| -> Result<BodySet, DerivativeError> {
        let mut sys = system.clone();
        for (hd, body) in sys.bodies.iter_mut() {
            if let Some(o) = dofs.offset(hd) {
                body.add_force(Vector3::new(b[(o, col)], b[(o + 1, col)], b[(o + 2, col)]) * (sign * eps));
                body.add_torque(Vector3::new(b[(o + 3, col)], b[(o + 4, col)], b[(o + 5, col)]) * (sign * eps));
            }
        }
        let mut bdf = integrator.clone();
        bdf.restore_history(&IntegratorHistory { time: t, ..Default::default() });
        sys.step_at(&mut bdf, t, h)?;
        Ok(sys.bodies)
    };
    let mut out = DMatrix::zeros(channels::output_len(outputs), b.ncols());
    for col in 0..b.ncols() {
        let d = output_difference(&step(1.0, col)?, &step(-1.0, col)?, outputs) / (2.0 * eps);
        out.set_column(col, &d);
    }
    Ok(out)
}
