//! Translational spring-damper-actuator (Chrono's TSDA) between a point of each body.
//!
//! With `L` the distance between the points and `L̇` its rate (extension positive), the
//! force along the line is `F = P − k (L − L0) − c L̇`: positive pushes the points apart,
//! and the spring and damper resist extension (Chrono's conventions, docs/design/participants.md §5.2).

use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::dynamics::force_element::{Block12, ForceElement, Wrench};
use crate::error::MbsError;
use nalgebra::{Matrix3, SMatrix, Vector3};

/// A TSDA with its points held in each body's COM frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Tsda {
    /// The model's name, by which a controller finds it ([`crate::ForceElementSet::find_mut`]).
    pub name: String,
    /// The body of point 1.
    pub body1: BodyHandle,
    /// The body of point 2.
    pub body2: BodyHandle,
    local1: Vector3<f64>,
    local2: Vector3<f64>,
    /// Spring coefficient `k` (N/m).
    pub stiffness: f64,
    /// Damping coefficient `c` (N s/m).
    pub damping: f64,
    /// Preload `P` (N), positive pushing apart.
    pub preload: f64,
    /// Free length `L0` (m).
    pub free_length: f64,
}

/// What a TSDA measures: the unit line from point 1 to point 2, length, rate, moment arms.
struct Line {
    n: Vector3<f64>,
    len: f64,
    rate: f64,
    dv: Vector3<f64>,
    r1: Vector3<f64>,
    r2: Vector3<f64>,
}

impl Tsda {
    /// A TSDA between `point1` on body 1 and `point2` on body 2 (world, in the bodies'
    /// current configuration).
    // One argument per key of Chrono's `tsdas` entry; a builder would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        bodies: &BodySet,
        body1: BodyHandle,
        body2: BodyHandle,
        point1: Vector3<f64>,
        point2: Vector3<f64>,
        stiffness: f64,
        damping: f64,
        preload: f64,
        free_length: f64,
    ) -> Result<Self, MbsError> {
        let b1 = bodies.get(body1).ok_or(MbsError::UnknownHandle(body1.index()))?;
        let b2 = bodies.get(body2).ok_or(MbsError::UnknownHandle(body2.index()))?;
        if body1 == body2 {
            return Err(self_connection(name));
        }
        let all = [stiffness, damping, preload, free_length];
        if !all.iter().chain(point1.iter()).chain(point2.iter()).all(|x| x.is_finite()) {
            return Err(MbsError::NotFinite("a TSDA parameter"));
        }
        if (point2 - point1).norm() == 0.0 {
            return Err(MbsError::InvalidElement {
                name: name.into(),
                why: "its two points coincide, so the line of action is undefined".into(),
            });
        }
        Ok(Tsda {
            name: name.into(),
            body1,
            body2,
            local1: b1.orientation.inverse() * (point1 - b1.position),
            local2: b2.orientation.inverse() * (point2 - b2.position),
            stiffness,
            damping,
            preload,
            free_length,
        })
    }

    fn line(&self, bodies: &BodySet) -> Option<Line> {
        let (b1, b2) = (bodies.get(self.body1)?, bodies.get(self.body2)?);
        let (r1, r2) = (b1.orientation * self.local1, b2.orientation * self.local2);
        let d = (b2.position + r2) - (b1.position + r1);
        let len = d.norm();
        let n = if len > 0.0 { d / len } else { Vector3::zeros() };
        let dv = b2.point_velocity(&(b2.position + r2)) - b1.point_velocity(&(b1.position + r1));
        Some(Line { n, len, rate: n.dot(&dv), dv, r1, r2 })
    }

    /// The current length `L` and its rate `L̇`.
    pub fn length_and_rate(&self, bodies: &BodySet) -> (f64, f64) {
        self.line(bodies).map(|l| (l.len, l.rate)).unwrap_or((0.0, 0.0))
    }

    fn magnitude(&self, l: &Line) -> f64 {
        self.preload - self.stiffness * (l.len - self.free_length) - self.damping * l.rate
    }
}

/// The refusal of an element whose two ends are one body: its forces on that body cancel
/// (a self-connection, which implicit integration refuses, docs/design/jacobians.md).
pub(crate) fn self_connection(name: &str) -> MbsError {
    MbsError::InvalidElement {
        name: name.into(),
        why: "connects a body to itself (body1 and body2 are the same body); an element between two points of \
              one body exerts no net load, so name two different bodies"
            .into(),
    }
}

/// `[I, −[r]×]`: how a body's `[δx, δθ]` moves its point at arm `r`.
fn point_map(r: &Vector3<f64>) -> SMatrix<f64, 3, 6> {
    let mut g = SMatrix::<f64, 3, 6>::zeros();
    g.fixed_view_mut::<3, 3>(0, 0).copy_from(&Matrix3::identity());
    g.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-r.cross_matrix()));
    g
}

/// Spreads `A = ∂f2/∂(point 2 − point 1)` onto both bodies: `s_i s_j G_iᵀ A G_j`.
pub(crate) fn spread(a: &Matrix3<f64>, r1: &Vector3<f64>, r2: &Vector3<f64>) -> Block12 {
    let g = [point_map(r1), point_map(r2)];
    let s = [-1.0, 1.0];
    let mut out = Block12::zeros();
    for i in 0..2 {
        for j in 0..2 {
            let blk = g[i].transpose() * a * g[j] * (s[i] * s[j]);
            out.fixed_view_mut::<6, 6>(6 * i, 6 * j).copy_from(&blk);
        }
    }
    out
}

impl ForceElement for Tsda {
    fn name(&self) -> &str {
        &self.name
    }
    fn bodies(&self) -> [BodyHandle; 2] {
        [self.body1, self.body2]
    }
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2] {
        let Some(l) = self.line(bodies) else { return [Wrench::default(); 2] };
        let f2 = self.magnitude(&l) * l.n;
        [Wrench { force: -f2, torque: l.r1.cross(&-f2) }, Wrench { force: f2, torque: l.r2.cross(&f2) }]
    }
    /// With `d` the line from point 1 to point 2, `f2 = F(L, L̇) n` on point 2 and `−f2` on
    /// point 1, and `G_i = [I, −[r_i]×]` the map of body `i`'s `[δx, δθ]` onto its point:
    ///
    /// - `∂f2/∂d = −k n nᵀ + F/L (I − n nᵀ) − c n ((I − n nᵀ) ḋ / L)ᵀ` (spring, turning of the
    ///   line, damper along a turning line), spread as `s_i s_j G_iᵀ (∂f2/∂d) G_j`;
    /// - the damper's relative velocity `ḋ` has `ω_j × r_j`, which turns with body `j`:
    ///   `∂ḋ/∂θ_j = −s_j [ω_j]× [r_j]×`, through `∂f2/∂ḋ = −c n nᵀ`;
    /// - the torque `r_i × f_i` turns with its arm: `∂τ_i/∂θ_i += [f_i]× [r_i]×`;
    ///
    /// and damping `s_i s_j G_iᵀ (−c n nᵀ) G_j` (`s_1 = −1`, `s_2 = 1`).
    fn jacobian(&self, bodies: &BodySet) -> Option<(Block12, Block12)> {
        let l = self.line(bodies)?;
        if l.len == 0.0 {
            return None;
        }
        let (b1, b2) = (bodies.get(self.body1)?, bodies.get(self.body2)?);
        let nn = l.n * l.n.transpose();
        let across = Matrix3::identity() - nn;
        let f = self.magnitude(&l);
        let k = -self.stiffness * nn + across * (f / l.len) - self.damping * l.n * (across * l.dv / l.len).transpose();
        let cdamp = -self.damping * nn;
        let mut stiff = spread(&k, &l.r1, &l.r2);
        let f2 = f * l.n;
        let arms = [(l.r1, b1.angvel, -1.0), (l.r2, b2.angvel, 1.0)];
        for (i, (ri, _, si)) in arms.iter().enumerate() {
            let gi = point_map(ri);
            for (j, (rj, wj, sj)) in arms.iter().enumerate() {
                // Damper through the turning arm of body j (rotation columns only).
                let dv = -(wj.cross_matrix() * rj.cross_matrix()) * *sj;
                let blk = gi.transpose() * (cdamp * dv) * *si;
                let mut view = stiff.fixed_view_mut::<6, 3>(6 * i, 6 * j + 3);
                view += blk;
            }
            // The torque arm turning with its own body.
            let fi = f2 * *si;
            let mut view = stiff.fixed_view_mut::<3, 3>(6 * i + 3, 6 * i + 3);
            view += fi.cross_matrix() * ri.cross_matrix();
        }
        Some((stiff, spread(&cdamp, &l.r1, &l.r2)))
    }
    fn has_jacobian(&self) -> bool {
        true
    }
    fn link_power(&self, bodies: &BodySet) -> Option<f64> {
        let l = self.line(bodies)?;
        Some(-self.magnitude(&l) * l.rate)
    }
}
