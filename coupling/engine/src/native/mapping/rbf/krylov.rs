//! Krylov solvers for the iterative RBF system, matrix-free: conjugate gradients for SPD
//! systems, restarted GMRES (Givens rotations) for the others. No crate of the ecosystem offers
//! both for a user-defined operator without pulling a sparse-matrix framework; each is the
//! textbook algorithm in a few lines.

/// The outcome of a solve.
pub struct Solve {
    /// The approximate solution.
    pub x: Vec<f64>,
    /// Whether `|b - K x| ≤ rtol |b|` was reached within the iteration limit.
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Conjugate gradients on SPD `k` from a zero initial guess.
pub fn cg(k: &dyn Fn(&[f64], &mut [f64]), b: &[f64], rtol: f64, max_iter: usize) -> Solve {
    let n = b.len();
    let target = rtol * norm(b);
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let mut p = r.clone();
    let mut kp = vec![0.0; n];
    let mut rr = dot(&r, &r);
    for _ in 0..max_iter {
        if rr.sqrt() <= target {
            return Solve { x, converged: true };
        }
        k(&p, &mut kp);
        let pkp = dot(&p, &kp);
        if pkp <= 0.0 {
            break; // not positive definite in floating point: stop with what we have
        }
        let alpha = rr / pkp;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * kp[i];
        }
        let rr_new = dot(&r, &r);
        let beta = rr_new / rr;
        rr = rr_new;
        for i in 0..n {
            p[i] = r[i] + beta * p[i];
        }
    }
    let converged = rr.sqrt() <= target;
    Solve { x, converged }
}

/// Restart length of GMRES (memory: `RESTART + 1` vectors).
const RESTART: usize = 50;

/// Restarted GMRES on a general `k` from a zero initial guess; `max_iter` counts matrix
/// products.
pub fn gmres(k: &dyn Fn(&[f64], &mut [f64]), b: &[f64], rtol: f64, max_iter: usize) -> Solve {
    let n = b.len();
    let target = rtol * norm(b);
    let mut x = vec![0.0; n];
    let mut tmp = vec![0.0; n];
    let mut done = 0;
    loop {
        k(&x, &mut tmp);
        let r: Vec<f64> = b.iter().zip(&tmp).map(|(b, t)| b - t).collect();
        let beta = norm(&r);
        if beta <= target || target == 0.0 && beta == 0.0 {
            return Solve { x, converged: true };
        }
        if done >= max_iter {
            return Solve { x, converged: false };
        }
        let mut v: Vec<Vec<f64>> = vec![r.iter().map(|e| e / beta).collect()];
        let mut h = vec![vec![0.0; RESTART]; RESTART + 1];
        let (mut cs, mut sn) = (vec![0.0; RESTART], vec![0.0; RESTART]);
        let mut g = vec![0.0; RESTART + 1];
        g[0] = beta;
        let mut m = 0;
        while m < RESTART && done < max_iter {
            let mut w = vec![0.0; n];
            k(&v[m], &mut w);
            done += 1;
            for (i, vi) in v.iter().enumerate() {
                h[i][m] = dot(&w, vi);
                w.iter_mut().zip(vi).for_each(|(a, b)| *a -= h[i][m] * b);
            }
            h[m + 1][m] = norm(&w);
            for i in 0..m {
                let t = cs[i] * h[i][m] + sn[i] * h[i + 1][m];
                h[i + 1][m] = -sn[i] * h[i][m] + cs[i] * h[i + 1][m];
                h[i][m] = t;
            }
            let d = h[m][m].hypot(h[m + 1][m]);
            if d == 0.0 {
                break;
            }
            cs[m] = h[m][m] / d;
            sn[m] = h[m + 1][m] / d;
            h[m][m] = d;
            g[m + 1] = -sn[m] * g[m];
            g[m] *= cs[m];
            let breakdown = h[m + 1][m] == 0.0;
            h[m + 1][m] = 0.0;
            let wn = norm(&w);
            m += 1;
            if g[m].abs() <= target || breakdown || wn == 0.0 {
                break;
            }
            v.push(w.iter().map(|e| e / wn).collect());
        }
        // Back substitution for the m coefficients, then the update.
        let mut y = vec![0.0; m];
        for i in (0..m).rev() {
            let s: f64 = (i + 1..m).map(|j| h[i][j] * y[j]).sum();
            y[i] = (g[i] - s) / h[i][i];
        }
        for (j, yj) in y.iter().enumerate() {
            x.iter_mut().zip(&v[j]).for_each(|(a, b)| *a += yj * b);
        }
        if m == 0 {
            return Solve { x, converged: false };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small SPD tridiagonal (the 1D Laplacian plus identity) and a nonsymmetric matrix:
    /// both solvers reach the requested relative residual, checked by an independent product.
    #[test]
    fn both_solvers_reach_the_tolerance() {
        let n = 120;
        let spd = |x: &[f64], y: &mut [f64]| {
            for i in 0..n {
                let l = if i > 0 { x[i - 1] } else { 0.0 };
                let r = if i + 1 < n { x[i + 1] } else { 0.0 };
                y[i] = 3.0 * x[i] - l - r;
            }
        };
        let nonsym = |x: &[f64], y: &mut [f64]| {
            for i in 0..n {
                let l = if i > 0 { x[i - 1] } else { 0.0 };
                y[i] = 2.0 * x[i] - 1.5 * l + 0.1 * x[(i * 7) % n];
            }
        };
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
        for (name, s, k) in [
            ("cg", cg(&spd, &b, 1e-10, 1000), &spd as &dyn Fn(&[f64], &mut [f64])),
            ("gmres spd", gmres(&spd, &b, 1e-10, 1000), &spd),
            ("gmres", gmres(&nonsym, &b, 1e-10, 2000), &nonsym),
        ] {
            assert!(s.converged, "{name}");
            let mut kx = vec![0.0; n];
            k(&s.x, &mut kx);
            let res: f64 = kx.iter().zip(&b).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
            // 1e-10 requested; a little slack for the recurrence's drift from the true residual.
            assert!(res <= 2e-10 * norm(&b), "{name}: {res}");
        }
    }
}
