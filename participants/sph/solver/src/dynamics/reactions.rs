//! The reaction of the marker terms: the acceleration the fluid gives each wall or body
//! marker, from the same pair formula as the fluid side (so the two are exactly opposite).

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use super::lanes::{Group, Momentum, Other};
use super::{wide_vectors, Me, PairConsts, Pass, CHUNK};
use crate::kernel::PairKernel;
use crate::neighbours::RangeSink;
use crate::particles::{Packed, LANES};
use rayon::prelude::*;

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
        let g = Group::<D>::at(src, j, e);
        let irho = g.inv_rho();
        for l in 0..LANES {
            let valid = g.mask[l];
            let (dx, r2) = g.offset(&me.x, l);
            let f = kernel.grad(r2.sqrt() * c.inv_h) * valid;
            let t = Momentum::of(c, c.alpha_c0_markers, me, &Other::lane(&g, &g.v, irho, l), (&dx, r2), f);
            for k in 0..D {
                acc[k][l] += t.term(&dx, k);
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
