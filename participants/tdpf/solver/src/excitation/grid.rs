//! Locating a value on an ascending, possibly non-uniform grid for linear interpolation.

/// Relative slack at the grid ends, so that e.g. 2π/T computed slightly differently from the
/// file's own value does not fail on an end point.
const END_TOLERANCE: f64 = 1e-12;

/// Interpolation stencil: value ≈ (1 − w)·v[lo] + w·v[hi].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bracket {
    pub lo: usize,
    pub hi: usize,
    pub w: f64,
}

impl Bracket {
    /// Interpolates between the values `a` (at `lo`) and `b` (at `hi`).
    pub fn mix(&self, a: f64, b: f64) -> f64 {
        (1.0 - self.w) * a + self.w * b
    }
}

/// The bracket of `x` on `grid` (strictly ascending, non-empty) by binary search, or `None` if `x`
/// lies outside [grid₀, grid_last] (or is NaN). A one-point grid accepts only that point.
pub(crate) fn locate(grid: &[f64], x: f64) -> Option<Bracket> {
    let (first, last) = (*grid.first()?, *grid.last()?);
    let tol = END_TOLERANCE * (1.0 + first.abs().max(last.abs()));
    if !(x >= first - tol && x <= last + tol) {
        return None;
    }
    let n = grid.len();
    if n == 1 {
        return Some(Bracket { lo: 0, hi: 0, w: 0.0 });
    }
    let x = x.clamp(first, last);
    let lo = grid.partition_point(|&v| v <= x).saturating_sub(1).min(n - 2);
    let w = ((x - grid[lo]) / (grid[lo + 1] - grid[lo])).clamp(0.0, 1.0);
    Some(Bracket { lo, hi: lo + 1, w })
}

/// True if `grid` is non-empty, finite and strictly ascending.
pub(crate) fn is_ascending(grid: &[f64]) -> bool {
    !grid.is_empty() && grid.iter().all(|v| v.is_finite()) && grid.windows(2).all(|p| p[1] > p[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_on_non_uniform_grid() {
        let g = [0.1, 0.15, 0.32, 0.5, 2.0];
        let b = locate(&g, 0.4).unwrap();
        assert_eq!((b.lo, b.hi), (2, 3));
        assert!((b.w - (0.4 - 0.32) / 0.18).abs() < 1e-14);
        assert_eq!(locate(&g, 0.1).unwrap(), Bracket { lo: 0, hi: 1, w: 0.0 });
        let end = locate(&g, 2.0).unwrap();
        assert_eq!((end.lo, end.hi, end.w), (3, 4, 1.0));
        assert_eq!(locate(&g, 0.15).unwrap().lo, 1);
        assert!(locate(&g, 0.0999).is_none());
        assert!(locate(&g, 2.0001).is_none());
        assert!(locate(&g, f64::NAN).is_none());
        assert!(locate(&g, 2.0 * (1.0 + 1e-14)).is_some());
    }

    #[test]
    fn single_point_grid() {
        assert_eq!(locate(&[30.0], 30.0).unwrap(), Bracket { lo: 0, hi: 0, w: 0.0 });
        assert!(locate(&[30.0], 31.0).is_none());
        assert!(locate(&[], 0.0).is_none());
    }

    #[test]
    fn ascending_check() {
        assert!(is_ascending(&[0.0, 1.0, 1.5]));
        assert!(!is_ascending(&[0.0, 1.0, 1.0]));
        assert!(!is_ascending(&[]));
        assert!(!is_ascending(&[0.0, f64::NAN]));
    }
}
