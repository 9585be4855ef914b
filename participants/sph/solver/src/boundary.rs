//! Adami-type boundary condition: every wall or body marker takes, at every evaluation, the
//! Shepard average of its fluid neighbours, corrected for the pressure gradient that gravity
//! and the marker's own acceleration impose across the distance between them:
//!
//! `p_w = [Σ_f p_f W_wf + (g − a_w)·Σ_f ρ_f r_wf W_wf] / Σ_f W_wf`, `ρ_w` from the Tait law
//! at `p_w`, and in the viscous terms the mirrored velocity `2 v_w − Σ_f v_f W_wf / Σ_f W_wf`
//! (no slip) or the wall's own velocity (free slip). Markers without fluid neighbours get
//! p = 0, ρ = ρ0. The marker's own velocity is kept apart from the viscous one, so the
//! mirroring never feeds back into the wall motion.

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use crate::dynamics::lanes::Group;
use crate::dynamics::{wide_vectors, CHUNK};
use crate::eos::Tait;
use crate::kernel::PairKernel;
use crate::neighbours::{CellGrid, Occupancy, RangeSink};
use crate::parameters::BoundaryOptions;
use crate::particles::{Packed, LANES};
use rayon::prelude::*;

/// Shepard sums of one marker: ΣW, Σ p W, Σ ρ W r (internal axes), Σ v W.
struct Sums<const D: usize> {
    w: f64,
    pw: f64,
    rw: [f64; D],
    vw: [f64; D],
}

#[inline(always)]
fn row<const D: usize, K: PairKernel>(
    kernel: &K,
    inv_h: f32,
    me: [f32; D],
    fp: &Packed,
    (s, e): (usize, usize),
    out: &mut Sums<D>,
) {
    let mut w_l = [0.0f32; LANES];
    let mut pw_l = [0.0f32; LANES];
    let mut rw_l = [[0.0f32; LANES]; D];
    let mut vw_l = [[0.0f32; LANES]; D];
    let mut j = s;
    while j < e {
        let g = Group::<D>::at(fp, j, e);
        for l in 0..LANES {
            let (dx, r2) = g.offset(&me, l);
            let (w, _) = kernel.eval(r2.sqrt() * inv_h);
            let w = w * g.mask[l];
            let rho = g.rho[l];
            w_l[l] += w;
            pw_l[l] += g.por[l] * rho * w;
            for k in 0..D {
                rw_l[k][l] += rho * w * dx[k];
                vw_l[k][l] += g.v[k][l] * w;
            }
        }
        j += LANES;
    }
    out.w += w_l.iter().sum::<f32>() as f64;
    out.pw += pw_l.iter().sum::<f32>() as f64;
    for k in 0..D {
        out.rw[k] += rw_l[k].iter().sum::<f32>() as f64;
        out.vw[k] += vw_l[k].iter().sum::<f32>() as f64;
    }
}

/// The Shepard rows of one marker (a struct, not a closure: see [`RangeSink`]).
struct ShepardSink<'a, const D: usize, K> {
    kernel: &'a K,
    inv_h: f32,
    me: [f32; D],
    fp: &'a Packed,
    sums: Sums<D>,
}

impl<const D: usize, K: PairKernel> RangeSink for ShepardSink<'_, D, K> {
    #[inline(always)]
    fn range(&mut self, s: usize, e: usize) {
        row::<D, K>(self.kernel, self.inv_h, self.me, self.fp, (s, e), &mut self.sums)
    }
}

/// The inputs of the boundary pass that every marker reads.
struct Inputs<'a, K> {
    kernel: &'a K,
    inv_h: f32,
    grid: &'a CellGrid,
    radius: f32,
    fp: &'a Packed,
    fstarts: &'a [u32],
    mp: &'a Packed,
    acc: &'a [Vec<f64>; 3],
    g: [f64; 3],
    opts: BoundaryOptions,
    eos: &'a Tait,
    occupancy: &'a Occupancy,
}

/// Markers `first..first + out.len()`: `[ρ, p/ρ, viscous velocity]` of each.
#[inline(always)]
fn chunk<const D: usize, K: PairKernel>(inp: &Inputs<K>, first: usize, out: &mut [[f32; 6]]) {
    let rho0 = inp.eos.rest_density;
    let mp = inp.mp;
    for (o, slot) in out.iter_mut().enumerate() {
        let i = first + o;
        let me: [f32; D] = std::array::from_fn(|k| mp.x[k][i]);
        let mut sink = ShepardSink::<D, K> {
            kernel: inp.kernel,
            inv_h: inp.inv_h,
            me,
            fp: inp.fp,
            sums: Sums { w: 0.0, pw: 0.0, rw: [0.0; D], vw: [0.0; D] },
        };
        if inp.occupancy.near(me) {
            inp.grid.for_each_range(inp.fstarts, me, inp.radius, &mut sink);
        }
        let s = sink.sums;
        let mut out = [0.0f32; 6];
        if s.w > 0.0 {
            let mut hydro = 0.0;
            for k in 0..D {
                hydro += (inp.g[k] - inp.acc[k][i]) * s.rw[k];
            }
            let mut p = (s.pw + hydro) / s.w;
            if inp.opts.clamp_negative_pressure {
                p = p.max(0.0);
            }
            let rho = inp.eos.density(p).max(0.5 * rho0);
            out[0] = rho as f32;
            out[1] = (p / rho) as f32;
            for k in 0..D {
                let vw = mp.v[k][i] as f64;
                out[2 + k] = if inp.opts.no_slip { (2.0 * vw - s.vw[k] / s.w) as f32 } else { vw as f32 };
            }
        } else {
            out[0] = rho0 as f32;
            for k in 0..D {
                out[2 + k] = mp.v[k][i];
            }
        }
        *slot = out;
    }
}

/// [`chunk`] compiled for 256-bit vectors.
///
/// # Safety
/// Only call where [`wide_vectors`] is true.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn chunk_wide<const D: usize, K: PairKernel>(inp: &Inputs<K>, first: usize, out: &mut [[f32; 6]]) {
    chunk::<D, K>(inp, first, out)
}

/// Sets density, p/ρ and viscous velocity of every marker in `markers` (whose positions and
/// wall velocities are filled) from the fluid; `acc` is each marker's acceleration and `g`
/// gravity, both on the internal axes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn adami_pass<const D: usize, K: PairKernel>(
    kernel: &K,
    inv_h: f32,
    grid: &CellGrid,
    radius: f32,
    fluid: (&Packed, &[u32]),
    markers: &mut Packed,
    acc: &[Vec<f64>; 3],
    g: [f64; 3],
    opts: BoundaryOptions,
    eos: &Tait,
    occupancy: &Occupancy,
    scratch: &mut Vec<[f32; 6]>,
) {
    let (fp, fstarts) = fluid;
    let n = markers.rho.len() - LANES;
    scratch.clear();
    scratch.resize(n, [0.0; 6]);
    {
        let inp = Inputs { kernel, inv_h, grid, radius, fp, fstarts, mp: &*markers, acc, g, opts, eos, occupancy };
        let wide = wide_vectors();
        scratch.par_chunks_mut(CHUNK).enumerate().for_each(|(ci, out)| {
            #[cfg(target_arch = "x86_64")]
            if wide {
                // SAFETY: the CPU has AVX2 (checked by `wide_vectors`).
                unsafe { chunk_wide::<D, K>(&inp, ci * CHUNK, out) };
                return;
            }
            let _ = wide;
            chunk::<D, K>(&inp, ci * CHUNK, out)
        });
    }
    for (i, o) in scratch.iter().enumerate() {
        markers.rho[i] = o[0];
        markers.inv_rho[i] = 1.0 / o[0];
        markers.por[i] = o[1];
        for k in 0..D {
            markers.vv[k][i] = o[2 + k];
        }
    }
}
