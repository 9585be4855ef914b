//! Smoothing kernels with support radius 2h: Wendland C2 (the default) and the cubic spline.
//!
//! Both are written as `W(r) = σ f(q)` with `q = r/h`. The solver needs the gradient
//! `∇_i W(|r_ij|) = F(q) r_ij`; [`Kernel::gradient_factor`] returns that `F` (≤ 0), which stays
//! finite at `r = 0`, so the pair loops need no square root test and no branch for the self pair.

use std::f64::consts::PI;

/// Which kernel function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelKind {
    /// Wendland's C2 function `(1 − q/2)^4 (2q + 1)`: no pairing instability, smooth at the
    /// support edge.
    WendlandC2,
    /// Monaghan's cubic B-spline (M4), support 2h.
    CubicSpline,
}

/// A kernel of given kind, smoothing length and dimension (2 or 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kernel {
    /// The function.
    pub kind: KernelKind,
    /// Smoothing length h (m); the support radius is 2h.
    pub h: f64,
    /// Space dimension, 2 or 3.
    pub dim: usize,
}

impl Kernel {
    /// The normalisation σ so that the kernel integrates to one over the plane or space.
    pub fn sigma(&self) -> f64 {
        let h = self.h;
        match (self.kind, self.dim) {
            (KernelKind::WendlandC2, 2) => 7.0 / (4.0 * PI * h * h),
            (KernelKind::WendlandC2, _) => 21.0 / (16.0 * PI * h * h * h),
            (KernelKind::CubicSpline, 2) => 10.0 / (7.0 * PI * h * h),
            (KernelKind::CubicSpline, _) => 1.0 / (PI * h * h * h),
        }
    }

    /// Support radius 2h.
    pub fn support(&self) -> f64 {
        2.0 * self.h
    }

    /// W at distance `r`.
    pub fn value(&self, r: f64) -> f64 {
        let q = r / self.h;
        self.sigma()
            * match self.kind {
                KernelKind::WendlandC2 => {
                    let t = (1.0 - 0.5 * q).max(0.0);
                    t * t * t * t * (2.0 * q + 1.0)
                }
                KernelKind::CubicSpline => {
                    if q < 1.0 {
                        1.0 - 1.5 * q * q + 0.75 * q * q * q
                    } else {
                        let t = (2.0 - q).max(0.0);
                        0.25 * t * t * t
                    }
                }
            }
    }

    /// `F` with `∇_i W(|r_ij|) = F r_ij` at distance `r` (zero outside the support).
    pub fn gradient_factor(&self, r: f64) -> f64 {
        let q = r / self.h;
        let s = self.sigma() / (self.h * self.h);
        s * match self.kind {
            KernelKind::WendlandC2 => {
                let t = (1.0 - 0.5 * q).max(0.0);
                -5.0 * t * t * t
            }
            KernelKind::CubicSpline => {
                if q < 1.0 {
                    -3.0 + 2.25 * q
                } else if q < 2.0 {
                    -0.75 * (2.0 - q) * (2.0 - q) / q
                } else {
                    0.0
                }
            }
        }
    }
}

/// The f32, branch-free form of a kernel that the pair loops call once per candidate pair.
pub(crate) trait PairKernel: Copy + Send + Sync {
    /// `W(q)` and `F(q)` (see [`Kernel::gradient_factor`]); both zero for `q ≥ 2`.
    fn eval(&self, q: f32) -> (f32, f32);
    /// `F(q)` alone.
    fn grad(&self, q: f32) -> f32;
}

/// Wendland C2 with its constants folded in.
#[derive(Clone, Copy)]
pub(crate) struct Wendland {
    w: f32,
    g: f32,
}

/// Cubic spline with its constants folded in.
#[derive(Clone, Copy)]
pub(crate) struct Cubic {
    w: f32,
    g: f32,
}

impl Wendland {
    pub fn new(k: &Kernel) -> Self {
        let s = k.sigma();
        Wendland { w: s as f32, g: (-5.0 * s / (k.h * k.h)) as f32 }
    }
}

impl Cubic {
    pub fn new(k: &Kernel) -> Self {
        let s = k.sigma();
        Cubic { w: s as f32, g: (s / (k.h * k.h)) as f32 }
    }
}

impl PairKernel for Wendland {
    #[inline(always)]
    fn eval(&self, q: f32) -> (f32, f32) {
        let t = (1.0 - 0.5 * q).max(0.0);
        let t3 = t * t * t;
        (self.w * t3 * t * (2.0 * q + 1.0), self.g * t3)
    }
    #[inline(always)]
    fn grad(&self, q: f32) -> f32 {
        let t = (1.0 - 0.5 * q).max(0.0);
        self.g * t * t * t
    }
}

impl PairKernel for Cubic {
    #[inline(always)]
    fn eval(&self, q: f32) -> (f32, f32) {
        let t = (2.0 - q).max(0.0);
        let inner = q < 1.0;
        let w = if inner { 1.0 - 1.5 * q * q + 0.75 * q * q * q } else { 0.25 * t * t * t };
        (self.w * w, self.grad(q))
    }
    #[inline(always)]
    fn grad(&self, q: f32) -> f32 {
        let t = (2.0 - q).max(0.0);
        let inner = -3.0 + 2.25 * q;
        let outer = -0.75 * t * t / q.max(1.0);
        self.g * if q < 1.0 { inner } else { outer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Midpoint-rule integral of `f` over the square or cube of side 4h around the origin.
    fn integrate(k: &Kernel, n: usize, f: impl Fn([f64; 3], f64) -> f64) -> f64 {
        let step = 4.0 * k.h / n as f64;
        let c = |i: usize| -2.0 * k.h + (i as f64 + 0.5) * step;
        let mut sum = 0.0;
        let nz = if k.dim == 3 { n } else { 1 };
        for i in 0..n {
            for j in 0..n {
                for l in 0..nz {
                    let p = [c(i), c(j), if k.dim == 3 { c(l) } else { 0.0 }];
                    let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                    sum += f(p, r);
                }
            }
        }
        sum * step.powi(k.dim as i32)
    }

    fn kernels() -> Vec<Kernel> {
        let mut v = Vec::new();
        for kind in [KernelKind::WendlandC2, KernelKind::CubicSpline] {
            for dim in [2, 3] {
                v.push(Kernel { kind, h: 0.13, dim });
            }
        }
        v
    }

    #[test]
    fn kernels_integrate_to_one() {
        for k in kernels() {
            let n = if k.dim == 2 { 400 } else { 80 };
            let total = integrate(&k, n, |_, r| k.value(r));
            assert!((total - 1.0).abs() < 2e-3, "{k:?}: {total}");
        }
    }

    #[test]
    fn gradient_is_derivative_and_second_moment_is_minus_identity() {
        for k in kernels() {
            for r in [0.01, 0.05, 0.12, 0.2, 0.25] {
                let d = 1e-6;
                let fd = (k.value(r + d) - k.value(r - d)) / (2.0 * d);
                assert!((k.gradient_factor(r) * r - fd).abs() < 1e-5 * (1.0 + fd.abs()), "{k:?} r={r}");
            }
            assert_eq!(k.value(0.27), 0.0);
            assert_eq!(k.gradient_factor(0.27), 0.0);
            // ∫ x ⊗ ∇W dV = −I: the (x, x) entry with ∇W = F(r) x.
            let n = if k.dim == 2 { 400 } else { 80 };
            let m = integrate(&k, n, |p, r| -p[0] * p[0] * k.gradient_factor(r));
            assert!((m - 1.0).abs() < 3e-3, "{k:?}: {m}");
        }
    }

    #[test]
    fn pair_forms_match_the_reference() {
        for k in kernels() {
            type Pair = (Box<dyn Fn(f32) -> (f32, f32)>, Box<dyn Fn(f32) -> f32>);
            let (w32, c32): Pair = match k.kind {
                KernelKind::WendlandC2 => {
                    let p = Wendland::new(&k);
                    (Box::new(move |q| p.eval(q)), Box::new(move |q| p.grad(q)))
                }
                KernelKind::CubicSpline => {
                    let p = Cubic::new(&k);
                    (Box::new(move |q| p.eval(q)), Box::new(move |q| p.grad(q)))
                }
            };
            for i in 0..=50 {
                let q = i as f64 * 0.05;
                let r = q * k.h;
                let (w, g) = w32(q as f32);
                assert!((w as f64 - k.value(r)).abs() < 1e-5 * k.sigma(), "{k:?} q={q}");
                let gref = k.gradient_factor(r);
                assert!((g as f64 - gref).abs() < 1e-5 * k.sigma() / (k.h * k.h), "{k:?} q={q}");
                assert!((g - c32(q as f32)).abs() <= 1e-6 * g.abs().max(1.0));
            }
        }
    }
}
