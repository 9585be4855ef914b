//! The right-hand side of the fluid equations: momentum (pressure, viscosity, gravity) and
//! continuity (with δ-SPH diffusion). Fluid–fluid pairs are evaluated once and applied to both
//! particles ([`fluid_pass`]); fluid–marker pairs are gathered by the fluid particle.
//!
//! For particle i and neighbour j (r_ij = x_i − x_j, v_ij = v_i − v_j, ∇_i W_ij = F r_ij):
//!
//! - pressure: `a_i −= m (p_i + p_j)/(ρ_i ρ_j) ∇_i W_ij`;
//! - artificial viscosity, approaching pairs only: `a_i −= m Π_ij ∇_i W_ij`,
//!   `Π_ij = −α c0 μ_ij / ρ̄_ij`, `μ_ij = h v_ij·r_ij / (r² + η²)`, η² = 0.01 h²;
//! - laminar viscosity: `a_i += m 4ν (r_ij·∇_i W_ij) v_ij / ((ρ_i + ρ_j)(r² + η²))`;
//! - continuity: `Dρ_i += m (ρ_i/ρ_j) v_ij·∇_i W_ij`;
//! - δ-SPH: `Dρ_i += 2δ h c0 (ρ_j − ρ_i − Δρᴴ_ji) (r_ji·∇_i W_ij)/(r² + η²) m/ρ_j`, where the
//!   hydrostatic difference `Δρᴴ_ji = ρ0 g·(x_j − x_i)/c0²` is the linearised Tait law (its
//!   error is of order γ g 2h / c0², below 1e-4 in any practical setting).
//!
//! Markers (walls and bodies) enter as neighbours with the pressure and density the boundary
//! condition gave them. The pair terms are antisymmetric, so the force that the fluid exerts on
//! a marker, computed by [`marker_forces`] from the same formula, is exactly the opposite of
//! what the marker exerts on the fluid.
//!
//! Each pair term is evaluated in f32 in groups of [`LANES`] candidates, branch-free so that the
//! compiler vectorises the group; each row of candidates is then added into f64 sums on the
//! particle's own side, and the other side's terms into f32 accumulators.

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use crate::kernel::PairKernel;
use crate::neighbours::{CellGrid, Occupancy, RangeSink};
use crate::particles::{group, live, Packed, LANES};
use rayon::prelude::*;

/// Particles per parallel task.
pub(crate) const CHUNK: usize = 256;

/// The constants of the pair terms, in f32.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairConsts {
    /// Particle mass.
    pub m: f32,
    pub h: f32,
    pub inv_h: f32,
    pub eta2: f32,
    /// α c0 (artificial viscosity) or 0.
    pub alpha_c0: f32,
    /// α c0 in fluid–marker pairs: `alpha_c0`, or 0 without artificial viscosity at walls.
    pub alpha_c0_markers: f32,
    /// 4ν (laminar viscosity) or 0.
    pub lam: f32,
    /// 2 δ h c0 or 0.
    pub diff: f32,
    /// ρ0 / c0² when the hydrostatic correction is on, else 0.
    pub k_h: f32,
    /// Gravity on the internal axes.
    pub g: [f32; 3],
    /// XSPH ε.
    pub shift: f32,
}

/// One particle's own values, as the pair loops read them.
#[derive(Clone, Copy)]
pub(crate) struct Me<const D: usize> {
    pub x: [f32; D],
    pub v: [f32; D],
    pub rho: f32,
    pub inv_rho: f32,
    pub por: f32,
}

impl<const D: usize> Me<D> {
    /// Entry `i` of a packed set; `viscous` picks the markers' viscous velocity.
    #[inline(always)]
    pub fn of(p: &Packed, i: usize, viscous: bool) -> Self {
        let v = if viscous { &p.vv } else { &p.v };
        Me {
            x: std::array::from_fn(|k| p.x[k][i]),
            v: std::array::from_fn(|k| v[k][i]),
            rho: p.rho[i],
            inv_rho: p.inv_rho[i],
            por: p.por[i],
        }
    }
}

/// What the fluid pass writes per particle: acceleration (internal axes) and Dρ/dt in
/// `[a0, a1, a2, dρ]`, and the XSPH shift velocity.
pub(crate) type Rhs = [f64; 4];

/// Reductions of a pass: the largest `|h v_ij·r_ij/(r² + η²)|` and `|a_i|²`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extremes {
    pub visc: f64,
    pub acc2: f64,
}

impl Extremes {
    fn max(self, o: Self) -> Self {
        Extremes { visc: self.visc.max(o.visc), acc2: self.acc2.max(o.acc2) }
    }
}

/// Sums of one row of candidates, lanes still apart.
struct Lanes<const D: usize> {
    a: [[f32; LANES]; D],
    d: [f32; LANES],
    s: [[f32; LANES]; D],
    visc: [f32; LANES],
}

impl<const D: usize> Lanes<D> {
    fn new() -> Self {
        Lanes { a: [[0.0; LANES]; D], d: [0.0; LANES], s: [[0.0; LANES]; D], visc: [0.0; LANES] }
    }
}

/// Pair terms of fluid particle `me` with the marker candidates `s..e` of `src`, added to
/// `out` (fluid side only): continuity sees the wall velocity, the viscous terms the marker's
/// viscous velocity (wall or mirrored).
#[inline(always)]
fn marker_neighbours<const D: usize, K: PairKernel>(
    c: &PairConsts,
    kernel: &K,
    me: &Me<D>,
    src: &Packed,
    (s, e): (usize, usize),
    out: &mut ([f64; D], f64, [f64; D], f32),
) {
    let mut acc = Lanes::<D>::new();
    let mut j = s;
    while j < e {
        let mask = live(e - j);
        let xs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.x[k], j));
        let vs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.v[k], j));
        let vvs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.vv[k], j));
        let rho = group(&src.rho, j);
        let irho = group(&src.inv_rho, j);
        let por = group(&src.por, j);
        for l in 0..LANES {
            let valid = mask[l];
            let mut dx = [0.0f32; D];
            let mut r2 = 0.0f32;
            for k in 0..D {
                dx[k] = me.x[k] - xs[k][l];
                r2 += dx[k] * dx[k];
            }
            let q = r2.sqrt() * c.inv_h;
            let inside = if q < 2.0 { valid } else { 0.0 };
            let f = kernel.grad(q) * valid;
            let mut dv = [0.0f32; D];
            let mut vr = 0.0f32;
            let mut vr_cont = 0.0f32;
            for k in 0..D {
                dv[k] = me.v[k] - vvs[k][l];
                vr += dv[k] * dx[k];
                vr_cont += (me.v[k] - vs[k][l]) * dx[k];
            }
            // One division for 1/(r² + η²) and 1/(ρ_i + ρ_j).
            let (den, rs) = (r2 + c.eta2, me.rho + rho[l]);
            let inv = 1.0 / (den * rs);
            let (inv_den, sum_rho_inv) = (inv * rs, inv * den);
            let mu = c.h * vr * inv_den;
            let pi = -2.0 * c.alpha_c0_markers * mu.min(0.0) * sum_rho_inv;
            let pres = me.por * irho[l] + por[l] * me.inv_rho;
            let radial = -c.m * (pres + pi) * f;
            let lam = c.m * c.lam * f * r2 * inv_den * sum_rho_inv;
            for k in 0..D {
                acc.a[k][l] += radial * dx[k] + lam * dv[k];
            }
            let mut gdx = 0.0f32;
            for k in 0..D {
                gdx += c.g[k] * dx[k];
            }
            let cont = c.m * me.rho * irho[l] * f * vr_cont;
            let diff = c.diff * ((rho[l] - me.rho) + c.k_h * gdx) * (-f * r2) * inv_den * c.m * irho[l];
            acc.d[l] += cont + diff;
            acc.visc[l] = acc.visc[l].max((mu * inside).abs());
        }
        j += LANES;
    }
    for k in 0..D {
        out.0[k] += acc.a[k].iter().sum::<f32>() as f64;
    }
    out.1 += acc.d.iter().sum::<f32>() as f64;
    out.3 = acc.visc.iter().fold(out.3, |m, &x| m.max(x));
}

/// Whether the pair loops may use 256-bit vectors (checked once; the result never changes).
pub(crate) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static WIDE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *WIDE.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The inputs of a pass, bundled so the vector-width variants share one signature.
#[derive(Clone, Copy)]
pub(crate) struct Pass<'a, K> {
    pub c: &'a PairConsts,
    pub kernel: &'a K,
    pub grid: &'a CellGrid,
    pub radius: f32,
    pub fluid: &'a Packed,
    pub fstarts: &'a [u32],
    pub markers: &'a Packed,
    pub mstarts: &'a [u32],
    /// Where markers are (a fluid particle far from all of them skips their query).
    pub marker_occupancy: &'a Occupancy,
}

/// Accumulators that particles write into for their neighbours: the j side of every pair,
/// f32, one entry per fluid particle plus padding.
#[derive(Debug, Default)]
pub(crate) struct Scatter {
    a: [Vec<f32>; 3],
    d: Vec<f32>,
    s: [Vec<f32>; 3],
}

impl Scatter {
    fn reset(&mut self, n: usize) {
        for v in self.a.iter_mut().chain(self.s.iter_mut()).chain(std::iter::once(&mut self.d)) {
            v.clear();
            v.resize(n + LANES, 0.0);
        }
    }
}

/// Raw access to the outputs of the fluid pass from concurrent slab tasks.
///
/// Safety argument: a task of slab `s` writes the own-side results of the particles of slab
/// `s` and the j side of pairs whose other particle lies in slab `s` or `s + 1` (a slab is at
/// least one search radius thick, and j comes after i in cell order). Tasks run in two phases,
/// even slabs then odd ones, so no two concurrent tasks touch the same entry.
struct Shared<const D: usize> {
    a: [*mut f32; 3],
    d: *mut f32,
    s: [*mut f32; 3],
    rhs: *mut Rhs,
    shift: *mut [f64; 3],
}

// SAFETY: see the type's documentation; the pointers outlive the pass.
unsafe impl<const D: usize> Sync for Shared<D> {}
// SAFETY: as above.
unsafe impl<const D: usize> Send for Shared<D> {}

/// Adds the j side of one group (its first `m` lanes) into the scatter arrays, one array at a
/// time so that a whole group (`m == LANES`, a constant after inlining) is a vector add.
///
/// # Safety
/// Entries `j..j + m` belong to the calling task (the slab discipline of [`Shared`]).
#[inline(always)]
unsafe fn scatter_add<const D: usize>(
    out: &Shared<D>,
    j: usize,
    ja: &[[f32; LANES]; D],
    jd: &[f32; LANES],
    js: &[[f32; LANES]; D],
    m: usize,
    shift: bool,
) {
    for k in 0..D {
        let a = out.a[k].add(j);
        for l in 0..m {
            *a.add(l) += ja[k][l];
        }
        if shift {
            let sk = out.s[k].add(j);
            for l in 0..m {
                *sk.add(l) += js[k][l];
            }
        }
    }
    let d = out.d.add(j);
    for l in 0..m {
        *d.add(l) += jd[l];
    }
}

/// The pair terms of `me` (particle `i`) with fluid candidates `s..e` (all after `i`), both
/// sides: i's side into `own`, j's side into the scatter arrays.
///
/// # Safety
/// The caller holds the slab discipline of [`Shared`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn pair_row<const D: usize, K: PairKernel, const SHIFT: bool>(
    c: &PairConsts,
    kernel: &K,
    me: &Me<D>,
    src: &Packed,
    (s, e): (usize, usize),
    own: &mut ([f64; D], f64, [f64; D], f32),
    out: &Shared<D>,
) {
    let mut acc = Lanes::<D>::new();
    let mut j = s;
    while j < e {
        let mask = live(e - j);
        let xs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.x[k], j));
        let vs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.v[k], j));
        let rho = group(&src.rho, j);
        let irho = group(&src.inv_rho, j);
        let por = group(&src.por, j);
        let mut ja = [[0.0f32; LANES]; D];
        let mut jd = [0.0f32; LANES];
        let mut js = [[0.0f32; LANES]; D];
        for l in 0..LANES {
            let valid = mask[l];
            let mut dx = [0.0f32; D];
            let mut r2 = 0.0f32;
            for k in 0..D {
                dx[k] = me.x[k] - xs[k][l];
                r2 += dx[k] * dx[k];
            }
            let q = r2.sqrt() * c.inv_h;
            let inside = if q < 2.0 { valid } else { 0.0 };
            let (w, f) = if SHIFT { kernel.eval(q) } else { (0.0, kernel.grad(q)) };
            let f = f * valid;
            let mut dv = [0.0f32; D];
            let mut vr = 0.0f32;
            for k in 0..D {
                dv[k] = me.v[k] - vs[k][l];
                vr += dv[k] * dx[k];
            }
            // One division for 1/(r² + η²) and 1/(ρ_i + ρ_j).
            let (den, rs) = (r2 + c.eta2, me.rho + rho[l]);
            let inv = 1.0 / (den * rs);
            let (inv_den, sum_rho_inv) = (inv * rs, inv * den);
            let mu = c.h * vr * inv_den;
            let pi = -2.0 * c.alpha_c0 * mu.min(0.0) * sum_rho_inv;
            let pres = me.por * irho[l] + por[l] * me.inv_rho;
            let radial = -c.m * (pres + pi) * f;
            let lam = c.m * c.lam * f * r2 * inv_den * sum_rho_inv;
            for k in 0..D {
                let t = radial * dx[k] + lam * dv[k];
                acc.a[k][l] += t;
                ja[k][l] = -t;
            }
            let mut gdx = 0.0f32;
            for k in 0..D {
                gdx += c.g[k] * dx[k];
            }
            let fv = c.m * f * vr;
            let spread = c.diff * ((rho[l] - me.rho) + c.k_h * gdx) * (-f * r2) * inv_den * c.m;
            acc.d[l] += fv * me.rho * irho[l] + spread * irho[l];
            jd[l] = fv * rho[l] * me.inv_rho - spread * me.inv_rho;
            acc.visc[l] = acc.visc[l].max((mu * inside).abs());
            if SHIFT {
                let ws = 2.0 * c.m * w * valid * sum_rho_inv;
                for k in 0..D {
                    acc.s[k][l] -= ws * dv[k];
                    js[k][l] = ws * dv[k];
                }
            }
        }
        // SAFETY: entries j..j + m belong to this task's slab or the next (see `Shared`).
        // A whole group is written as one vector per array; a partial one lane by lane.
        if e - j >= LANES {
            scatter_add(out, j, &ja, &jd, &js, LANES, SHIFT);
        } else {
            scatter_add(out, j, &ja, &jd, &js, e - j, SHIFT);
        }
        j += LANES;
    }
    for k in 0..D {
        own.0[k] += acc.a[k].iter().sum::<f32>() as f64;
        if SHIFT {
            own.2[k] += acc.s[k].iter().sum::<f32>() as f64;
        }
    }
    own.1 += acc.d.iter().sum::<f32>() as f64;
    own.3 = acc.visc.iter().fold(own.3, |m, &x| m.max(x));
}

/// The fluid–fluid pair rows of one particle (see [`RangeSink`] for why not a closure).
struct FluidSink<'a, 'b, const D: usize, K, const SHIFT: bool> {
    p: &'a Pass<'b, K>,
    me: &'a Me<D>,
    own: ([f64; D], f64, [f64; D], f32),
    out: &'a Shared<D>,
}

impl<const D: usize, K: PairKernel, const SHIFT: bool> RangeSink for FluidSink<'_, '_, D, K, SHIFT> {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        // SAFETY: the slab discipline of `Shared` is held by the caller of `slab`.
        unsafe {
            pair_row::<D, K, SHIFT>(self.p.c, self.p.kernel, self.me, self.p.fluid, (s, e), &mut self.own, self.out)
        }
    }
}

/// The fluid–marker rows of one fluid particle (own side only).
struct MarkerSink<'a, 'b, const D: usize, K> {
    p: &'a Pass<'b, K>,
    me: &'a Me<D>,
    own: ([f64; D], f64, [f64; D], f32),
}

impl<const D: usize, K: PairKernel> RangeSink for MarkerSink<'_, '_, D, K> {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        marker_neighbours::<D, K>(self.p.c, self.p.kernel, self.me, self.p.markers, (s, e), &mut self.own)
    }
}

/// One slab: every particle in `first..last` with its later fluid neighbours (both sides) and
/// its markers (own side); returns the largest viscous term.
///
/// # Safety
/// The caller holds the slab discipline of [`Shared`].
#[inline(always)]
unsafe fn slab<const D: usize, K: PairKernel, const SHIFT: bool>(
    p: &Pass<K>,
    (first, last): (usize, usize),
    out: &Shared<D>,
) -> f32 {
    let mut visc = 0.0f32;
    for i in first..last {
        let me = Me::<D>::of(p.fluid, i, false);
        let mut pairs = FluidSink::<D, K, SHIFT> { p, me: &me, own: ([0.0f64; D], 0.0f64, [0.0f64; D], 0.0f32), out };
        p.grid.for_each_range_after(p.fstarts, me.x, p.radius, i + 1, &mut pairs);
        let mut walls = MarkerSink::<D, K> { p, me: &me, own: pairs.own };
        if p.marker_occupancy.near(me.x) {
            p.grid.for_each_range(p.mstarts, me.x, p.radius, &mut walls);
        }
        let own = walls.own;
        let r = &mut *out.rhs.add(i);
        let sh = &mut *out.shift.add(i);
        r[..D].copy_from_slice(&own.0);
        r[3] = own.1;
        sh[..D].copy_from_slice(&own.2);
        visc = visc.max(own.3);
    }
    visc
}

/// [`slab`] compiled for 256-bit vectors.
///
/// # Safety
/// As [`slab`], and only where [`wide_vectors`] is true.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn slab_wide<const D: usize, K: PairKernel, const SHIFT: bool>(
    p: &Pass<K>,
    range: (usize, usize),
    out: &Shared<D>,
) -> f32 {
    slab::<D, K, SHIFT>(p, range, out)
}

/// The fluid pass: fills `rhs` (and `shift` when `SHIFT`) for every fluid particle; returns
/// the time-step extremes.
///
/// Each fluid pair is evaluated once, by the particle that comes first in cell order, which
/// adds the result to itself and subtracts it from the other. The particles are cut into
/// slabs along the last axis, each at least one search radius thick; the even slabs run in
/// parallel, then the odd ones, so writes never collide, and every particle receives its
/// terms in the same order whatever the number of threads.
pub(crate) fn fluid_pass<const D: usize, K: PairKernel, const SHIFT: bool>(
    p: &Pass<K>,
    scatter: &mut Scatter,
    rhs: &mut [Rhs],
    shift: &mut [[f64; 3]],
) -> Extremes {
    let n = rhs.len();
    scatter.reset(n);
    // Slab boundaries: whole layers of cells along the last axis.
    let g = p.grid;
    let layer_cells: usize = (0..D - 1).map(|k| g.n[k]).product();
    let thick = ((p.radius as f64 / g.cell[D - 1]).ceil() as usize).max(1);
    let layers = g.n[D - 1];
    let bounds: Vec<usize> =
        (0..layers.div_ceil(thick) + 1).map(|s| p.fstarts[(s * thick).min(layers) * layer_cells] as usize).collect();
    let slabs: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
    let out = Shared::<D> {
        a: std::array::from_fn(|k| scatter.a[k].as_mut_ptr()),
        d: scatter.d.as_mut_ptr(),
        s: std::array::from_fn(|k| scatter.s[k].as_mut_ptr()),
        rhs: rhs.as_mut_ptr(),
        shift: shift.as_mut_ptr(),
    };
    let wide = wide_vectors();
    let mut visc = 0.0f32;
    for parity in 0..2 {
        let v = slabs
            .par_iter()
            .skip(parity)
            .step_by(2)
            .map(|&range| {
                #[cfg(target_arch = "x86_64")]
                if wide {
                    // SAFETY: AVX2 is present; the slab discipline holds (this phase runs
                    // slabs of one parity only).
                    return unsafe { slab_wide::<D, K, SHIFT>(p, range, &out) };
                }
                let _ = wide;
                // SAFETY: the slab discipline holds (one parity per phase).
                unsafe { slab::<D, K, SHIFT>(p, range, &out) }
            })
            .reduce(|| 0.0, f32::max);
        visc = visc.max(v);
    }
    let g = p.c.g;
    let eps = p.c.shift as f64;
    let sc: &Scatter = scatter;
    rhs.par_chunks_mut(CHUNK)
        .zip(shift.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(ci, (rhs, shift))| {
            let mut acc2: f64 = 0.0;
            for (o, (r, sh)) in rhs.iter_mut().zip(shift.iter_mut()).enumerate() {
                let i = ci * CHUNK + o;
                let mut a2 = 0.0;
                for k in 0..D {
                    r[k] += sc.a[k][i] as f64 + g[k] as f64;
                    a2 += r[k] * r[k];
                    sh[k] = if SHIFT { eps * (sh[k] + sc.s[k][i] as f64) } else { 0.0 };
                }
                r[3] += sc.d[i] as f64;
                acc2 = acc2.max(a2);
            }
            Extremes { visc: 0.0, acc2 }
        })
        .reduce(Extremes::default, Extremes::max)
        .max(Extremes { visc: visc as f64, acc2: 0.0 })
}

/// Momentum terms on marker `me` (its viscous velocity in `me.v`) from fluid candidates.
#[inline(always)]
fn marker_row<const D: usize, K: PairKernel>(
    c: &PairConsts,
    kernel: &K,
    me: &Me<D>,
    src: &Packed,
    (s, e): (usize, usize),
    out: &mut [f64; D],
) {
    let mut acc = [[0.0f32; LANES]; D];
    let mut j = s;
    while j < e {
        let mask = live(e - j);
        let xs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.x[k], j));
        let vs: [&[f32; LANES]; D] = std::array::from_fn(|k| group(&src.v[k], j));
        let rho = group(&src.rho, j);
        let irho = group(&src.inv_rho, j);
        let por = group(&src.por, j);
        for l in 0..LANES {
            let valid = mask[l];
            let mut dx = [0.0f32; D];
            let mut r2 = 0.0f32;
            for k in 0..D {
                dx[k] = me.x[k] - xs[k][l];
                r2 += dx[k] * dx[k];
            }
            let f = kernel.grad(r2.sqrt() * c.inv_h) * valid;
            let mut dv = [0.0f32; D];
            let mut vr = 0.0f32;
            for k in 0..D {
                dv[k] = me.v[k] - vs[k][l];
                vr += dv[k] * dx[k];
            }
            // One division for 1/(r² + η²) and 1/(ρ_i + ρ_j).
            let (den, rs) = (r2 + c.eta2, me.rho + rho[l]);
            let inv = 1.0 / (den * rs);
            let (inv_den, sum_rho_inv) = (inv * rs, inv * den);
            let pi = -2.0 * c.alpha_c0_markers * (c.h * vr * inv_den).min(0.0) * sum_rho_inv;
            let pres = me.por * irho[l] + por[l] * me.inv_rho;
            let radial = -c.m * (pres + pi) * f;
            let lam = c.m * c.lam * f * r2 * inv_den * sum_rho_inv;
            for k in 0..D {
                acc[k][l] += radial * dx[k] + lam * dv[k];
            }
        }
        j += LANES;
    }
    for k in 0..D {
        out[k] += acc[k].iter().sum::<f32>() as f64;
    }
}

/// The fluid rows of one marker's reaction.
struct ReactionSink<'a, 'b, const D: usize, K> {
    p: &'a Pass<'b, K>,
    me: &'a Me<D>,
    sum: [f64; D],
}

impl<const D: usize, K: PairKernel> RangeSink for ReactionSink<'_, '_, D, K> {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        marker_row::<D, K>(self.p.c, self.p.kernel, self.me, self.p.fluid, (s, e), &mut self.sum)
    }
}

/// Markers `first..` (one chunk): the fluid's acceleration on those flagged in `wanted`.
#[inline(always)]
fn marker_chunk<const D: usize, K: PairKernel>(p: &Pass<K>, wanted: &[bool], first: usize, out: &mut [[f64; 3]]) {
    for (o, a) in out.iter_mut().enumerate() {
        let i = first + o;
        *a = [0.0; 3];
        if !wanted[i] {
            continue;
        }
        let me = Me::<D>::of(p.markers, i, true);
        let mut sink = ReactionSink::<D, K> { p, me: &me, sum: [0.0f64; D] };
        p.grid.for_each_range(p.fstarts, me.x, p.radius, &mut sink);
        a[..D].copy_from_slice(&sink.sum);
    }
}

/// [`marker_chunk`] compiled for 256-bit vectors.
///
/// # Safety
/// Only call where [`wide_vectors`] is true.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn marker_chunk_wide<const D: usize, K: PairKernel>(
    p: &Pass<K>,
    wanted: &[bool],
    first: usize,
    out: &mut [[f64; 3]],
) {
    marker_chunk::<D, K>(p, wanted, first, out)
}

/// The acceleration the fluid gives each marker whose flag in `wanted` is set (others get
/// zero): the reaction of the marker terms in the fluid pass.
pub(crate) fn marker_forces<const D: usize, K: PairKernel>(p: &Pass<K>, wanted: &[bool], out: &mut [[f64; 3]]) {
    let wide = wide_vectors();
    out.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, chunk)| {
        #[cfg(target_arch = "x86_64")]
        if wide {
            // SAFETY: the CPU has AVX2 (checked by `wide_vectors`).
            unsafe { marker_chunk_wide::<D, K>(p, wanted, ci * CHUNK, chunk) };
            return;
        }
        let _ = wide;
        marker_chunk::<D, K>(p, wanted, ci * CHUNK, chunk)
    });
}
