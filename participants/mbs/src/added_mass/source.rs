//! Where the MBS participant's added mass comes from (docs/design/added-mass.md §5, §6).
//!
//! The preCICE XML decides whether added mass is on: declaring any `SolidAddedMass...` or
//! `FluidAddedMass...` mesh is the request. It is *dynamic* when this participant also reads
//! data on a `SolidAddedMass...` mesh it provides ([`crate::added_mass::exchange`]). The
//! participant file's `added_mass` entry gives the baseline: a BEMIO file (`h5_filename`) or
//! blocks written out; without it the baseline is zero, which only a dynamic exchange makes
//! useful.
//!
//! **Ordering.** Everything here is in the coupling bodies' order (`precice_adapter_config.bodies`):
//! coupling body `i` takes block `i`, `/body{i+1}` of a file and the `i`-th group of six
//! columns. Nothing depends on where the bodies sit in the model's body list: [`AddedMass`]
//! is built on the coupling bodies' handles, in this order.

use super::SetupError;
use crate::coupling_body::CouplingBody;
use nalgebra::{DMatrix, Vector3};
use tidelink_adapter_core::config::{self, DataKey, PreciceConfig};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{AddedMassFrame, AddedMassSource, AddedMassSpec, ParticipantFile};
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_mbs_solver::added_mass::{AddedMass, Frame, ReferencePoint, DEFAULT_SYMMETRY_TOLERANCE};
use tidelink_mbs_solver::dynamics::body_set::BodySet;

/// A file cg this far (m) from a coupling body's COM, with no reference point given, is
/// worth a warning: the coefficients are taken about the COM.
const CG_WARNING_DISTANCE: f64 = 1e-3;

/// What the preCICE XML asks of this participant's added mass.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AddedMassRequest {
    /// Some `SolidAddedMass...`/`FluidAddedMass...` mesh is declared: added mass is on.
    pub enabled: bool,
    /// The declared added-mass meshes, for messages.
    pub meshes: Vec<String>,
    /// `(mesh, data)` of every datum this participant reads on a `SolidAddedMass...` mesh
    /// it provides: one sender's increments each.
    pub channels: Vec<DataKey>,
    /// `SolidAddedMass...` meshes this participant provides without reading on them (their
    /// vertices are registered all the same).
    pub idle_meshes: Vec<String>,
}

/// Reads the added-mass declarations of participant `name` from the XML.
pub fn request(cfg: &PreciceConfig, name: &str) -> AddedMassRequest {
    let meshes: Vec<String> = cfg
        .meshes
        .iter()
        .filter(|m| config::is_solid_added_mass(&m.name) || config::is_fluid_added_mass(&m.name))
        .map(|m| m.name.clone())
        .collect();
    let mut req = AddedMassRequest { enabled: !meshes.is_empty(), meshes, ..Default::default() };
    let Some(p) = cfg.participant(name) else { return req };
    for r in p.read_data.iter().filter(|u| config::is_solid_added_mass(&u.mesh) && p.provides(&u.mesh)) {
        req.channels.push(DataKey::new(&r.mesh, &r.name));
    }
    for m in p.provide_meshes.iter().filter(|m| config::is_solid_added_mass(&m.name)) {
        if !req.channels.iter().any(|k| k.mesh == m.name) {
            req.idle_meshes.push(m.name.clone());
        }
    }
    req
}

/// What the added mass of a participant is set up with: the baseline coefficients and the
/// `SolidAddedMass...` meshes to couple (with the datum read on each, or none).
#[derive(Debug, Clone)]
pub struct AddedMassSetup {
    /// The coefficients in the mass matrix before any increment arrives.
    pub baseline: AddedMass,
    /// `(mesh, data)`: the meshes whose vertices are registered, in order; `data` is the
    /// sender's increments read on it, `None` for a mesh nobody writes to.
    pub meshes: Vec<(String, Option<String>)>,
}

/// The added mass the XML `cfg` asks of the participant of `file`, for its coupling bodies
/// `coupled` (of `bodies`): `None` when added mass is off; with the warnings (an entry the XML
/// does not enable, name mismatches with a file, ...).
pub fn configure(
    file: &ParticipantFile,
    cfg: &PreciceConfig,
    coupled: &[CouplingBody],
    bodies: &BodySet,
) -> AdapterResult<(Option<AddedMassSetup>, Diagnostics)> {
    let mut warnings = Diagnostics::default();
    let req = request(cfg, &file.adapter.participant_name);
    let xml = cfg.path.display();
    if !req.enabled {
        if let Some(spec) = &file.adapter.added_mass {
            warnings.warning(
                spec.loc.clone(),
                format!(
                    "precice_adapter_config.added_mass is ignored: the preCICE XML ({xml}) declares no \
                     SolidAddedMass.../FluidAddedMass... mesh, and declaring those meshes is what turns added mass on \
                     (preCICE semantics); declare them or remove the entry"
                ),
            );
        }
        return Ok((None, warnings));
    }
    let baseline = match &file.adapter.added_mass {
        Some(spec) => baseline(spec, file, coupled, bodies, &mut warnings)?,
        None if !req.channels.is_empty() => zero(coupled)?,
        None => {
            return Err(AdapterError::config(format!(
                "{}: the preCICE XML ({xml}) declares the added-mass mesh(es) {}, which turns added mass on, but \
                 participant `{}` has no `added_mass` entry and reads no added mass (no <read-data> on a \
                 SolidAddedMass... mesh it provides); add `added_mass: {{h5_filename: <BEMIO file>}}` or `added_mass: \
                 {{density: <kg/m³>, blocks: [...]}}` under precice_adapter_config, or remove the added-mass meshes \
                 from the XML",
                file.adapter.loc,
                req.meshes.join(", "),
                file.adapter.participant_name
            )))
        }
    };
    let mut meshes: Vec<(String, Option<String>)> =
        req.channels.iter().map(|k| (k.mesh.clone(), Some(k.data.clone()))).collect();
    meshes.extend(req.idle_meshes.iter().map(|mesh| (mesh.clone(), None)));
    Ok((Some(AddedMassSetup { baseline, meshes }), warnings))
}

/// Zero coefficients for the coupling bodies (the baseline of a purely dynamic added mass).
pub fn zero(coupled: &[CouplingBody]) -> AdapterResult<AddedMass> {
    let n = coupled.len();
    let am = AddedMass::new(coupled.iter().map(|c| c.handle).collect(), vec![DMatrix::zeros(6, 6 * n); n])
        .and_then(|a| a.with_names(coupled.iter().map(|c| c.name.clone()).collect()))
        .map_err(SetupError::Zero)?;
    Ok(am)
}

/// The baseline added mass the `added_mass` entry describes, for the coupling bodies in order.
pub fn baseline(
    spec: &AddedMassSpec,
    file: &ParticipantFile,
    coupled: &[CouplingBody],
    bodies: &BodySet,
    warnings: &mut Diagnostics,
) -> AdapterResult<AddedMass> {
    if coupled.is_empty() {
        return Err(AdapterError::config(format!(
            "{}: added_mass needs coupling bodies: list them under precice_adapter_config.bodies",
            spec.loc
        )));
    }
    let (blocks, frame, cgs) = match &spec.source {
        AddedMassSource::H5 { filename, loc } => {
            let (blocks, cgs) = from_h5(file, filename, loc, coupled, warnings)?;
            (blocks, Frame::Inertial, Some(cgs))
        }
        AddedMassSource::Inline(inline) => {
            if inline.blocks.len() != coupled.len() {
                return Err(AdapterError::config(format!(
                    "{}: added_mass has {} block(s) but there are {} coupling bodies ({}); give one block per coupling \
                     body, in the order of precice_adapter_config.bodies",
                    spec.loc,
                    inline.blocks.len(),
                    coupled.len(),
                    names(coupled)
                )));
            }
            let mut blocks = Vec::with_capacity(coupled.len());
            for (i, (b, c)) in inline.blocks.iter().zip(coupled).enumerate() {
                if b.name != c.name {
                    return Err(AdapterError::config(format!(
                        "{}: added_mass block {i} is for `{}` but coupling body {i} is `{}`; list the blocks (and \
                         their column groups) in the order of precice_adapter_config.bodies: {}",
                        b.loc,
                        b.name,
                        c.name,
                        names(coupled)
                    )));
                }
                let rows = inline.block_si(i).unwrap_or_default();
                blocks.push(DMatrix::from_fn(6, 6 * coupled.len(), |r, k| rows[r][k]));
            }
            let frame = match inline.frame {
                AddedMassFrame::Inertial => Frame::Inertial,
                AddedMassFrame::Body => Frame::Body,
            };
            (blocks, frame, None)
        }
    };
    let mut blocks = blocks;
    if !spec.body_to_body {
        // Each body keeps its own 6 × 6 block (columns 6i..6i+6 of its row block).
        for (i, b) in blocks.iter_mut().enumerate() {
            for c in (0..b.ncols()).filter(|c| c / 6 != i) {
                b.column_mut(c).fill(0.0);
            }
        }
    }
    let points = reference_points(spec, coupled, bodies, cgs.as_deref(), warnings)?;
    let mut am = AddedMass::new(coupled.iter().map(|c| c.handle).collect(), blocks)
        .and_then(|a| a.with_names(coupled.iter().map(|c| c.name.clone()).collect()))
        .map(|a| a.with_frame(frame))
        .and_then(|a| a.with_reference_points(bodies, &points))
        .map_err(|source| SetupError::Coefficients { loc: spec.loc.clone(), source })?;
    if let AddedMassSource::H5 { filename, loc } = &spec.source {
        let tolerance = spec.symmetry_tolerance.unwrap_or(DEFAULT_SYMMETRY_TOLERANCE);
        am = tolerate_file_asymmetry(am, filename, loc, tolerance, coupled, warnings)?;
    }
    Ok(am)
}

/// BEM coefficients are symmetric only to the accuracy of the solution (RM3's surge-pitch
/// terms differ by up to ~15 % of the diagonal scale): a file's coefficients are used as
/// given, with a warning naming the worst pair when it exceeds `tolerance` (the participant
/// file's `symmetry_tolerance`, 0.01 by default), and only `M + A` positive definiteness is
/// enforced. Inline blocks keep the strict check (an asymmetry there is usually a typo).
fn tolerate_file_asymmetry(
    am: AddedMass,
    filename: &str,
    loc: &Location,
    tolerance: f64,
    coupled: &[CouplingBody],
    warnings: &mut Diagnostics,
) -> AdapterResult<AddedMass> {
    let a = am.coefficients();
    let mut worst = (0.0, 0, 0);
    for k in 0..a.nrows() {
        for l in (k + 1)..a.ncols() {
            let (x, y) = (a[(k, l)], a[(l, k)]);
            let scale = x.abs().max(y.abs()).max((a[(k, k)] * a[(l, l)]).abs().sqrt());
            let rel = if scale > 0.0 { (x - y).abs() / scale } else { 0.0 };
            if rel > worst.0 {
                worst = (rel, k, l);
            }
        }
    }
    let (rel, k, l) = worst;
    if rel <= tolerance {
        return am
            .with_symmetry_tolerance(tolerance.max(DEFAULT_SYMMETRY_TOLERANCE))
            .map_err(|source| SetupError::Coefficients { loc: loc.clone(), source }.into());
    }
    const DOF: [&str; 6] = ["surge", "sway", "heave", "roll", "pitch", "yaw"];
    warnings.warning(
        loc.clone(),
        format!(
            "the added mass of `{filename}` is not symmetric: A({k}, {l}) ({} {} / {} {}) = {} vs A({l}, {k}) = {} \
             (relative {rel:.3}, more than {tolerance}); the coefficients are used as given, and M + A is checked \
             for positive definiteness (`added_mass.symmetry_tolerance` states what a file may have)",
            coupled[k / 6].name,
            DOF[k % 6],
            coupled[l / 6].name,
            DOF[l % 6],
            a[(k, l)],
            a[(l, k)]
        ),
    );
    am.with_symmetry_tolerance(rel * (1.0 + 1e-9))
        .map_err(|source| SetupError::Coefficients { loc: loc.clone(), source }.into())
}

/// Row blocks (6 × 6N) and cgs of a file's first N bodies.
type FileCoefficients = (Vec<DMatrix<f64>>, Vec<Vector3<f64>>);

/// `A∞` of the file's first `coupled.len()` bodies restricted to their columns, and the cgs.
fn from_h5(
    file: &ParticipantFile,
    filename: &str,
    loc: &Location,
    coupled: &[CouplingBody],
    warnings: &mut Diagnostics,
) -> AdapterResult<FileCoefficients> {
    let path = file.data_file(filename);
    let file_error = |source| SetupError::File { loc: loc.clone(), filename: filename.to_string(), source };
    let data = tidelink_bemio::read(&path).map_err(file_error)?;
    let (nf, nc) = (data.bodies.len(), coupled.len());
    if nf < nc {
        return Err(AdapterError::config(format!(
            "{loc}: added_mass.h5_filename {}: the file has {nf} bodies but there are {nc} coupling bodies ({}); \
             coupling body i takes /body{{i+1}} of the file",
            path.display(),
            names(coupled)
        )));
    }
    if nf > nc {
        warnings.warning(
            loc.clone(),
            format!(
                "{} has {nf} bodies and there are {nc} coupling bodies: the coefficients of /body{} to /body{nf} and \
                 their coupling to the coupling bodies are not used",
                path.display(),
                nc + 1
            ),
        );
    }
    let ours: Vec<&str> = coupled.iter().map(|c| c.name.as_str()).collect();
    let name_warnings = tidelink_bemio::check_body_names(&data, &ours, false).map_err(file_error)?;
    for w in name_warnings {
        warnings.warning(
            loc.clone(),
            format!("{w} ({}; check the order of precice_adapter_config.bodies)", path.display()),
        );
    }
    let blocks = data.bodies[..nc].iter().map(|b| b.added_mass_inf.columns(0, 6 * nc).into_owned()).collect();
    Ok((blocks, data.bodies[..nc].iter().map(|b| b.cg).collect()))
}

/// One reference point per coupling body: the listed ones (body reference frame), else the COM.
fn reference_points(
    spec: &AddedMassSpec,
    coupled: &[CouplingBody],
    bodies: &BodySet,
    cgs: Option<&[Vector3<f64>]>,
    warnings: &mut Diagnostics,
) -> AdapterResult<Vec<ReferencePoint>> {
    for p in &spec.reference_points {
        if !coupled.iter().any(|c| c.name == p.name) {
            return Err(AdapterError::config(format!(
                "{}: added_mass.reference_points names `{}`, which is not a coupling body; the coupling bodies are: {}",
                p.loc,
                p.name,
                names(coupled)
            )));
        }
    }
    let mut out = Vec::with_capacity(coupled.len());
    for (i, c) in coupled.iter().enumerate() {
        if let Some(p) = spec.reference_points.iter().find(|p| p.name == c.name) {
            out.push(ReferencePoint::Body(Vector3::from(p.point)));
            continue;
        }
        out.push(ReferencePoint::Com);
        let (Some(cg), Some(body)) = (cgs.and_then(|g| g.get(i)), bodies.get(c.handle)) else { continue };
        let com = body.com_position();
        if (cg - com).norm() > CG_WARNING_DISTANCE {
            warnings.warning(
                spec.loc.clone(),
                format!(
                    "the added mass of `{}` is taken about its centre of mass [{}, {}, {}], but the file's cg of /body{} \
                     is [{}, {}, {}]; if the coefficients were computed about another point, give it in \
                     added_mass.reference_points",
                    c.name,
                    com.x,
                    com.y,
                    com.z,
                    i + 1,
                    cg.x,
                    cg.y,
                    cg.z
                ),
            );
        }
    }
    Ok(out)
}

fn names(coupled: &[CouplingBody]) -> String {
    coupled.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
}
