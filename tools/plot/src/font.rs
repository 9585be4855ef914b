//! The embedded font, registered once with plotters under the family name the charts use.

use crate::PlotError;
use plotters::style::FontStyle;
use std::sync::OnceLock;

/// The family name every text of a chart is drawn in.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers DejaVu Sans as [`FAMILY`] (once per process).
pub(crate) fn register() -> Result<(), PlotError> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).is_ok());
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}
