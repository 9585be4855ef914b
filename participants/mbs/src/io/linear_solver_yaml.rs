//! The solver file's `solver:` block: which linear solver takes the Newton saddle system.
//! Our names (`auto`, `dense`, `banded`, `block_tridiagonal`, `sparse`, `block_gauss_seidel`)
//! and Chrono's `solver.type` names that mean the same; Chrono's other solvers are read with
//! a warning that says what runs instead and lists ours.

use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::BTreeMap;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_mbs_solver::solver::linear::{LinearSolverKind, GS_MAX_SWEEPS, GS_TOLERANCE};

/// `solver: {type: ..., ...}`: the type, and Chrono's tuning keys of its iterative solvers
/// (`max_iterations`, `tolerance`, `enable_diagonal_preconditioner`, …), which direct
/// solvers have no use for.
#[derive(Debug, Deserialize)]
pub(crate) struct SolverEntry {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(flatten)]
    rest: BTreeMap<String, IgnoredAny>,
}

/// Chrono's sparse direct solvers: the same solution as our sparse LU, to round-off.
const CHRONO_DIRECT: &[&str] = &["SPARSE_QR", "PARDISO_MKL", "PARDISO_PROJECT", "MUMPS"];
/// Chrono's Krylov solvers: they converge to the solution our direct solve gives.
const CHRONO_KRYLOV: &[&str] = &["GMRES", "MINRES", "BICGSTAB"];
/// Chrono's variational-inequality solvers (NSC contact): without contact they solve the
/// same linear system, which we solve directly.
const CHRONO_VI: &[&str] = &["PSOR", "PSSOR", "PJACOBI", "PMINRES", "BARZILAIBORWEIN", "APGD", "ADMM"];

/// Upper case without `_` or `-`: Chrono's spellings vary (`Barzilai_Borwein`, `BARZILAIBORWEIN`).
fn squash(s: &str) -> String {
    s.chars().filter(|c| *c != '_' && *c != '-').collect::<String>().to_ascii_uppercase()
}

/// The linear solver `entry` names (`auto` when absent), with a warning for each Chrono name
/// that is read as another method and for the tuning keys ignored; an unknown name is an error.
pub(crate) fn linear_solver(
    entry: Option<&SolverEntry>,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Result<LinearSolverKind, Diagnostics> {
    let Some(e) = entry else { return Ok(LinearSolverKind::Auto) };
    let kind = match e.kind.as_deref() {
        None => LinearSolverKind::Auto,
        Some(name) => match LinearSolverKind::parse(name) {
            Some(k) => k,
            None => chrono_name(name, lines, d)?,
        },
    };
    if !e.rest.is_empty() {
        let keys: Vec<String> = e.rest.keys().map(|k| format!("`{k}`")).collect();
        let first = e.rest.keys().next().map(|k| format!("solver.{k}")).unwrap_or_default();
        let why = if kind == LinearSolverKind::BlockGaussSeidel {
            format!("`block_gauss_seidel` sweeps to a relative residual of {GS_TOLERANCE:e}, at most {GS_MAX_SWEEPS} sweeps")
        } else {
            format!("the `{kind}` solver here is direct")
        };
        d.warning(
            lines.loc(&first),
            format!("{} accepted but ignored: tuning of Chrono's iterative solvers; {why}", keys.join(", ")),
        );
    }
    Ok(kind)
}

/// Chrono's `solver.type` `name` read as ours.
fn chrono_name(name: &str, lines: &YamlLines, d: &mut Diagnostics) -> Result<LinearSolverKind, Diagnostics> {
    let s = squash(name);
    let is = |list: &[&str]| list.iter().any(|n| squash(n) == s);
    let at = lines.loc("solver.type");
    if s == "SPARSELU" {
        Ok(LinearSolverKind::SparseLu)
    } else if is(CHRONO_DIRECT) {
        d.warning(at, format!("solver `{name}` is read as `sparse` (sparse LU with a fill-reducing ordering): the same direct solution to round-off"));
        Ok(LinearSolverKind::SparseLu)
    } else if is(CHRONO_KRYLOV) {
        d.warning(at, format!("solver `{name}` (Chrono's Krylov iteration) is not available: the Newton system is solved directly with `auto`, the solution the iteration converges to (ours: {})", LinearSolverKind::NAMES.join(", ")));
        Ok(LinearSolverKind::Auto)
    } else if is(CHRONO_VI) {
        d.warning(at, format!("solver `{name}` (Chrono's solver for contact, NSC) is read as `auto`: there is no contact model, and the Newton system is solved directly (ours: {}; `block_gauss_seidel` iterates per body)", LinearSolverKind::NAMES.join(", ")));
        Ok(LinearSolverKind::Auto)
    } else {
        d.error(
            at,
            format!(
                "linear solver `{name}` is unknown: give one of {} or Chrono's SPARSE_LU, {}, {}, {}",
                LinearSolverKind::NAMES.join(", "),
                CHRONO_DIRECT.join(", "),
                CHRONO_KRYLOV.join(", "),
                CHRONO_VI.join(", ")
            ),
        );
        Err(std::mem::take(d))
    }
}
