//! The mapping cases shared by the end-to-end tests (`engine_mapping.rs`, native engine) and
//! the differential tests (`mapping_differential.rs`, native against libprecice): two
//! participants, A with an input mesh with elements, B with points at another resolution;
//! B maps A's scalar `T` onto its points (a consistent read mapping) and its vector `F` onto
//! A's mesh (a conservative write mapping), both with the method under test. The
//! nearest-neighbor-gradient cases map consistently both ways: A writes T's gradients, B a
//! linear vector field F with its gradients (each when the engine asks for them).

use std::fmt::Write as _;
use tidelink_coupling::{Coupling, CouplingError};

/// A mesh: flat coordinates and elements (vertex ids).
#[derive(Debug, Clone, Default)]
pub struct Mesh {
    pub dim: usize,
    pub coords: Vec<f64>,
    pub edges: Vec<[i32; 2]>,
    pub triangles: Vec<[i32; 3]>,
    pub tetrahedra: Vec<[i32; 4]>,
}

impl Mesh {
    pub fn len(&self) -> usize {
        self.coords.len() / self.dim
    }
    pub fn vertex(&self, i: usize) -> &[f64] {
        &self.coords[i * self.dim..(i + 1) * self.dim]
    }
}

/// One case: A's mesh, B's points, the two mapping tags and what the method guarantees.
#[allow(dead_code)] // each of the two test files reads only some of the fields
pub struct Case {
    pub name: &'static str,
    pub a: Mesh,
    pub b: Mesh,
    /// `<mapping:… direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"…>` and its children.
    pub read: String,
    /// The conservative write mapping from B-Mesh to A-Mesh.
    pub write: String,
    /// The consistent mapping reproduces linear fields exactly at B's points (which lie on A's elements).
    pub exact_for_linear: bool,
    /// The conservative mapping keeps the total force (every method here but an RBF without polynomial).
    pub conserves_sum: bool,
    /// The write mapping is consistent (nearest-neighbor-gradient, which has no conservative
    /// form): B writes the linear vector field [`linear_vector`], which A gets exactly.
    pub consistent_write: bool,
    /// Largest |native − libprecice| accepted, relative to the largest value.
    pub differential_tol: f64,
    /// The case libprecice runs in its place, where it cannot run this one.
    pub precice_reference: Option<&'static str>,
}

/// A linear field: what every exact method reproduces.
pub fn linear(x: &[f64]) -> f64 {
    1.0 + x[0] - 2.0 * x[1] + x.get(2).map_or(0.0, |z| 3.0 * z)
}

/// The gradient of [`linear`].
pub fn linear_gradient(x: &[f64]) -> Vec<f64> {
    [1.0, -2.0, 3.0][..x.len()].to_vec()
}

/// A smooth field with curvature, for the differential tests.
#[allow(dead_code)] // used by mapping_differential.rs only
pub fn smooth(x: &[f64]) -> f64 {
    linear(x) + 0.3 * (3.0 * x[0]).sin() * (2.0 * x[1]).cos()
}

/// The gradient of [`smooth`].
#[allow(dead_code)] // used by mapping_differential.rs only
pub fn smooth_gradient(x: &[f64]) -> Vec<f64> {
    let (s, c) = ((3.0 * x[0]).sin(), (2.0 * x[1]).cos());
    let mut g = linear_gradient(x);
    g[0] += 0.9 * (3.0 * x[0]).cos() * c;
    g[1] -= 0.6 * s * (2.0 * x[1]).sin();
    g
}

/// A scalar field A writes as T, with the gradient it writes where the engine asks for it.
#[derive(Clone, Copy)]
pub struct Field {
    pub value: fn(&[f64]) -> f64,
    pub gradient: fn(&[f64]) -> Vec<f64>,
}

/// [`linear`] with its gradient.
pub const LINEAR: Field = Field { value: linear, gradient: linear_gradient };

/// [`smooth`] with its gradient.
#[allow(dead_code)] // used by mapping_differential.rs only
pub const SMOOTH: Field = Field { value: smooth, gradient: smooth_gradient };

/// Component `c` of the linear vector field B writes as F where gradients are required:
/// [`linear`] shifted by `c`, so every component has the gradient [`linear_gradient`].
pub fn linear_vector(x: &[f64], c: usize) -> f64 {
    linear(x) + c as f64
}

/// The force B writes at its vertex `i` (component `c`): varied, so that sums mean something.
pub fn force(i: usize, c: usize) -> f64 {
    1.0 + 0.5 * c as f64 + ((i * 7 + c * 3) % 11) as f64 * 0.1
}

/// Points on the segment, triangle or tetrahedron `corners` at the barycentric weights `w`.
fn at(mesh: &Mesh, corners: &[i32], w: &[f64]) -> Vec<f64> {
    (0..mesh.dim).map(|k| corners.iter().zip(w).map(|(&c, w)| w * mesh.vertex(c as usize)[k]).sum()).collect()
}

/// A curve y = 0.2 x² in 2D with `n` vertices and its edges.
pub fn curve(n: usize) -> Mesh {
    let mut m = Mesh { dim: 2, ..Default::default() };
    for i in 0..n {
        let x = i as f64 / (n - 1) as f64;
        m.coords.extend([x, 0.2 * x * x]);
    }
    m.edges = (0..n as i32 - 1).map(|i| [i, i + 1]).collect();
    m
}

/// The surface z = 0.2 x y over the unit square: an `n`×`n` grid, two triangles per cell.
pub fn surface(n: usize) -> Mesh {
    let mut m = Mesh { dim: 3, ..Default::default() };
    for j in 0..n {
        for i in 0..n {
            let (x, y) = (i as f64 / (n - 1) as f64, j as f64 / (n - 1) as f64);
            m.coords.extend([x, y, 0.2 * x * y]);
        }
    }
    let id = |i: usize, j: usize| (j * n + i) as i32;
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            m.triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            m.triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    m
}

/// The unit square as an `n`×`n` grid of triangles (a 2D volume mesh).
pub fn square(n: usize) -> Mesh {
    let mut m = surface(n);
    m.coords = m.coords.chunks(3).flat_map(|p| [p[0], p[1]]).collect();
    m.dim = 2;
    m
}

/// The unit cube as an `n`³ grid, every cell cut into the six tetrahedra of Kuhn's
/// triangulation (one per order of the three axes).
pub fn cube(n: usize) -> Mesh {
    let mut m = Mesh { dim: 3, ..Default::default() };
    let h = 1.0 / (n - 1) as f64;
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                m.coords.extend([i as f64 * h, j as f64 * h, k as f64 * h]);
            }
        }
    }
    let id = |p: [usize; 3]| (p[2] * n * n + p[1] * n + p[0]) as i32;
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for k in 0..n - 1 {
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                for o in orders {
                    let mut p = [i, j, k];
                    let mut t = [id(p); 4];
                    for (s, axis) in o.iter().enumerate() {
                        p[*axis] += 1;
                        t[s + 1] = id(p);
                    }
                    m.tetrahedra.push(t);
                }
            }
        }
    }
    m
}

/// `m` with x and y stretched unevenly (x + 0.1x², y + 0.05y³): no two vertices are mirror
/// images, so no partition-of-unity grid centre is exactly equally near two of them. Such
/// ties are decided by libprecice's search-tree order, which the native engine does not copy
/// (it takes the lowest id), so the differential cases avoid them.
pub fn warped(mut m: Mesh) -> Mesh {
    for p in m.coords.chunks_mut(m.dim) {
        p[0] += 0.1 * p[0] * p[0];
        p[1] += 0.05 * p[1] * p[1] * p[1];
    }
    m
}

/// Points of B on A's elements (every `stride`-th element, at fixed inner weights), so that
/// a method exact on an element is exact at them. The weights are uneven so that no point is
/// equally far from two vertices: nearest-neighbor ties are the search tree's choice in
/// libprecice, not a rule.
pub fn points_on(a: &Mesh, stride: usize) -> Mesh {
    let mut b = Mesh { dim: a.dim, ..Default::default() };
    let w2 = [0.33, 0.67];
    let w3 = [0.17, 0.52, 0.31];
    let w4 = [0.11, 0.19, 0.29, 0.41];
    if !a.tetrahedra.is_empty() {
        a.tetrahedra.iter().step_by(stride).for_each(|t| b.coords.extend(at(a, t, &w4)));
    } else if !a.triangles.is_empty() {
        a.triangles.iter().step_by(stride).for_each(|t| b.coords.extend(at(a, t, &w3)));
    } else {
        a.edges.iter().step_by(stride).for_each(|e| b.coords.extend(at(a, e, &w2)));
    }
    b
}

/// The two mapping tags of method `method` (attributes `attrs`, children `inner`).
fn tags(method: &str, attrs: &str, inner: &str) -> (String, String) {
    let tag = |dir: &str, from: &str, to: &str, constraint: &str| {
        format!(
            r#"<mapping:{method} direction="{dir}" from="{from}" to="{to}" constraint="{constraint}"{attrs}>{inner}</mapping:{method}>"#
        )
    };
    (tag("read", "A-Mesh", "B-Mesh", "consistent"), tag("write", "B-Mesh", "A-Mesh", "conservative"))
}

fn case(name: &'static str, a: Mesh, stride: usize, method: &str, attrs: &str, inner: &str) -> Case {
    let b = points_on(&a, stride);
    let (read, write) = tags(method, attrs, inner);
    Case {
        name,
        a,
        b,
        read,
        write,
        exact_for_linear: true,
        conserves_sum: true,
        consistent_write: false,
        differential_tol: 1e-12,
        precice_reference: None,
    }
}

/// A nearest-neighbor-gradient case: consistent in both directions (B's points on every
/// `stride`-th element of `a`), exact for linear fields both ways.
fn nearest_neighbor_gradient(name: &'static str, a: Mesh, stride: usize) -> Case {
    let method = "nearest-neighbor-gradient";
    let tag = |dir: &str, from: &str, to: &str| {
        format!(r#"<mapping:{method} direction="{dir}" from="{from}" to="{to}" constraint="consistent"/>"#)
    };
    Case {
        read: tag("read", "A-Mesh", "B-Mesh"),
        write: tag("write", "B-Mesh", "A-Mesh"),
        conserves_sum: false,
        consistent_write: true,
        ..case(name, a, stride, method, "", "")
    }
}

/// Every case. Exact methods are compared with libprecice to 1e-12 (the same arithmetic up
/// to operation order); RBF methods to the tolerance their linear solve allows (see each).
pub fn cases() -> Vec<Case> {
    let tps = "<basis-function:thin-plate-splines/>";
    let mut v = vec![
        Case { exact_for_linear: false, ..case("nearest_neighbor_3d", surface(6), 3, "nearest-neighbor", "", "") },
        // Warped, so that no vertex of either mesh is equally near two of the other's: the
        // write direction searches B's points from A's vertices.
        nearest_neighbor_gradient("nearest_neighbor_gradient_2d", warped(square(5)), 1),
        nearest_neighbor_gradient("nearest_neighbor_gradient_3d", warped(surface(6)), 3),
        case("nearest_projection_3d", surface(6), 3, "nearest-projection", "", ""),
        case("nearest_projection_2d", curve(9), 1, "nearest-projection", "", ""),
        case("linear_cell_interpolation_2d", square(5), 3, "linear-cell-interpolation", "", ""),
        case("linear_cell_interpolation_3d", cube(3), 5, "linear-cell-interpolation", "", ""),
        case("rbf_global_direct_tps", surface(6), 3, "rbf-global-direct", "", tps),
        case("rbf_global_direct_tps_on", surface(6), 3, "rbf-global-direct", r#" polynomial="on""#, tps),
        case(
            "rbf_global_direct_compact_c2",
            surface(6),
            3,
            "rbf-global-direct",
            "",
            r#"<basis-function:compact-polynomial-c2 support-radius="0.6"/>"#,
        ),
        case(
            "rbf_global_direct_gaussian",
            surface(6),
            3,
            "rbf-global-direct",
            "",
            r#"<basis-function:gaussian shape-parameter="3"/>"#,
        ),
        case(
            "rbf_global_direct_multiquadrics",
            surface(6),
            3,
            "rbf-global-direct",
            "",
            r#"<basis-function:multiquadrics shape-parameter="0.5"/>"#,
        ),
        case(
            "rbf_global_direct_c4",
            surface(6),
            3,
            "rbf-global-direct",
            "",
            r#"<basis-function:compact-polynomial-c4 support-radius="0.7"/>"#,
        ),
        // libprecice solves this one with PETSc only (not in the build the tests use): it is
        // compared with libprecice's direct solve of the same system.
        Case {
            precice_reference: Some("rbf_global_direct_c4"),
            ..case(
                "rbf_global_iterative_c4",
                surface(6),
                3,
                "rbf-global-iterative",
                r#" solver-rtol="1e-12""#,
                r#"<basis-function:compact-polynomial-c4 support-radius="0.7"/>"#,
            )
        },
        case(
            "rbf_pum_direct",
            surface(8),
            3,
            "rbf-pum-direct",
            r#" vertices-per-cluster="12" relative-overlap="0.3""#,
            r#"<basis-function:compact-polynomial-c4 support-radius="0.5"/>"#,
        ),
        case("rbf_alias", surface(6), 3, "rbf", "", tps),
        // The partition of unity with many clusters (256 vertices, about 20 per cluster), on
        // a 2D mesh, without projecting the centres, without polynomial, and the alias above
        // its single-cluster threshold (200 vertices for its 100 per cluster). Those that
        // project centres onto regular meshes are warped (see `warped`).
        case(
            "rbf_pum_many_clusters",
            warped(surface(16)),
            3,
            "rbf-pum-direct",
            r#" vertices-per-cluster="20""#,
            r#"<basis-function:compact-polynomial-c2 support-radius="0.4"/>"#,
        ),
        case("rbf_pum_2d", warped(square(14)), 3, "rbf-pum-direct", r#" vertices-per-cluster="20""#, tps),
        case(
            "rbf_pum_unprojected",
            surface(12),
            3,
            "rbf-pum-direct",
            r#" vertices-per-cluster="15" project-to-input="false""#,
            tps,
        ),
        Case {
            exact_for_linear: false,
            conserves_sum: false,
            ..case(
                "rbf_pum_polynomial_off",
                surface(12),
                3,
                "rbf-pum-direct",
                r#" vertices-per-cluster="15" polynomial="off""#,
                r#"<basis-function:gaussian shape-parameter="4"/>"#,
            )
        },
        case("rbf_alias_clusters", warped(surface(16)), 3, "rbf", "", tps),
    ];
    // The RBF systems are solved by different factorisations: the results agree to about
    // ε·κ (κ the condition number of the interpolation matrix, up to 1e6–1e8 for these
    // bases on these meshes), so 1e-7 of the field's range; the iterative solve stops at
    // its relative tolerance (1e-12 here), and the partition of unity blends local solves.
    for c in v.iter_mut().filter(|c| c.name.starts_with("rbf")) {
        c.differential_tol = 1e-7;
    }
    // Off the polynomial-free bases nothing is exact for a linear field: none here.
    v
}

/// The preCICE configuration of `case`: A writes T and reads F on its mesh; B reads T and
/// writes F on its points; serial-explicit, two windows of 1 s, A first.
pub fn xml(case: &Case) -> String {
    let dim = case.a.dim;
    // Gradient data are experimental API in preCICE.
    let experimental = if case.consistent_write { r#" experimental="true""# } else { "" };
    let mut x = String::new();
    let _ = write!(
        x,
        r#"<?xml version="1.0"?>
<precice-configuration{experimental}>
  <data:scalar name="T"/>
  <data:vector name="F"/>
  <mesh name="A-Mesh" dimensions="{dim}"><use-data name="T"/><use-data name="F"/></mesh>
  <mesh name="B-Mesh" dimensions="{dim}"><use-data name="T"/><use-data name="F"/></mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
    <write-data name="T" mesh="A-Mesh"/>
    <read-data name="F" mesh="A-Mesh"/>
  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
    <read-data name="T" mesh="B-Mesh"/>
    <write-data name="F" mesh="B-Mesh"/>
    {}
    {}
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="{{dir}}"/>
  <coupling-scheme:serial-explicit>
    <participants first="A" second="B"/>
    <max-time-windows value="2"/>
    <time-window-size value="1"/>
    <exchange data="T" mesh="A-Mesh" from="A" to="B"/>
    <exchange data="F" mesh="A-Mesh" from="B" to="A"/>
  </coupling-scheme:serial-explicit>
</precice-configuration>
"#,
        case.read, case.write
    );
    x
}

/// What A plays: its mesh (with the elements when the run needs them), T = `field` in both
/// windows (with its gradients when required); returns the F it reads at the start of window
/// 2 (B's mapped forces or field).
pub fn play_a(p: &mut dyn Coupling, case: &Case, field: Field) -> Result<Vec<f64>, CouplingError> {
    let (m, a) = ("A-Mesh", &case.a);
    let mut ids = vec![0; a.len()];
    p.set_mesh_vertices(m, &a.coords, &mut ids)?;
    if p.requires_mesh_connectivity_for(m)? {
        let flat = |v: &[i32]| v.iter().map(|&i| ids[i as usize]).collect::<Vec<_>>();
        p.set_mesh_edges(m, &flat(a.edges.as_flattened()))?;
        p.set_mesh_triangles(m, &flat(a.triangles.as_flattened()))?;
        if a.dim == 3 {
            p.set_mesh_tetrahedra(m, &flat(a.tetrahedra.as_flattened()))?;
        }
    }
    p.initialize()?;
    let t: Vec<f64> = (0..a.len()).map(|i| (field.value)(a.vertex(i))).collect();
    let gradients = p.requires_gradient_data_for(m, "T")?;
    let g: Vec<f64> = (0..a.len()).flat_map(|i| (field.gradient)(a.vertex(i))).collect();
    p.write_data(m, "T", &ids, &t)?;
    if gradients {
        p.write_gradient_data(m, "T", &ids, &g)?;
    }
    p.advance(1.0)?;
    let mut f = vec![0.0; a.len() * a.dim];
    p.read_data(m, "F", &ids, 0.0, &mut f)?;
    p.write_data(m, "T", &ids, &t)?;
    if gradients {
        p.write_gradient_data(m, "T", &ids, &g)?;
    }
    p.advance(1.0)?;
    p.finalize()?;
    Ok(f)
}

/// What B plays: its points; returns the T it reads in window 1 (A's field mapped
/// consistently), after writing [`force`] there (or, where F's gradients are required,
/// [`linear_vector`] with its gradients: per vertex, per component, [`linear_gradient`]).
pub fn play_b(p: &mut dyn Coupling, case: &Case) -> Result<Vec<f64>, CouplingError> {
    let (m, b) = ("B-Mesh", &case.b);
    let mut ids = vec![0; b.len()];
    p.set_mesh_vertices(m, &b.coords, &mut ids)?;
    p.initialize()?;
    let mut t = vec![0.0; b.len()];
    p.read_data(m, "T", &ids, 1.0, &mut t)?;
    let d = b.dim;
    if p.requires_gradient_data_for(m, "F")? {
        let f: Vec<f64> = (0..b.len() * d).map(|k| linear_vector(b.vertex(k / d), k % d)).collect();
        let g: Vec<f64> = (0..b.len() * d).flat_map(|k| linear_gradient(b.vertex(k / d))).collect();
        p.write_data(m, "F", &ids, &f)?;
        p.write_gradient_data(m, "F", &ids, &g)?;
    } else {
        let f: Vec<f64> = (0..b.len() * d).map(|k| force(k / d, k % d)).collect();
        p.write_data(m, "F", &ids, &f)?;
    }
    p.advance(1.0)?;
    p.advance(1.0)?;
    p.finalize()?;
    Ok(t)
}
