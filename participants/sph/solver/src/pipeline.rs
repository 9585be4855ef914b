//! [`Simulation`]: one time step, in order.
//!
//! 1. Sort: fluid particles leaving the domain are dropped, the grid is sized to the particles,
//!    and fluid and markers are counting-sorted by cell (every array reordered).
//! 2. Evaluate at tⁿ: markers placed from the body poses; marker pressure from the fluid
//!    (Adami); fluid accelerations and density rates. The time-step limit comes from this
//!    evaluation.
//! 3. Predictor to tⁿ + dt/2; markers placed at the half step.
//! 4. Evaluate at the half step, searching a little beyond the support by the distance
//!    particles moved since the sort; body loads from the same evaluation.
//! 5. Corrector to tⁿ⁺¹; bodies carried forward; loads added to the window.
//!
//! Step 1–2 run lazily, so that [`Simulation::stable_time_step`] can be asked before a step
//! without doing them twice; a change of body motion or a restored state makes them run again.

use crate::bodies::{Body, BodyId, BodyLoads, Motion};
use crate::boundary::adami_pass;
use crate::dynamics::{fluid_pass, marker_forces, Extremes, PairConsts, Pass, Rhs, Scatter};
use crate::eos::{Tait, TaitFast};
use crate::error::{Result, SphError};
use crate::integrator::{correct, predict};
use crate::kernel::{Cubic, Kernel, KernelKind, PairKernel, Wendland};
use crate::neighbours::{CellGrid, Occupancy};
use crate::parameters::{Parameters, Viscosity};
use crate::particles::{Fluid, Markers, Packed};
use nalgebra::{Point3, Vector3};
use rayon::prelude::*;

/// A WCSPH fluid with its walls and bodies. Built by [`crate::Scene::build`].
pub struct Simulation {
    pub(crate) params: Parameters,
    pub(crate) dim: usize,
    axes: &'static [usize],
    kernel: Kernel,
    eos: Tait,
    fast: TaitFast,
    consts: PairConsts,
    pub(crate) time: f64,
    pub(crate) steps: u64,
    pub(crate) fluid: Fluid,
    pub(crate) markers: Markers,
    pub(crate) bodies: Vec<Body>,
    pub(crate) lost: usize,
    work: Work,
}

impl std::fmt::Debug for Simulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simulation")
            .field("dimension", &self.params.dimension)
            .field("time", &self.time)
            .field("steps", &self.steps)
            .field("fluid", &self.fluid.len())
            .field("markers", &self.markers.len())
            .field("bodies", &self.bodies.iter().map(|b| b.name.as_str()).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// Buffers reused from step to step; none of it is state.
#[derive(Debug, Default)]
struct Work {
    grid: Option<CellGrid>,
    fstarts: Vec<u32>,
    mstarts: Vec<u32>,
    order: Vec<u32>,
    tmp: Vec<f64>,
    half: Fluid,
    pf: Packed,
    pm: Packed,
    rhs: Vec<Rhs>,
    shift: Vec<[f64; 3]>,
    marker_acc: Vec<[f64; 3]>,
    wanted: Vec<bool>,
    adami: Vec<[f32; 6]>,
    scatter: Scatter,
    occupancy: Occupancy,
    marker_occupancy: Occupancy,
    /// Extent of the particles at the last sort (internal axes).
    span: [f64; 3],
    /// The extremes of the evaluation at the current state, once done.
    fresh: Option<Extremes>,
}

/// Which fluid state an evaluation reads.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    Now,
    Half,
}

impl Simulation {
    pub(crate) fn new(params: Parameters, fluid: Fluid, markers: Markers, bodies: Vec<Body>) -> Result<Self> {
        params.validate()?;
        if fluid.len() == 0 {
            return Err(SphError::NoFluid);
        }
        let dim = params.dimension.count();
        let axes = params.dimension.axes();
        let kernel = params.kernel();
        let eos = params.eos();
        let h = kernel.h;
        let c0 = params.sound_speed;
        let (alpha, lam) = match params.viscosity {
            Viscosity::Artificial { alpha } => (alpha, 0.0),
            Viscosity::Laminar { kinematic } => (0.0, kinematic),
        };
        let (diff, k_h) = match params.density_diffusion {
            Some(d) => {
                (2.0 * d.delta * h * c0, if d.hydrostatic_correction { params.rest_density / (c0 * c0) } else { 0.0 })
            }
            None => (0.0, 0.0),
        };
        let consts = PairConsts {
            m: params.particle_mass() as f32,
            h: h as f32,
            inv_h: (1.0 / h) as f32,
            eta2: (0.01 * h * h) as f32,
            alpha_c0: (alpha * c0) as f32,
            alpha_c0_markers: if params.boundary.artificial_viscosity { (alpha * c0) as f32 } else { 0.0 },
            lam: (4.0 * lam) as f32,
            diff: diff as f32,
            k_h: k_h as f32,
            g: std::array::from_fn(|k| if k < dim { params.gravity[axes[k]] as f32 } else { 0.0 }),
            shift: params.shifting.unwrap_or(0.0) as f32,
        };
        Ok(Simulation {
            fast: TaitFast::new(&eos),
            params,
            dim,
            axes,
            kernel,
            eos,
            consts,
            time: 0.0,
            steps: 0,
            fluid,
            markers,
            bodies,
            lost: 0,
            work: Work::default(),
        })
    }

    /// The parameters.
    pub fn parameters(&self) -> &Parameters {
        &self.params
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Number of fluid particles.
    pub fn fluid_count(&self) -> usize {
        self.fluid.len()
    }

    /// Number of wall and body markers.
    pub fn marker_count(&self) -> usize {
        self.markers.len()
    }

    /// Fluid particles dropped because they left the domain.
    pub fn lost_particles(&self) -> usize {
        self.lost
    }

    /// Number of bodies (walls included).
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// The body called `name`.
    pub fn body_id(&self, name: &str) -> Option<BodyId> {
        self.bodies.iter().position(|b| b.name == name).map(BodyId)
    }

    /// Markers of body `id` (world positions at the current time).
    pub fn body_marker_count(&self, id: BodyId) -> usize {
        self.markers.body.iter().filter(|&&b| b as usize == id.0).count()
    }

    /// World positions of body `id`'s markers at the current time.
    pub fn body_marker_positions(&self, id: BodyId) -> Result<Vec<Point3<f64>>> {
        let pose = self.body(id)?.motion.pose;
        let m = &self.markers;
        Ok((0..m.len())
            .filter(|&i| m.body[i] as usize == id.0)
            .map(|i| pose * Point3::new(m.local[0][i], m.local[1][i], m.local[2][i]))
            .collect())
    }

    fn world(&self, x: &[Vec<f64>; 3], i: usize) -> Point3<f64> {
        let mut p = Point3::origin();
        for (k, &a) in self.axes.iter().enumerate() {
            p[a] = x[k][i];
        }
        p
    }

    /// Fluid particle positions, world frame (2D: y = 0), in the solver's current order.
    pub fn fluid_positions(&self) -> Vec<Point3<f64>> {
        (0..self.fluid.len()).map(|i| self.world(&self.fluid.x, i)).collect()
    }

    /// Fluid particle velocities, world frame.
    pub fn fluid_velocities(&self) -> Vec<Vector3<f64>> {
        (0..self.fluid.len()).map(|i| self.world(&self.fluid.v, i).coords).collect()
    }

    /// Fluid densities (kg/m³).
    pub fn fluid_densities(&self) -> &[f64] {
        &self.fluid.rho
    }

    /// Fluid pressures (Pa) from the equation of state.
    pub fn fluid_pressures(&self) -> Vec<f64> {
        self.fluid.rho.iter().map(|&r| self.eos.pressure(r)).collect()
    }

    /// Kinetic energy of the fluid (J) (2D: J/m).
    pub fn kinetic_energy(&self) -> f64 {
        let m = self.params.particle_mass();
        (0..self.fluid.len()).map(|i| (0..self.dim).map(|k| self.fluid.v[k][i].powi(2)).sum::<f64>()).sum::<f64>()
            * 0.5
            * m
    }

    fn body(&self, id: BodyId) -> Result<&Body> {
        self.bodies.get(id.0).ok_or(SphError::UnknownBody(id.0))
    }

    /// The motion of body `id` now.
    pub fn body_motion(&self, id: BodyId) -> Result<Motion> {
        Ok(self.body(id)?.motion)
    }

    /// Prescribes body `id`'s pose and velocities from now on (carried forward at constant
    /// velocity until the next call).
    pub fn set_body_motion(&mut self, id: BodyId, motion: Motion) -> Result<()> {
        let body = self.bodies.get_mut(id.0).ok_or(SphError::UnknownBody(id.0))?;
        body.motion = motion;
        self.work.fresh = None;
        Ok(())
    }

    /// Body `id`'s loads averaged over the load window (since [`Simulation::start_load_window`]);
    /// the last step's if no step was taken since. Zero for a body without loads.
    pub fn body_loads(&self, id: BodyId) -> Result<BodyLoads> {
        Ok(self.body(id)?.window_loads())
    }

    /// Body `id`'s loads of the last step.
    pub fn last_body_loads(&self, id: BodyId) -> Result<BodyLoads> {
        Ok(self.body(id)?.last)
    }

    /// Starts a new load window for every body.
    pub fn start_load_window(&mut self) {
        self.bodies.iter_mut().for_each(Body::clear_window);
    }

    /// The largest step the current state allows: `CFL · min(√(h/|a|max), h/(c0 + max_ij |h
    /// v_ij·r_ij/(r² + η²)|))`.
    pub fn stable_time_step(&mut self) -> Result<f64> {
        let e = self.ensure_fresh()?;
        let h = self.kernel.h;
        let force = (h / e.acc2.sqrt().max(1e-30)).sqrt();
        let acoustic = h / (self.params.sound_speed + e.visc);
        Ok(self.params.cfl * force.min(acoustic))
    }

    /// Advances by `dt`, which must not exceed [`Simulation::stable_time_step`].
    pub fn step(&mut self, dt: f64) -> Result<()> {
        let limit = self.stable_time_step()?;
        if !(dt > 0.0 && dt <= limit * (1.0 + 1e-9)) {
            return Err(SphError::TimeStepTooLarge { dt, limit });
        }
        let hdt = 0.5 * dt;
        let vmax = predict(self.dim, &self.fluid, &self.work.rhs, hdt, &mut self.work.half);
        let marker_speed = self.place_markers(hdt);
        let moved = hdt * vmax.max(marker_speed);
        let radius = self.kernel.support() * (1.0 + 1e-5) + moved;
        self.evaluate(Stage::Half, radius, true)?;
        let (lo, hi) = correct(self.dim, &mut self.fluid, &self.work.half, &self.work.rhs, &self.work.shift, dt);
        let rho0 = self.params.rest_density;
        if !(lo >= 0.5 * rho0 && hi <= 2.0 * rho0) {
            return Err(SphError::Unstable {
                time: self.time,
                reason: format!("fluid density left [0.5, 2] ρ0: min {lo}, max {hi}"),
            });
        }
        let loads = self.body_sums(hdt);
        for (b, l) in self.bodies.iter_mut().zip(loads) {
            if b.loads {
                b.record(l, dt);
            }
            b.motion.pose = b.motion.pose_after(dt);
        }
        self.time += dt;
        self.steps += 1;
        self.work.fresh = None;
        Ok(())
    }

    /// Advances by `duration` in steps at the stability limit, the last one shortened to land
    /// on the end; returns the number of steps.
    pub fn advance(&mut self, duration: f64) -> Result<usize> {
        let end = self.time + duration;
        let mut n = 0;
        while self.time < end - 1e-12 * end.abs().max(1.0) {
            let dt = self.stable_time_step()?.min(end - self.time);
            self.step(dt)?;
            n += 1;
        }
        Ok(n)
    }

    /// Mean number of neighbours (fluid and markers within 2h, self excluded) per fluid
    /// particle, at the current state.
    pub fn mean_neighbours(&mut self) -> Result<f64> {
        self.ensure_fresh()?;
        let grid = self.work.grid.as_ref().expect("sorted");
        let s2 = self.kernel.support().powi(2);
        let count = |set: &Packed, starts: &[u32], i: usize| -> usize {
            let p = &self.work.pf;
            let mut c = 0;
            let me: Vec<f32> = (0..self.dim).map(|k| p.x[k][i]).collect();
            let visit = |s: usize, e: usize, c: &mut usize| {
                for j in s..e {
                    let r2: f64 = (0..self.dim).map(|k| ((me[k] - set.x[k][j]) as f64).powi(2)).sum();
                    if r2 < s2 && r2 > 0.0 {
                        *c += 1;
                    }
                }
            };
            match self.dim {
                2 => grid.for_each_range(starts, [me[0], me[1]], self.kernel.support() as f32, &mut |s, e| {
                    visit(s, e, &mut c)
                }),
                _ => grid.for_each_range(starts, [me[0], me[1], me[2]], self.kernel.support() as f32, &mut |s, e| {
                    visit(s, e, &mut c)
                }),
            }
            c
        };
        let total: usize = (0..self.fluid.len())
            .into_par_iter()
            .map(|i| count(&self.work.pf, &self.work.fstarts, i) + count(&self.work.pm, &self.work.mstarts, i))
            .sum();
        Ok(total as f64 / self.fluid.len() as f64)
    }

    /// Sort and evaluation at the current state, unless done already.
    fn ensure_fresh(&mut self) -> Result<Extremes> {
        if let Some(e) = self.work.fresh {
            return Ok(e);
        }
        self.place_markers(0.0);
        self.sort()?;
        let e = self.evaluate(Stage::Now, self.kernel.support() * (1.0 + 1e-5), false)?;
        self.work.fresh = Some(e);
        Ok(e)
    }

    /// Places every marker at `tau` after the current time; returns the largest marker speed.
    fn place_markers(&mut self, tau: f64) -> f64 {
        let poses: Vec<_> = self.bodies.iter().map(|b| (b.motion.pose_after(tau), b.motion)).collect();
        let m = &mut self.markers;
        let mut vmax2: f64 = 0.0;
        for i in 0..m.body.len() {
            let (pose, motion) = &poses[m.body[i] as usize];
            let local = Point3::new(m.local[0][i], m.local[1][i], m.local[2][i]);
            let world = pose * local;
            let r = world - Point3::from(pose.translation.vector);
            let (v, a) = motion.point_kinematics(&r);
            vmax2 = vmax2.max(v.norm_squared());
            for (k, &ax) in self.axes.iter().enumerate() {
                m.x[k][i] = world[ax];
                m.vwall[k][i] = v[ax];
                m.acc[k][i] = a[ax];
            }
        }
        vmax2.sqrt()
    }

    /// Drops fluid outside the domain, sizes the grid and sorts both sets by cell.
    fn sort(&mut self) -> Result<()> {
        if let Some((lo, hi)) = self.params.domain {
            let keep: Vec<bool> = (0..self.fluid.len())
                .map(|i| {
                    let p = self.world(&self.fluid.x, i);
                    self.axes.iter().all(|&a| p[a] >= lo[a] && p[a] <= hi[a])
                })
                .collect();
            let removed = keep.iter().filter(|k| !**k).count();
            if removed > 0 {
                self.fluid.retain(&keep);
                self.lost += removed;
                if self.fluid.len() == 0 {
                    return Err(SphError::NoFluid);
                }
            }
        }
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for k in 0..self.dim {
            let both = self.fluid.x[k].iter().chain(self.markers.x[k].iter());
            let (a, b) = both.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
            if !(a.is_finite() && b.is_finite()) {
                return Err(SphError::Unstable { time: self.time, reason: "a position is not finite".into() });
            }
            lo[k] = a;
            hi[k] = b;
        }
        let n = self.fluid.len() + self.markers.len();
        let limit = 64 * n + (1 << 20);
        let support = self.kernel.support();
        let coarse = support / self.params.cells_per_support as f64;
        let cell = [support / self.params.row_cells as f64, coarse, coarse];
        let grid = CellGrid::covering(self.dim, lo, hi, cell, limit)?;
        let w = &mut self.work;
        if self.dim == 2 {
            grid.bin::<2>(&self.fluid.x, &mut w.fstarts, &mut w.order);
        } else {
            grid.bin::<3>(&self.fluid.x, &mut w.fstarts, &mut w.order);
        }
        self.fluid.permute(&w.order, &mut w.tmp);
        if self.dim == 2 {
            grid.bin::<2>(&self.markers.x, &mut w.mstarts, &mut w.order);
        } else {
            grid.bin::<3>(&self.markers.x, &mut w.mstarts, &mut w.order);
        }
        self.markers.permute(&w.order, &mut w.tmp);
        w.wanted.clear();
        w.wanted.extend(self.markers.body.iter().map(|&b| self.bodies[b as usize].loads));
        w.span = std::array::from_fn(|k| hi[k] - lo[k]);
        w.grid = Some(grid);
        Ok(())
    }

    fn evaluate(&mut self, stage: Stage, radius: f64, loads: bool) -> Result<Extremes> {
        let k = self.kernel;
        match (self.dim, k.kind) {
            (2, KernelKind::WendlandC2) => Ok(self.evaluate_with::<2, _>(Wendland::new(&k), stage, radius, loads)),
            (2, KernelKind::CubicSpline) => Ok(self.evaluate_with::<2, _>(Cubic::new(&k), stage, radius, loads)),
            (_, KernelKind::WendlandC2) => Ok(self.evaluate_with::<3, _>(Wendland::new(&k), stage, radius, loads)),
            (_, KernelKind::CubicSpline) => Ok(self.evaluate_with::<3, _>(Cubic::new(&k), stage, radius, loads)),
        }
    }

    fn evaluate_with<const D: usize, K: PairKernel>(
        &mut self,
        kernel: K,
        stage: Stage,
        radius: f64,
        loads: bool,
    ) -> Extremes {
        let w = &mut self.work;
        let grid = w.grid.as_ref().expect("sorted before evaluation");
        let rho0 = self.params.rest_density;
        let fluid = if stage == Stage::Now { &self.fluid } else { &w.half };
        let n = fluid.len();
        w.pf.reset(n, D, rho0, false);
        w.pf.fill_kinematics(D, &fluid.x, &fluid.v, &grid.origin);
        let fast = self.fast;
        w.pf.fill_density(&fluid.rho, |r| fast.pressure(r));
        let nm = self.markers.len();
        w.pm.reset(nm, D, rho0, true);
        w.pm.fill_kinematics(D, &self.markers.x, &self.markers.vwall, &grid.origin);
        let g: [f64; 3] = std::array::from_fn(|k| self.consts.g[k] as f64);
        w.occupancy.build(D, &w.pf.x, n, w.span.map(|s| s + radius), radius);
        w.marker_occupancy.build(D, &w.pm.x, nm, w.span.map(|s| s + radius), radius);
        let radius = radius as f32;
        adami_pass::<D, K>(
            &kernel,
            self.consts.inv_h,
            grid,
            radius,
            (&w.pf, &w.fstarts),
            &mut w.pm,
            &self.markers.acc,
            g,
            self.params.boundary,
            &self.eos,
            &w.occupancy,
            &mut w.adami,
        );
        w.rhs.resize(n, [0.0; 4]);
        w.shift.resize(n, [0.0; 3]);
        let pass = Pass {
            c: &self.consts,
            kernel: &kernel,
            grid,
            radius,
            fluid: &w.pf,
            fstarts: &w.fstarts,
            markers: &w.pm,
            mstarts: &w.mstarts,
            marker_occupancy: &w.marker_occupancy,
        };
        let ext = if self.params.shifting.is_some() && stage == Stage::Half {
            fluid_pass::<D, K, true>(&pass, &mut w.scatter, &mut w.rhs, &mut w.shift)
        } else {
            fluid_pass::<D, K, false>(&pass, &mut w.scatter, &mut w.rhs, &mut w.shift)
        };
        if loads {
            w.marker_acc.resize(nm, [0.0; 3]);
            marker_forces::<D, K>(&pass, &w.wanted, &mut w.marker_acc);
        }
        ext
    }

    /// Per-body force and torque (about the reference point at `tau`) from the marker
    /// accelerations of the last evaluation, summed in f64 in marker order.
    fn body_sums(&self, tau: f64) -> Vec<BodyLoads> {
        let mut out = vec![BodyLoads::default(); self.bodies.len()];
        let centres: Vec<Vector3<f64>> =
            self.bodies.iter().map(|b| b.motion.pose_after(tau).translation.vector).collect();
        let m = self.params.particle_mass();
        for i in 0..self.markers.len() {
            if !self.work.wanted[i] {
                continue;
            }
            let b = self.markers.body[i] as usize;
            let mut f = Vector3::zeros();
            let mut r = Vector3::zeros();
            for (k, &ax) in self.axes.iter().enumerate() {
                f[ax] = m * self.work.marker_acc[i][k];
                r[ax] = self.markers.x[k][i] - centres[b][ax];
            }
            out[b].force += f;
            out[b].torque += r.cross(&f);
        }
        out
    }

    /// The markers' density and p/ρ of the last boundary pass, for [`crate::MarkerSnapshot`].
    pub(crate) fn marker_pressure_state(&self) -> (&[f32], &[f32]) {
        (&self.work.pm.rho, &self.work.pm.por)
    }

    pub(crate) fn invalidate(&mut self) {
        self.work.fresh = None;
    }
}
