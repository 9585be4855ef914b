//! The RBF mappings' refusals: clear messages, no panics.

use super::test_support::*;
use tidelink_precice_config::{MappingConstraint as C, MappingMethod as M, Polynomial as P};

fn err(
    d: &tidelink_precice_config::MappingDecl,
    a: &crate::native::mesh::MeshState,
    b: &crate::native::mesh::MeshState,
) -> String {
    match super::build(d, a, b) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn duplicated_vertices_make_the_system_singular() {
    let a = mesh(2, vec![0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    let b = grid(2, 3, 0.0, 0.0);
    for (basis, poly) in [
        (bf("compact-polynomial-c2", None, Some(2.0)), P::Separate),
        (bf("thin-plate-splines", None, None), P::On),
        (bf("gaussian", Some(1.0), None), P::Off),
    ] {
        let d = decl(M::RbfGlobalDirect, C::Consistent, basis, poly);
        let e = err(&d, &a, &b);
        assert!(e.contains("not invertible") && e.contains("duplicated vertices") && e.contains("\"A\""), "{e}");
    }
}

#[test]
fn polynomial_on_is_refused_for_positive_definite_bases_and_the_partition_of_unity() {
    let (a, b) = (grid(2, 4, 0.0, 0.0), grid(2, 3, 0.0, 0.0));
    let d = decl(M::RbfGlobalDirect, C::Consistent, bf("gaussian", Some(1.0), None), P::On);
    assert!(err(&d, &a, &b).contains("polynomial=\"on\") is not supported for <basis-function:gaussian>"));
    let d = decl(M::RbfPumDirect, C::Consistent, bf("thin-plate-splines", None, None), P::On);
    assert!(err(&d, &a, &b).contains("partition of unity"));
}

#[test]
fn other_refusals_name_the_problem() {
    let (a, b) = (grid(2, 4, 0.0, 0.0), grid(2, 3, 0.0, 0.0));
    let tps = bf("thin-plate-splines", None, None);
    let mut d = decl(M::RbfGlobalDirect, C::Consistent, tps.clone(), P::Separate);
    d.rbf.executor = "cuda".into();
    assert!(err(&d, &a, &b).contains("<executor:cuda> is not available"));
    let mut d = decl(M::RbfGlobalDirect, C::Consistent, tps.clone(), P::Separate);
    d.rbf.dead_axes = [true, true, false];
    assert!(err(&d, &a, &b).contains("every axis is dead"));
    let d = decl(M::RbfGlobalDirect, C::ScaledConsistentSurface, tps.clone(), P::Separate);
    assert!(err(&d, &a, &b).contains("integrates over edges"), "scaled needs elements: {}", err(&d, &a, &b));
    let d = decl(M::RbfGlobalDirect, C::Consistent, bf("compact-polynomial-c6", None, None), P::Separate);
    assert!(err(&d, &a, &b).contains("support-radius"));
    let mut d = decl(M::RbfPumDirect, C::Consistent, tps.clone(), P::Separate);
    d.rbf.relative_overlap = 1.0;
    assert!(err(&d, &a, &b).contains("relative-overlap"));
    let d = decl(M::RbfGlobalDirect, C::Consistent, tps, P::Separate);
    assert!(err(&d, &a, &grid(3, 2, 0.0, 0.0)).contains("dimensions 2 and 3"));
}

#[test]
fn empty_meshes_map_to_zeros() {
    let (a, e) = (grid(2, 4, 0.0, 0.0), mesh(2, vec![]));
    for method in [M::RbfGlobalDirect, M::RbfGlobalIterative, M::RbfPumDirect] {
        let d = decl(method.clone(), C::Consistent, bf("thin-plate-splines", None, None), P::Separate);
        assert_eq!(super::build(&d, &e, &a).unwrap().map(&[], 1), vec![0.0; 16]);
        assert!(super::build(&d, &a, &e).unwrap().map(&[1.0; 16], 1).is_empty());
    }
}

#[test]
fn a_partition_of_unity_with_huge_clusters_is_refused_before_assembly() {
    // 30 000 inputs with vertices-per-cluster 100 000: a single cluster of 30 000 vertices
    // would need a 7 GB dense system; refused before it is allocated.
    let a = mesh(2, (0..30_000).flat_map(|i| [(i % 200) as f64, (i / 200) as f64]).collect());
    let b = grid(2, 3, 0.0, 0.0);
    let mut d = decl(M::RbfPumDirect, C::Consistent, bf("thin-plate-splines", None, None), P::Separate);
    d.rbf.vertices_per_cluster = 100_000;
    assert!(err(&d, &a, &b).contains("lower vertices-per-cluster"));
}
