//! Meshes, fields and declarations for the RBF tests.

use crate::native::mesh::MeshState;
use tidelink_precice_config::diagnostics::Location;
use tidelink_precice_config::{
    BasisFunctionDecl, MappingConstraint, MappingDecl, MappingDirection, MappingMethod, Polynomial, RbfOptions,
};

/// A mesh of dimension `dim` with the given flat coordinates.
pub fn mesh(dim: usize, coords: Vec<f64>) -> MeshState {
    let mut m = MeshState::new(dim, true);
    m.coords = coords;
    m
}

/// A regular grid of `n` points per axis on [0, 1]^dim, shifted by `offset` and perturbed
/// by a deterministic wobble of relative size `wobble` (so two grids do not coincide).
pub fn grid(dim: usize, n: usize, offset: f64, wobble: f64) -> MeshState {
    let h = 1.0 / (n - 1) as f64;
    let mut c = Vec::new();
    let total = n.pow(dim as u32);
    for i in 0..total {
        let mut idx = i;
        for d in 0..dim {
            let k = idx % n;
            idx /= n;
            let w = wobble * h * ((i * 7 + d * 13) as f64).sin();
            c.push(k as f64 * h + offset + w);
        }
    }
    mesh(dim, c)
}

/// A mapping declaration of `method` with one basis function.
pub fn decl(
    method: MappingMethod,
    constraint: MappingConstraint,
    basis: BasisFunctionDecl,
    poly: Polynomial,
) -> MappingDecl {
    MappingDecl {
        method,
        direction: MappingDirection::Read,
        from: "A".into(),
        to: "B".into(),
        constraint,
        basis_functions: vec![basis],
        rbf: RbfOptions { polynomial: poly, ..RbfOptions::default() },
        loc: Location::default(),
    }
}

/// `<basis-function:name>` with its parameters.
pub fn bf(name: &str, shape: Option<f64>, radius: Option<f64>) -> BasisFunctionDecl {
    BasisFunctionDecl { name: name.into(), shape_parameter: shape, support_radius: radius, loc: Location::default() }
}

/// Every basis function with parameters fit for meshes of spacing about 0.1–0.25 on [0, 1]^d.
pub fn all_bases() -> Vec<BasisFunctionDecl> {
    vec![
        bf("thin-plate-splines", None, None),
        bf("multiquadrics", Some(0.5), None),
        bf("inverse-multiquadrics", Some(0.5), None),
        bf("volume-splines", None, None),
        bf("gaussian", Some(3.0), None),
        bf("gaussian", None, Some(1.0)),
        bf("compact-tps-c2", None, Some(0.8)),
        bf("compact-polynomial-c0", None, Some(0.8)),
        bf("compact-polynomial-c2", None, Some(0.8)),
        bf("compact-polynomial-c4", None, Some(0.8)),
        bf("compact-polynomial-c6", None, Some(0.8)),
        bf("compact-polynomial-c8", None, Some(0.8)),
    ]
}

/// The field `f` sampled at the vertices of `m` (one component).
pub fn sample(m: &MeshState, f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
    m.coords.chunks_exact(m.dim).map(f).collect()
}

/// The largest absolute difference of two vectors.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// Builds the mapping `method` from `from` to `to`.
pub fn build(
    method: MappingMethod,
    constraint: MappingConstraint,
    basis: &BasisFunctionDecl,
    poly: Polynomial,
    from: &MeshState,
    to: &MeshState,
) -> Box<dyn crate::native::mapping::Mapping> {
    let d = decl(method, constraint, basis.clone(), poly);
    match super::build(&d, from, to) {
        Ok(m) => m,
        Err(e) => panic!("{}: {e}", basis.name),
    }
}

/// The linear field 1 + 2x - 3y (+ 0.5z) used for reproduction tests.
pub fn linear(p: &[f64]) -> f64 {
    1.0 + 2.0 * p[0] - 3.0 * p[1] + if p.len() > 2 { 0.5 * p[2] } else { 0.0 }
}

/// Sum and first moments (Σv, Σv·x, Σv·y, …) of one-component values on `m`.
pub fn moments(m: &MeshState, v: &[f64]) -> Vec<f64> {
    let mut out = vec![v.iter().sum::<f64>()];
    for d in 0..m.dim {
        out.push(m.coords.chunks_exact(m.dim).zip(v).map(|(p, v)| p[d] * v).sum());
    }
    out
}

/// `m` shrunk into [0.1, 0.9]^d (read points inside the input meshes' square).
pub fn inner(m: &MeshState) -> MeshState {
    mesh(m.dim, m.coords.iter().map(|c| 0.1 + 0.8 * c).collect())
}
