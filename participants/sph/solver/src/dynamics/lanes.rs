//! What every pair loop does per group of candidates: gather the group's arrays, take the
//! offset of each lane, and (the momentum loops) evaluate the pressure and viscous terms. One
//! definition of each, always inlined into the vectorised loops that call it, so every loop
//! does the same floating-point operations in the same order.

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use super::{Me, PairConsts};
use crate::particles::{group, live, Packed, LANES};

/// One group of [`LANES`] candidates from `j` on: the lane mask and the arrays every pair loop
/// reads; [`Group::inv_rho`] and [`Group::viscous`] for the loops that read those too.
pub(crate) struct Group<'a, const D: usize> {
    src: &'a Packed,
    j: usize,
    /// 1.0 for the lanes that hold a candidate, 0.0 past the row's end.
    pub mask: &'static [f32; LANES],
    pub x: [&'a [f32; LANES]; D],
    pub v: [&'a [f32; LANES]; D],
    pub rho: &'a [f32; LANES],
    pub por: &'a [f32; LANES],
}

impl<'a, const D: usize> Group<'a, D> {
    /// Candidates `j..j + LANES` of `src`, of which those before `e` are live.
    #[inline(always)]
    pub fn at(src: &'a Packed, j: usize, e: usize) -> Self {
        Group {
            src,
            j,
            mask: live(e - j),
            x: std::array::from_fn(|k| group(&src.x[k], j)),
            v: std::array::from_fn(|k| group(&src.v[k], j)),
            rho: group(&src.rho, j),
            por: group(&src.por, j),
        }
    }

    /// The group's 1/ρ.
    #[inline(always)]
    pub fn inv_rho(&self) -> &'a [f32; LANES] {
        group(&self.src.inv_rho, self.j)
    }

    /// The group's viscous velocities (markers: wall or mirrored).
    #[inline(always)]
    pub fn viscous(&self) -> [&'a [f32; LANES]; D] {
        std::array::from_fn(|k| group(&self.src.vv[k], self.j))
    }

    /// `r = x − x_l` for lane `l` and `r²`.
    #[inline(always)]
    pub fn offset(&self, x: &[f32; D], l: usize) -> ([f32; D], f32) {
        let mut dx = [0.0f32; D];
        let mut r2 = 0.0f32;
        for k in 0..D {
            dx[k] = x[k] - self.x[k][l];
            r2 += dx[k] * dx[k];
        }
        (dx, r2)
    }
}

/// The other particle of one pair lane, as the momentum terms read it.
pub(crate) struct Other<const D: usize> {
    /// Its velocity (the viscous one where a marker's).
    pub v: [f32; D],
    pub rho: f32,
    pub inv_rho: f32,
    pub por: f32,
}

impl<const D: usize> Other<D> {
    /// Lane `l` of `g`, with the velocities `v` (the group's own or its viscous ones).
    #[inline(always)]
    pub fn lane(g: &Group<D>, v: &[&[f32; LANES]; D], inv_rho: &[f32; LANES], l: usize) -> Self {
        Other { v: std::array::from_fn(|k| v[k][l]), rho: g.rho[l], inv_rho: inv_rho[l], por: g.por[l] }
    }
}

/// The momentum terms of one pair lane: pressure and artificial viscosity along `r`
/// (`radial`), laminar viscosity along `v_ij` (`lam`), and what the other terms reuse.
pub(crate) struct Momentum<const D: usize> {
    /// `v_ij`.
    pub dv: [f32; D],
    /// `v_ij·r_ij`.
    pub vr: f32,
    /// `h v_ij·r_ij / (r² + η²)`.
    pub mu: f32,
    /// `1/(r² + η²)`.
    pub inv_den: f32,
    /// `1/(ρ_i + ρ_j)`.
    pub sum_rho_inv: f32,
    pub radial: f32,
    pub lam: f32,
}

impl<const D: usize> Momentum<D> {
    /// The terms of `me` with `other` at offset `dx` (`r2 = |dx|²`), kernel gradient factor
    /// `f` and artificial viscosity `alpha_c0`.
    #[inline(always)]
    pub fn of(c: &PairConsts, alpha_c0: f32, me: &Me<D>, other: &Other<D>, (dx, r2): (&[f32; D], f32), f: f32) -> Self {
        let mut dv = [0.0f32; D];
        let mut vr = 0.0f32;
        for k in 0..D {
            dv[k] = me.v[k] - other.v[k];
            vr += dv[k] * dx[k];
        }
        // One division for 1/(r² + η²) and 1/(ρ_i + ρ_j).
        let (den, rs) = (r2 + c.eta2, me.rho + other.rho);
        let inv = 1.0 / (den * rs);
        let (inv_den, sum_rho_inv) = (inv * rs, inv * den);
        let mu = c.h * vr * inv_den;
        let pi = -2.0 * alpha_c0 * mu.min(0.0) * sum_rho_inv;
        let pres = me.por * other.inv_rho + other.por * me.inv_rho;
        let radial = -c.m * (pres + pi) * f;
        let lam = c.m * c.lam * f * r2 * inv_den * sum_rho_inv;
        Momentum { dv, vr, mu, inv_den, sum_rho_inv, radial, lam }
    }

    /// Component `k` of the acceleration term on `me`.
    #[inline(always)]
    pub fn term(&self, dx: &[f32; D], k: usize) -> f32 {
        self.radial * dx[k] + self.lam * self.dv[k]
    }
}

/// `g·r` of an offset: the hydrostatic part of the δ-SPH density difference.
#[inline(always)]
pub(crate) fn gravity_along<const D: usize>(c: &PairConsts, dx: &[f32; D]) -> f32 {
    let mut gdx = 0.0f32;
    for k in 0..D {
        gdx += c.g[k] * dx[k];
    }
    gdx
}

/// Sums of one row of candidates, lanes still apart.
pub(crate) struct Lanes<const D: usize> {
    pub a: [[f32; LANES]; D],
    pub d: [f32; LANES],
    pub s: [[f32; LANES]; D],
    pub visc: [f32; LANES],
}

impl<const D: usize> Lanes<D> {
    pub fn new() -> Self {
        Lanes { a: [[0.0; LANES]; D], d: [0.0; LANES], s: [[0.0; LANES]; D], visc: [0.0; LANES] }
    }

    /// Adds the row into the particle's own sums `own` (acceleration, Dρ, shift when `shift`,
    /// largest viscous term).
    #[inline(always)]
    pub fn into_own(self, own: &mut ([f64; D], f64, [f64; D], f32), shift: bool) {
        for k in 0..D {
            own.0[k] += self.a[k].iter().sum::<f32>() as f64;
            if shift {
                own.2[k] += self.s[k].iter().sum::<f32>() as f64;
            }
        }
        own.1 += self.d.iter().sum::<f32>() as f64;
        own.3 = self.visc.iter().fold(own.3, |m, &x| m.max(x));
    }
}
