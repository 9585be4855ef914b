//! Meshes and fields for the mapping tests: polylines, triangulated grids, a circle and a
//! cylinder (curved surfaces for convergence), tetrahedra of a box.

use crate::native::mesh::{Connectivity, MeshState};

/// A mesh of vertices only.
pub fn points(dim: usize, coords: &[f64]) -> MeshState {
    let mut m = MeshState::new(dim, true);
    m.coords = coords.to_vec();
    m
}

/// A 2D polyline through `vertices`, with its edges.
pub fn polyline(vertices: &[[f64; 2]]) -> MeshState {
    let mut m = points(2, &vertices.concat());
    m.connectivity.edges = (1..vertices.len()).map(|i| [i - 1, i]).collect();
    m
}

/// A 3D surface over the unit square: an `nx` x `ny` grid of vertices placed by `at(x, y)`, each
/// cell split into two triangles, with the edges of the triangles.
pub fn grid_surface(nx: usize, ny: usize, at: impl Fn(f64, f64) -> [f64; 3]) -> MeshState {
    let mut coords = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            coords.extend(at(i as f64 / (nx - 1) as f64, j as f64 / (ny - 1) as f64));
        }
    }
    let mut m = points(3, &coords);
    m.connectivity = grid_cells(nx, ny, |i, j| j * nx + i);
    m
}

/// Triangles (two per cell) and their edges (each once) of an `nx` x `ny` grid whose vertex (i, j) has id
/// `id(i, j)`.
fn grid_cells(nx: usize, ny: usize, id: impl Fn(usize, usize) -> usize) -> Connectivity {
    let mut c = Connectivity::default();
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let (a, b, d, e) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            c.triangles.push([a, b, d]);
            c.triangles.push([a, d, e]);
            // Bottom, right and diagonal of every cell; the top row and left column close it.
            c.edges.extend([[a, b], [b, d], [d, a]]);
            if j == ny - 2 {
                c.edges.push([d, e]);
            }
            if i == 0 {
                c.edges.push([e, a]);
            }
        }
    }
    c
}

/// A point of the unit circle.
pub fn polar(angle: f64) -> [f64; 2] {
    [angle.cos(), angle.sin()]
}

/// The unit circle as a closed polyline of `n` edges.
pub fn circle(n: usize) -> MeshState {
    let mut m = points(2, &(0..n).flat_map(|i| polar(i as f64 * std::f64::consts::TAU / n as f64)).collect::<Vec<_>>());
    m.connectivity.edges = (0..n).map(|i| [i, (i + 1) % n]).collect();
    m
}

/// A point of the unit cylinder around the z axis.
pub fn cylinder_point(angle: f64, z: f64) -> [f64; 3] {
    [angle.cos(), angle.sin(), z]
}

/// The unit cylinder, z in [0, 1], with `na` vertices around and `nz` + 1 rings, triangulated.
pub fn cylinder(na: usize, nz: usize) -> MeshState {
    let mut coords = Vec::new();
    for j in 0..=nz {
        for i in 0..na {
            coords.extend(cylinder_point(i as f64 * std::f64::consts::TAU / na as f64, j as f64 / nz as f64));
        }
    }
    let mut m = points(3, &coords);
    m.connectivity = grid_cells(na + 1, nz + 1, |i, j| j * na + i % na);
    m
}

/// The unit cube split into `n`³ cells of six tetrahedra each.
pub fn cube_tetrahedra(n: usize) -> MeshState {
    let id = |i: usize, j: usize, k: usize| (k * (n + 1) + j) * (n + 1) + i;
    let mut coords = Vec::new();
    for k in 0..=n {
        for j in 0..=n {
            for i in 0..=n {
                coords.extend([i as f64 / n as f64, j as f64 / n as f64, k as f64 / n as f64]);
            }
        }
    }
    let mut m = points(3, &coords);
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let c = |di, dj, dk| id(i + di, j + dj, k + dk);
                // Six tetrahedra around the diagonal from corner 000 to 111.
                let (v0, v7) = (c(0, 0, 0), c(1, 1, 1));
                let path = [c(1, 0, 0), c(1, 1, 0), c(0, 1, 0), c(0, 1, 1), c(0, 0, 1), c(1, 0, 1)];
                for s in 0..6 {
                    m.connectivity.tetrahedra.push([v0, path[s], path[(s + 1) % 6], v7]);
                }
            }
        }
    }
    m
}

/// A scalar field sampled at the vertices of `m`.
pub fn field(m: &MeshState, f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    (0..m.vertex_count()).map(|i| f(m.vertex(i))).collect()
}

/// A vector field sampled at the vertices of `m`, interleaved.
pub fn vector_field(m: &MeshState, f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    (0..m.vertex_count()).flat_map(|i| f(m.vertex(i))).collect()
}

/// The largest absolute difference.
pub fn max_error(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// Asserts equal lengths and every difference within `tol`.
pub fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    let e = max_error(a, b);
    assert!(e <= tol, "max difference {e} > {tol}: {a:?} vs {b:?}");
}
