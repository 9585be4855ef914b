//! Particle storage: structure-of-arrays sets, reordered by cell every step.
//!
//! The master state (positions, velocities, densities) is f64. Each right-hand-side evaluation
//! reads f32 copies ([`Packed`]) with positions relative to the grid origin: pair differences
//! then carry about 1e-7 of the domain size in error, far below the kernel's own, and the pair
//! loops run twice as many lanes per vector instruction.

use rayon::prelude::*;

/// Lanes of the pair loops: candidates are taken eight at a time, and every packed array has
/// this many inert entries at its end so that the last group can be read whole.
pub(crate) const LANES: usize = 8;

/// The [`LANES`] entries of a packed array from `j` on.
#[inline(always)]
pub(crate) fn group(a: &[f32], j: usize) -> &[f32; LANES] {
    a[j..j + LANES].try_into().expect("packed arrays are padded")
}

/// Ones then zeros: [`live`] reads its lane mask from here.
static RAMP: [f32; 2 * LANES] = {
    let mut r = [0.0f32; 2 * LANES];
    let mut i = 0;
    while i < LANES {
        r[i] = 1.0;
        i += 1;
    }
    r
};

/// 1.0 for the first `min(n, LANES)` lanes of a group and 0.0 for the rest: one load instead
/// of a 64-bit index comparison per lane (which the vectoriser handles poorly).
#[inline(always)]
pub(crate) fn live(n: usize) -> &'static [f32; LANES] {
    let skip = LANES - n.min(LANES);
    RAMP[skip..skip + LANES].try_into().expect("RAMP holds two groups")
}

/// Fluid particles (first `dim` axes of each array used).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Fluid {
    pub x: [Vec<f64>; 3],
    pub v: [Vec<f64>; 3],
    pub rho: Vec<f64>,
}

impl Fluid {
    pub fn len(&self) -> usize {
        self.rho.len()
    }

    pub fn with_len(n: usize) -> Self {
        let z = || vec![0.0; n];
        Fluid { x: [z(), z(), z()], v: [z(), z(), z()], rho: z() }
    }

    pub fn resize(&mut self, n: usize) {
        for a in self.x.iter_mut().chain(self.v.iter_mut()) {
            a.resize(n, 0.0);
        }
        self.rho.resize(n, 0.0);
    }

    /// Reorders every array: new `i` is old `order[i]`.
    pub fn permute(&mut self, order: &[u32], tmp: &mut Vec<f64>) {
        for a in self.x.iter_mut().chain(self.v.iter_mut()).chain(std::iter::once(&mut self.rho)) {
            gather(a, order, tmp);
        }
    }

    /// Keeps the particles whose flag is true.
    pub fn retain(&mut self, keep: &[bool]) {
        for a in self.x.iter_mut().chain(self.v.iter_mut()).chain(std::iter::once(&mut self.rho)) {
            let mut it = keep.iter();
            a.retain(|_| *it.next().unwrap_or(&true));
        }
    }
}

/// Wall and body markers: body-frame coordinates and owner (the saved part), and the world
/// position, wall velocity and acceleration of the current stage (internal axes).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Markers {
    pub local: [Vec<f64>; 3],
    pub body: Vec<u32>,
    pub x: [Vec<f64>; 3],
    pub vwall: [Vec<f64>; 3],
    pub acc: [Vec<f64>; 3],
}

impl Markers {
    pub fn len(&self) -> usize {
        self.body.len()
    }

    pub fn push(&mut self, body: u32, local: [f64; 3]) {
        for (k, l) in local.into_iter().enumerate() {
            self.local[k].push(l);
            self.x[k].push(0.0);
            self.vwall[k].push(0.0);
            self.acc[k].push(0.0);
        }
        self.body.push(body);
    }

    /// Reorders every array: new `i` is old `order[i]`.
    pub fn permute(&mut self, order: &[u32], tmp: &mut Vec<f64>) {
        let arrays =
            self.local.iter_mut().chain(self.x.iter_mut()).chain(self.vwall.iter_mut()).chain(self.acc.iter_mut());
        for a in arrays {
            gather(a, order, tmp);
        }
        let body: Vec<u32> = order.iter().map(|&o| self.body[o as usize]).collect();
        self.body = body;
    }
}

/// `a[i] ← a[order[i]]`.
fn gather(a: &mut Vec<f64>, order: &[u32], tmp: &mut Vec<f64>) {
    tmp.clear();
    tmp.extend(order.iter().map(|&o| a[o as usize]));
    std::mem::swap(a, tmp);
}

/// The f32 view of one set that the pair loops read, padded with [`LANES`] inert entries.
#[derive(Debug, Clone, Default)]
pub(crate) struct Packed {
    pub x: [Vec<f32>; 3],
    /// Velocity in the continuity equation (fluid: its velocity; markers: the wall's).
    pub v: [Vec<f32>; 3],
    /// Velocity in the viscous terms (markers only: wall or mirrored velocity).
    pub vv: [Vec<f32>; 3],
    pub rho: Vec<f32>,
    pub inv_rho: Vec<f32>,
    /// p / ρ.
    pub por: Vec<f32>,
}

/// Where padding entries sit: far outside any support, so every kernel term of theirs is zero.
const FAR: f32 = 1.0e7;

impl Packed {
    /// Sizes every array for `n` entries plus padding; the padding is made inert.
    pub fn reset(&mut self, n: usize, dim: usize, rho0: f64, markers: bool) {
        let m = n + LANES;
        for k in 0..3 {
            let used = k < dim;
            resize_pad(&mut self.x[k], if used { m } else { 0 }, n, FAR);
            resize_pad(&mut self.v[k], if used { m } else { 0 }, n, 0.0);
            resize_pad(&mut self.vv[k], if used && markers { m } else { 0 }, n, 0.0);
        }
        resize_pad(&mut self.rho, m, n, rho0 as f32);
        resize_pad(&mut self.inv_rho, m, n, (1.0 / rho0) as f32);
        resize_pad(&mut self.por, m, n, 0.0);
    }

    /// Copies positions (relative to `origin`) and velocities of the first `dim` axes.
    pub fn fill_kinematics(&mut self, dim: usize, x: &[Vec<f64>; 3], v: &[Vec<f64>; 3], origin: &[f64; 3]) {
        for k in 0..dim {
            let o = origin[k];
            let n = x[k].len();
            self.x[k][..n].par_iter_mut().zip(x[k].par_iter()).for_each(|(d, s)| *d = (*s - o) as f32);
            self.v[k][..n].par_iter_mut().zip(v[k].par_iter()).for_each(|(d, s)| *d = *s as f32);
        }
    }

    /// Density, its inverse and p/ρ from f64 densities and the equation of state.
    pub fn fill_density(&mut self, rho: &[f64], pressure: impl Fn(f64) -> f64 + Sync) {
        let n = rho.len();
        self.rho[..n]
            .par_iter_mut()
            .zip(self.inv_rho[..n].par_iter_mut())
            .zip(self.por[..n].par_iter_mut())
            .zip(rho.par_iter())
            .for_each(|(((r, ir), por), &src)| {
                *r = src as f32;
                *ir = (1.0 / src) as f32;
                *por = (pressure(src) / src) as f32;
            });
    }
}

fn resize_pad(a: &mut Vec<f32>, len: usize, n: usize, pad: f32) {
    a.resize(len, pad);
    if len > n {
        a[n..].fill(pad);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_masks_the_lanes_past_the_end() {
        assert_eq!(live(0), &[0.0; LANES]);
        assert_eq!(live(3), &[1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(live(8), &[1.0; LANES]);
        assert_eq!(live(100), &[1.0; LANES]);
    }

    #[test]
    fn permute_and_retain_move_every_array_together() {
        let mut f = Fluid::with_len(4);
        for i in 0..4 {
            f.x[0][i] = i as f64;
            f.v[2][i] = 10.0 * i as f64;
            f.rho[i] = 100.0 * i as f64;
        }
        let mut tmp = Vec::new();
        f.permute(&[2, 0, 3, 1], &mut tmp);
        assert_eq!(f.x[0], vec![2.0, 0.0, 3.0, 1.0]);
        assert_eq!(f.v[2], vec![20.0, 0.0, 30.0, 10.0]);
        f.retain(&[true, false, true, true]);
        assert_eq!(f.rho, vec![200.0, 300.0, 100.0]);
        let mut p = Packed::default();
        p.reset(3, 2, 1000.0, false);
        assert_eq!(p.x[0].len(), 3 + LANES);
        assert!(p.x[2].is_empty() && p.vv[0].is_empty());
        assert_eq!(p.x[1][3 + LANES - 1], FAR);
    }
}
