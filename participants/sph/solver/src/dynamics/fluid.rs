//! The fluid pass: every fluid particle's pair terms with its later fluid neighbours (both
//! sides at once) and with its markers (its own side), then gravity and the scattered j sides.

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use super::lanes::{gravity_along, Group, Lanes, Momentum, Other};
use super::slabs::{Scatter, Shared, SlabTask, Slabs, Writer};
use super::{wide_vectors, Extremes, Me, PairConsts, Pass, Rhs, CHUNK};
use crate::kernel::PairKernel;
use crate::neighbours::RangeSink;
use crate::particles::{Packed, LANES};
use rayon::prelude::*;

/// A particle's own sums: acceleration, Dρ, XSPH shift, largest viscous term.
type Own<const D: usize> = ([f64; D], f64, [f64; D], f32);

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
    out: &mut Own<D>,
) {
    let mut acc = Lanes::<D>::new();
    let mut j = s;
    while j < e {
        let g = Group::<D>::at(src, j, e);
        let vvs = g.viscous();
        let irho = g.inv_rho();
        for l in 0..LANES {
            let valid = g.mask[l];
            let (dx, r2) = g.offset(&me.x, l);
            let q = r2.sqrt() * c.inv_h;
            let inside = if q < 2.0 { valid } else { 0.0 };
            let f = kernel.grad(q) * valid;
            let mut vr_cont = 0.0f32;
            for k in 0..D {
                vr_cont += (me.v[k] - g.v[k][l]) * dx[k];
            }
            let t = Momentum::of(c, c.alpha_c0_markers, me, &Other::lane(&g, &vvs, irho, l), (&dx, r2), f);
            for k in 0..D {
                acc.a[k][l] += t.term(&dx, k);
            }
            let gdx = gravity_along(c, &dx);
            let cont = c.m * me.rho * irho[l] * f * vr_cont;
            let diff = c.diff * ((g.rho[l] - me.rho) + c.k_h * gdx) * (-f * r2) * t.inv_den * c.m * irho[l];
            acc.d[l] += cont + diff;
            acc.visc[l] = acc.visc[l].max((t.mu * inside).abs());
        }
        j += LANES;
    }
    acc.into_own(out, false);
}

/// The pair terms of `me` (particle `i`) with fluid candidates `s..e` (all after `i`), both
/// sides: i's side into `own`, j's side into the scatter arrays.
///
/// # Safety
/// `out` is the writer of the task that holds `i` (the slab discipline of [`Shared`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn pair_row<const D: usize, K: PairKernel, const SHIFT: bool>(
    c: &PairConsts,
    kernel: &K,
    me: &Me<D>,
    src: &Packed,
    (s, e): (usize, usize),
    own: &mut Own<D>,
    out: &Writer<D>,
) {
    let mut acc = Lanes::<D>::new();
    let mut j = s;
    while j < e {
        let g = Group::<D>::at(src, j, e);
        let irho = g.inv_rho();
        let mut ja = [[0.0f32; LANES]; D];
        let mut jd = [0.0f32; LANES];
        let mut js = [[0.0f32; LANES]; D];
        for l in 0..LANES {
            let valid = g.mask[l];
            let (dx, r2) = g.offset(&me.x, l);
            let q = r2.sqrt() * c.inv_h;
            let inside = if q < 2.0 { valid } else { 0.0 };
            let (w, f) = if SHIFT { kernel.eval(q) } else { (0.0, kernel.grad(q)) };
            let f = f * valid;
            let t = Momentum::of(c, c.alpha_c0, me, &Other::lane(&g, &g.v, irho, l), (&dx, r2), f);
            for k in 0..D {
                let a = t.term(&dx, k);
                acc.a[k][l] += a;
                ja[k][l] = -a;
            }
            let gdx = gravity_along(c, &dx);
            let fv = c.m * f * t.vr;
            let spread = c.diff * ((g.rho[l] - me.rho) + c.k_h * gdx) * (-f * r2) * t.inv_den * c.m;
            acc.d[l] += fv * me.rho * irho[l] + spread * irho[l];
            jd[l] = fv * g.rho[l] * me.inv_rho - spread * me.inv_rho;
            acc.visc[l] = acc.visc[l].max((t.mu * inside).abs());
            if SHIFT {
                let ws = 2.0 * c.m * w * valid * t.sum_rho_inv;
                for k in 0..D {
                    acc.s[k][l] -= ws * t.dv[k];
                    js[k][l] = ws * t.dv[k];
                }
            }
        }
        // SAFETY: j comes after i, within the search radius, so entries j..j + m lie in this
        // task's slab or the next (the caller's contract). A whole group is written as one
        // vector per array; a partial one lane by lane.
        unsafe {
            if e - j >= LANES {
                out.scatter_add(j, &ja, &jd, &js, LANES, SHIFT);
            } else {
                out.scatter_add(j, &ja, &jd, &js, e - j, SHIFT);
            }
        }
        j += LANES;
    }
    acc.into_own(own, SHIFT);
}

/// The fluid–fluid pair rows of one particle (see [`RangeSink`] for why not a closure).
struct FluidSink<'a, 'b, const D: usize, K, const SHIFT: bool> {
    p: &'a Pass<'b, K>,
    me: &'a Me<D>,
    own: Own<D>,
    out: &'a Writer<'a, D>,
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
    own: Own<D>,
}

impl<const D: usize, K: PairKernel> RangeSink for MarkerSink<'_, '_, D, K> {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        marker_neighbours::<D, K>(self.p.c, self.p.kernel, self.me, self.p.markers, (s, e), &mut self.own)
    }
}

/// One slab: every particle of the writer's task with its later fluid neighbours (both sides)
/// and its markers (own side); returns the largest viscous term.
///
/// # Safety
/// `out` is the writer of a task that no concurrent task's range overlaps (the slab
/// discipline of [`Shared`]).
#[inline(always)]
unsafe fn slab<const D: usize, K: PairKernel, const SHIFT: bool>(p: &Pass<K>, out: &Writer<D>) -> f32 {
    let mut visc = 0.0f32;
    let SlabTask { first, last, .. } = out.task();
    for i in first..last {
        let me = Me::<D>::of(p.fluid, i, false);
        let mut pairs = FluidSink::<D, K, SHIFT> { p, me: &me, own: ([0.0f64; D], 0.0f64, [0.0f64; D], 0.0f32), out };
        p.grid.for_each_range_after(p.fstarts, me.x, p.radius, i + 1, &mut pairs);
        let mut walls = MarkerSink::<D, K> { p, me: &me, own: pairs.own };
        if p.marker_occupancy.near(me.x) {
            p.grid.for_each_range(p.mstarts, me.x, p.radius, &mut walls);
        }
        let own = walls.own;
        // SAFETY: i is a particle of this task's own slab (the caller's contract).
        let (r, sh) = unsafe { out.own(i) };
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
unsafe fn slab_wide<const D: usize, K: PairKernel, const SHIFT: bool>(p: &Pass<K>, out: &Writer<D>) -> f32 {
    // SAFETY: the caller's contract is that of `slab`.
    unsafe { slab::<D, K, SHIFT>(p, out) }
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
    let slabs = Slabs::new::<D>(p.grid, p.fstarts, p.radius);
    let out = Shared::<D>::new(scatter, rhs, shift);
    let wide = wide_vectors();
    let mut visc = 0.0f32;
    for parity in 0..2 {
        let v = slabs
            .phase(parity)
            .par_iter()
            .map(|&task| {
                let w = out.writer(task);
                #[cfg(target_arch = "x86_64")]
                if wide {
                    // SAFETY: AVX2 is present; the slab discipline holds (this phase runs
                    // slabs of one parity only).
                    return unsafe { slab_wide::<D, K, SHIFT>(p, &w) };
                }
                let _ = wide;
                // SAFETY: the slab discipline holds (one parity per phase).
                unsafe { slab::<D, K, SHIFT>(p, &w) }
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
