//! Plots a body's CSV output (height z, vertical velocity, vertical coupling force against
//! time; three panels, no text) to a PNG.
//!
//! `cargo run --release -p tidelink-mbs --example plot_csv -- <body.csv> <plot.png>`

use anyhow::{bail, Context, Result};
use std::path::PathBuf;

fn main() -> Result<()> {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let [csv, png] = args.as_slice() else { bail!("usage: plot_csv <body.csv> <plot.png>") };
    let rows = tidelink_mbs::io::output::read(csv).with_context(|| format!("reading {}", csv.display()))?;
    tidelink_mbs::io::plot::plot_rows(png, &rows, 900, 700).map_err(anyhow::Error::msg)?;
    println!("plot written to {} (top: z, middle: vz, bottom: Fz)", png.display());
    Ok(())
}
