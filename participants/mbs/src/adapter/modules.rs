//! The external modules of the model's links, as the run drives them: started before the first
//! step, committed when a window is accepted (its output written), rolled back with a
//! checkpoint, shut down and reaped at the end.

use super::MbsAdapter;
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_mbs_solver::{ExternalLawError, ExternalLink, SharedLaw};

impl MbsAdapter {
    /// Every external law of the system once (links share nothing, but clones could).
    pub(super) fn external_laws(&mut self) -> Vec<(String, SharedLaw)> {
        let mut laws: Vec<(String, SharedLaw)> = Vec::new();
        for e in self.system.forces.iter_mut() {
            let name = e.name().to_string();
            if let Some(link) = e.as_any_mut().downcast_ref::<ExternalLink>() {
                if !laws.iter().any(|(_, l)| std::sync::Arc::ptr_eq(l, link.law())) {
                    laws.push((name, link.law().clone()));
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
            f(&mut *guard).map_err(|e| AdapterError::solver(format!("{op} of link `{name}`: {e}")))?;
        }
        Ok(())
    }
}
