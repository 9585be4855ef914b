//! Gravity must agree between participant files: each participant reads its own and
//! nothing reconciles them, so a mismatch gives a plausible but wrong result (docs/design/participants.md §10).

use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::ParticipantFile;

/// An error for every file whose `simulation.gravity` differs from the first file that sets it.
pub fn check(files: &[ParticipantFile]) -> Diagnostics {
    let mut d = Diagnostics::default();
    let set: Vec<(&ParticipantFile, [f64; 3], Location)> = files
        .iter()
        .filter_map(|f| {
            let g = f.simulation.gravity?;
            let loc = f.simulation.gravity_loc.clone().unwrap_or_else(|| Location::new(&f.path, 0));
            Some((f, g, loc))
        })
        .collect();
    let Some((first, g0, loc0)) = set.first() else { return d };
    for (f, g, loc) in &set[1..] {
        if !same(*g0, *g) {
            let msg = format!(
                "gravity {} of participant `{}` differs from {} of `{}` ({loc0}); nothing reconciles \
                 participant settings, so set the same gravity in both files",
                show(*g),
                f.adapter.participant_name,
                show(*g0),
                first.adapter.participant_name,
            );
            d.error(loc.clone(), msg);
        }
    }
    d
}

fn same(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12 * (1.0 + x.abs().max(y.abs())))
}

fn show(g: [f64; 3]) -> String {
    format!("[{}, {}, {}]", g[0], g[1], g[2])
}
