//! The external modules of the model's links, as the run drives them: started before the first
//! step, committed when a window is accepted (its output written), rolled back with a
//! checkpoint, shut down and reaped at the end.

use super::MbsAdapter;
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_mbs_solver::{ExternalBodyForce, ExternalLawError, ExternalLink, SharedLaw};

impl MbsAdapter {
    /// Every external law of the system once (links and body-force groups; clones share theirs).
    pub(super) fn external_laws(&mut self) -> Vec<(String, SharedLaw)> {
        let mut laws: Vec<(String, SharedLaw)> = Vec::new();
        for e in self.system.forces.iter_mut() {
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

    /// Runs `op` on every external law; the first error stops the run.
    pub(super) fn each_module(
        &mut self,
        op: &str,
        mut f: impl FnMut(&mut dyn tidelink_mbs_solver::ExternalLaw) -> Result<(), ExternalLawError>,
    ) -> AdapterResult<()> {
        for (name, law) in self.external_laws() {
            let mut guard =
                law.lock().map_err(|_| AdapterError::solver(format!("`{name}`: its module failed earlier")))?;
            f(&mut *guard).map_err(|e| AdapterError::solver(format!("{op} of `{name}`: {e}")))?;
        }
        Ok(())
    }
}
