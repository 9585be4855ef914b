//! The external modules of the model's links, as the run drives them: started before the first
//! step, committed when a window is accepted (its output written), rolled back with a
//! checkpoint, shut down and reaped at the end. They live in the system's force elements; this
//! finds each once and runs an operation on it.

use crate::error::Error;
use tidelink_mbs_solver::system::MultibodySystem;
use tidelink_mbs_solver::{ExternalBodyForce, ExternalLaw, ExternalLawError, ExternalLink, SharedLaw};

/// Every external law of `system` once (links and body-force groups; clones share theirs).
fn external_laws(system: &mut MultibodySystem) -> Vec<(String, SharedLaw)> {
    let mut laws: Vec<(String, SharedLaw)> = Vec::new();
    for e in system.forces.iter_mut() {
        let name = e.name().to_string();
        let any = e.as_any_mut();
        let law = match any.downcast_ref::<ExternalLink>() {
            Some(link) => Some(link.law()),
            // A body-force group's law sits on its first element.
            None => any.downcast_ref::<ExternalBodyForce>().and_then(|f| f.law()),
        };
        if let Some(law) = law {
            if !laws.iter().any(|(_, l)| std::sync::Arc::ptr_eq(l, law)) {
                laws.push((name, law.clone()));
            }
        }
    }
    laws
}

/// Runs `f` (doing `op`, for messages) on every external law of `system`; the first error
/// stops the run.
pub(super) fn each_module(
    system: &mut MultibodySystem,
    op: &'static str,
    mut f: impl FnMut(&mut dyn ExternalLaw) -> Result<(), ExternalLawError>,
) -> Result<(), Error> {
    for (name, law) in external_laws(system) {
        let Ok(mut guard) = law.lock() else { return Err(Error::ModuleFailedEarlier { name }) };
        f(&mut *guard).map_err(|source| Error::Module { op, name, source })?;
    }
    Ok(())
}
