//! Plots a body's CSV output (height z, vertical velocity, vertical coupling force against
//! time, one panel each) to a PNG with title, axis labels and legend. The title names the case
//! from the file's provenance line, the body from the file name.
//!
//! `cargo run --release -p tidelink-mbs --example plot_csv -- <body.csv> <plot.png>`

use anyhow::{bail, Context, Result};
use std::path::PathBuf;

fn main() -> Result<()> {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let [csv, png] = args.as_slice() else { bail!("usage: plot_csv <body.csv> <plot.png>") };
    let (provenance, rows) =
        tidelink_mbs::io::output::read_with_provenance(csv).with_context(|| format!("reading {}", csv.display()))?;
    let case = provenance.map_or_else(|| "unnamed case".to_string(), |p| p.case);
    let body = csv.file_stem().map_or_else(|| "body".into(), |s| s.to_string_lossy().into_owned());
    tidelink_mbs::io::plot::plot_rows(png, &case, &body, &rows)?;
    println!("plot written to {} (top: z, middle: v_z, bottom: F_z)", png.display());
    Ok(())
}
