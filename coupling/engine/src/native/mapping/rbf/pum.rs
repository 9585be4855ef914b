//! `rbf-pum-direct` (and the `rbf` alias): a partition of unity. The input vertices are covered
//! by overlapping spherical clusters (see `clustering`); each cluster solves its own small RBF
//! system (polynomial `separate` or `off`), and each output vertex blends the interpolants of
//! the clusters containing it with weights `w_c(y) = φ_C2(|y - centre_c| / radius)` normalised
//! to sum to one (Wendland C2 weights). Cost: about n / vertices-per-cluster clusters of fixed
//! size, so construction and application are O(n) (plus O(n log n) for the spatial index).
//! Each cluster's operator is formed once, at construction, on all cores; an application is
//! then one small dense product per cluster.

use super::basis::Basis;
use super::clustering::{cluster, Clustering, Indexed, MAX_CANDIDATES};
use super::index::PointIndex;
use super::system::{consistent_operator, Point, Singular};
use super::{singular, PumParams, Setup};
use crate::native::mapping::Mapping;
use crate::{CouplingError, Result};
use nalgebra::DMatrix;
use rayon::prelude::*;

/// Total operator entries over all clusters beyond which construction is refused (4 GB).
const MAX_ENTRIES: usize = 500_000_000;

/// Largest cluster (its dense system: 3.2 GB at this size).
const MAX_CLUSTER_INPUTS: usize = 20_000;

/// Clusters up to this size (a dense system of 32 MB) are formed on all cores at once.
const PARALLEL_MAX_INPUTS: usize = 2_000;

/// Outputs are taken strictly inside the radius by this margin, so a vertex on a cluster's rim
/// (weight zero) does not join it.
const RIM: f64 = 1e-14;

/// One cluster: its input and output vertex ids and its weighted local operator.
struct Cluster {
    inputs: Vec<usize>,
    outputs: Vec<usize>,
    /// Rows: outputs (already multiplied by their normalised weight); columns: inputs.
    op: DMatrix<f64>,
}

/// The partition-of-unity mapping (consistent from `src` to `dst`, or its transpose).
pub struct Pum {
    clusters: Vec<Cluster>,
    n_src: usize,
    n_dst: usize,
    conservative: bool,
}

impl Pum {
    /// Number of clusters (for tests).
    #[cfg(test)]
    pub fn cluster_count(&self) -> usize {
        self.clusters.len()
    }
}

/// Builds the partition of unity with centres over `src` and evaluation points `dst`.
pub fn build(s: &Setup, src: &[Point], dst: &[Point], p: PumParams) -> Result<Box<dyn Mapping>> {
    Ok(Box::new(build_pum(s, src, dst, p)?))
}

/// As [`build`], with the concrete type.
pub fn build_pum(s: &Setup, src: &[Point], dst: &[Point], p: PumParams) -> Result<Pum> {
    let mut pum = Pum { clusters: Vec::new(), n_src: src.len(), n_dst: dst.len(), conservative: s.conservative };
    if src.is_empty() || dst.is_empty() {
        return Ok(pum);
    }
    let dim = if s.active[2] { 3 } else { 2 };
    let in_index = PointIndex::new(src);
    let out_index = PointIndex::new(dst);
    let indexed = Indexed { src, in_index: &in_index, out_index: &out_index };
    let clustering = cluster(&indexed, dim, &p).map_err(|count| {
        CouplingError::config(format!(
            "{}: the partition of unity would need {count} candidate clusters (at most {MAX_CANDIDATES}): \
             the mesh's bounding box is huge compared to its vertex spacing (isolated far-away vertices?). \
             Check the mesh or raise vertices-per-cluster.",
            s.what
        ))
    })?;
    if clustering.centres.is_empty() {
        return Err(CouplingError::config(format!(
            "{}: no cluster of the partition of unity holds both input and output vertices: the meshes \
             do not overlap. Check the meshes' positions.",
            s.what
        )));
    }
    let members = members(s, &indexed, &clustering)?;
    let weights = normalised_weights(s, dst, dim, &members, clustering.radius)?;
    pum.clusters = operators(s, src, dst, dim, members, weights)?;
    Ok(pum)
}

/// A cluster before its operator: centre, input and output vertex ids (ascending).
struct Member {
    centre: Point,
    inputs: Vec<usize>,
    outputs: Vec<usize>,
}

/// The clusters holding at least one input and one output vertex, in centre order (the
/// searches run on all cores), with the size limits checked.
fn members(s: &Setup, pts: &Indexed, clustering: &Clustering) -> Result<Vec<Member>> {
    let radius = clustering.radius;
    let found: Vec<Member> = clustering
        .centres
        .par_iter()
        .map(|c| Member {
            centre: *c,
            inputs: pts.in_index.within(c, radius),
            outputs: pts.out_index.within(c, radius - RIM),
        })
        .filter(|m| !m.inputs.is_empty() && !m.outputs.is_empty())
        .collect();
    let mut entries = 0usize;
    for m in &found {
        if m.inputs.len() > MAX_CLUSTER_INPUTS {
            return Err(CouplingError::config(format!(
                "{}: a cluster of the partition of unity holds {} input vertices (at most \
                 {MAX_CLUSTER_INPUTS}); lower vertices-per-cluster.",
                s.what,
                m.inputs.len()
            )));
        }
        entries = entries.saturating_add(m.inputs.len() * m.outputs.len());
        if entries > MAX_ENTRIES {
            return Err(CouplingError::config(format!(
                "{}: the partition of unity would store more than {MAX_ENTRIES} operator entries; \
                 lower vertices-per-cluster or relative-overlap.",
                s.what
            )));
        }
    }
    Ok(found)
}

/// Each cluster's weights at its outputs, `w_c(y) = φ_C2(|y - centre_c| / radius)` divided by
/// their sum over the clusters holding `y`; an output in no cluster is refused.
fn normalised_weights(s: &Setup, dst: &[Point], dim: usize, members: &[Member], radius: f64) -> Result<Vec<Vec<f64>>> {
    let weight_fn = Basis::CompactPolynomial { order: 2, radius };
    let mut sum = vec![0.0; dst.len()];
    let mut count = vec![0usize; dst.len()];
    let mut raw: Vec<Vec<f64>> = Vec::with_capacity(members.len());
    for m in members {
        let c = m.centre;
        let w: Vec<f64> = m
            .outputs
            .iter()
            .map(|&k| weight_fn.eval((0..3).map(|d| (dst[k][d] - c[d]).powi(2)).sum::<f64>().sqrt()))
            .collect();
        for (&k, &wk) in m.outputs.iter().zip(&w) {
            sum[k] += wk;
            count[k] += 1;
        }
        raw.push(w);
    }
    if let Some(k) = count.iter().position(|&c| c == 0) {
        return Err(CouplingError::config(format!(
            "{}: output vertex {k} at {:?} lies in no cluster of the partition of unity: the meshes probably \
             do not match geometrically (export and compare them). If they do, raise vertices-per-cluster \
             (default 50) or relative-overlap (default 0.15), or set project-to-input=\"false\".",
            s.what,
            &dst[k][..dim]
        )));
    }
    for (m, w) in members.iter().zip(&mut raw) {
        for (&k, wk) in m.outputs.iter().zip(w.iter_mut()) {
            // On the rims of all its clusters at once a vertex gets equal weights.
            *wk = if sum[k] > 0.0 { *wk / sum[k] } else { 1.0 / count[k] as f64 };
        }
    }
    Ok(raw)
}

/// The clusters with their weighted operators. They are independent, so they are formed on all
/// cores, unless one holds more than [`PARALLEL_MAX_INPUTS`] inputs (then one at a time, to
/// bound the memory of the dense systems); the first singular cluster in centre order is the
/// one reported.
fn operators(
    s: &Setup,
    src: &[Point],
    dst: &[Point],
    dim: usize,
    members: Vec<Member>,
    weights: Vec<Vec<f64>>,
) -> Result<Vec<Cluster>> {
    let form = |(m, w): (Member, Vec<f64>)| {
        cluster_operator(s, src, dst, &m.inputs, &m.outputs, &w)
            .map(|op| Cluster { inputs: m.inputs, outputs: m.outputs, op })
            .map_err(|_| {
                let base = singular(&s.what);
                CouplingError::config(format!("{} (in the cluster centred at {:?})", base, &m.centre[..dim]))
            })
    };
    let parallel = members.iter().all(|m| m.inputs.len() <= PARALLEL_MAX_INPUTS);
    let formed: Vec<Result<Cluster>> = if parallel {
        members.into_par_iter().zip(weights).map(form).collect()
    } else {
        members.into_iter().zip(weights).map(form).collect()
    };
    formed.into_iter().collect()
}

/// One cluster's weighted operator: the local consistent operator from its `inputs` to its
/// `outputs`, each row scaled by that output's normalised weight.
fn cluster_operator(
    s: &Setup,
    src: &[Point],
    dst: &[Point],
    inputs: &[usize],
    outputs: &[usize],
    weights: &[f64],
) -> std::result::Result<DMatrix<f64>, Singular> {
    let xs: Vec<Point> = inputs.iter().map(|&i| src[i]).collect();
    let ys: Vec<Point> = outputs.iter().map(|&k| dst[k]).collect();
    let mut op = consistent_operator(&s.basis, &xs, &ys, &s.active, s.polynomial)?;
    for (row, &w) in weights.iter().enumerate() {
        op.row_mut(row).scale_mut(w);
    }
    Ok(op)
}

impl Mapping for Pum {
    fn map(&self, input: &[f64], comps: usize) -> Vec<f64> {
        let n_out = if self.conservative { self.n_src } else { self.n_dst };
        let mut out = vec![0.0; n_out * comps];
        for c in &self.clusters {
            let (gather, scatter) = if self.conservative { (&c.outputs, &c.inputs) } else { (&c.inputs, &c.outputs) };
            let x = DMatrix::from_fn(gather.len(), comps, |i, k| input[gather[i] * comps + k]);
            let y = if self.conservative { c.op.tr_mul(&x) } else { &c.op * x };
            for (i, &v) in scatter.iter().enumerate() {
                for k in 0..comps {
                    out[v * comps + k] += y[(i, k)];
                }
            }
        }
        out
    }
}
