//! Small geometry of mesh elements shared by the mappings, the watch-points and the integrals:
//! barycentric coordinates on a segment, a triangle and a tetrahedron, projected points, and
//! element lengths, areas and volumes. Points of 2D meshes are embedded in 3D with z = 0, so one
//! set of formulas serves both dimensions.

use nalgebra::Vector3;

/// A point or vector in 3D (2D points have z = 0).
pub type P3 = Vector3<f64>;

/// Weights at least this negative still count as inside an element (round-off on its boundary).
pub const INSIDE_TOLERANCE: f64 = 1e-14;

/// The point of a flat coordinate slice of 2 or 3 components (missing ones are 0).
pub fn point(coords: &[f64]) -> P3 {
    P3::new(
        coords.first().copied().unwrap_or(0.0),
        coords.get(1).copied().unwrap_or(0.0),
        coords.get(2).copied().unwrap_or(0.0),
    )
}

/// Barycentric coordinates of the orthogonal projection of `u` onto the line through `a`, `b`
/// (both non-negative exactly when the projection lies on the segment). Non-finite for a
/// degenerate segment.
pub fn segment_barycentric(a: &P3, b: &P3, u: &P3) -> [f64; 2] {
    let ab = b - a;
    let t = (u - a).dot(&ab) / ab.dot(&ab);
    [1.0 - t, t]
}

/// Barycentric coordinates of the orthogonal projection of `u` onto the plane of triangle
/// `a`, `b`, `c` (all non-negative exactly when it lies in the triangle). Non-finite for a
/// degenerate triangle.
pub fn triangle_barycentric(a: &P3, b: &P3, c: &P3, u: &P3) -> [f64; 3] {
    let (ab, ac, au) = (b - a, c - a, u - a);
    let n = ab.cross(&ac);
    let scale = 1.0 / n.dot(&n);
    let wb = n.dot(&au.cross(&ac)) * scale;
    let wc = n.dot(&ab.cross(&au)) * scale;
    [1.0 - wb - wc, wb, wc]
}

/// Barycentric coordinates of `u` in tetrahedron `a`, `b`, `c`, `d` (all non-negative exactly
/// when `u` is inside). Non-finite for a degenerate tetrahedron.
pub fn tetrahedron_barycentric(a: &P3, b: &P3, c: &P3, d: &P3, u: &P3) -> [f64; 4] {
    let (ab, ac, ad, au) = (b - a, c - a, d - a, u - a);
    let volume6 = ab.cross(&ac).dot(&ad);
    let wb = au.cross(&ac).dot(&ad) / volume6;
    let wc = ab.cross(&au).dot(&ad) / volume6;
    let wd = ab.cross(&ac).dot(&au) / volume6;
    [1.0 - wb - wc - wd, wb, wc, wd]
}

/// True when every weight is non-negative up to round-off (and finite): the point lies on the
/// element, so the weights interpolate rather than extrapolate.
pub fn is_interpolation(weights: &[f64]) -> bool {
    weights.iter().all(|&w| w >= -INSIDE_TOLERANCE)
}

/// The point with barycentric `weights` on the element of `vertices`.
pub fn combine(vertices: &[P3], weights: &[f64]) -> P3 {
    vertices.iter().zip(weights).fold(P3::zeros(), |acc, (v, &w)| acc + v * w)
}

/// Length of segment `a`–`b`.
pub fn edge_length(a: &P3, b: &P3) -> f64 {
    (b - a).norm()
}

/// Area of triangle `a`, `b`, `c` (in 2D or 3D).
pub fn triangle_area(a: &P3, b: &P3, c: &P3) -> f64 {
    0.5 * (b - a).cross(&(c - a)).norm()
}

/// Volume of tetrahedron `a`, `b`, `c`, `d`.
pub fn tetrahedron_volume(a: &P3, b: &P3, c: &P3, d: &P3) -> f64 {
    (b - a).cross(&(c - a)).dot(&(d - a)).abs() / 6.0
}

#[cfg(test)]
mod tests {
    use super::*;

    // Tolerances: every expectation is a small rational number reached in a handful of
    // floating-point operations on O(1) data, so a few ulps (1e-15) bound the error.
    const EPS: f64 = 1e-15;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= EPS)
    }

    #[test]
    fn segment_weights_reproduce_the_projection() {
        let (a, b) = (point(&[0.0, 0.0]), point(&[2.0, 0.0]));
        let w = segment_barycentric(&a, &b, &point(&[0.5, 3.0]));
        assert!(close(&w, &[0.75, 0.25]));
        assert!(is_interpolation(&w));
        assert!(!is_interpolation(&segment_barycentric(&a, &b, &point(&[-0.1, 0.0]))));
        assert!(!is_interpolation(&segment_barycentric(&a, &a, &b)), "degenerate segment");
    }

    #[test]
    fn triangle_weights_project_onto_the_plane() {
        let (a, b, c) = (point(&[0.0, 0.0, 1.0]), point(&[1.0, 0.0, 1.0]), point(&[0.0, 1.0, 1.0]));
        let w = triangle_barycentric(&a, &b, &c, &point(&[0.25, 0.5, 7.0]));
        assert!(close(&w, &[0.25, 0.25, 0.5]));
        assert!(close(combine(&[a, b, c], &w).as_slice(), &[0.25, 0.5, 1.0]));
        assert_eq!(triangle_area(&a, &b, &c), 0.5);
        // 2D points (z = 0) use the same formula.
        let w2 =
            triangle_barycentric(&point(&[0.0, 0.0]), &point(&[2.0, 0.0]), &point(&[0.0, 2.0]), &point(&[3.0, 0.0]));
        assert!(close(&w2, &[-0.5, 1.5, 0.0]));
        assert!(!is_interpolation(&w2));
    }

    #[test]
    fn tetrahedron_weights_and_volume() {
        let v = [point(&[0.0, 0.0, 0.0]), point(&[1.0, 0.0, 0.0]), point(&[0.0, 1.0, 0.0]), point(&[0.0, 0.0, 1.0])];
        let w = tetrahedron_barycentric(&v[0], &v[1], &v[2], &v[3], &point(&[0.25, 0.125, 0.5]));
        assert!(close(&w, &[0.125, 0.25, 0.125, 0.5]));
        assert!((tetrahedron_volume(&v[0], &v[1], &v[2], &v[3]) - 1.0 / 6.0).abs() <= EPS);
        assert_eq!(edge_length(&v[1], &v[2]), 2f64.sqrt());
    }
}
