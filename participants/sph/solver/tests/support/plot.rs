//! The chart of surge front against the experiments (`tidelink-plot`: title, labelled axes
//! with units, legend, grid; the font is embedded).

use std::path::Path;
use tidelink_plot::{Chart, Colour, Panel, Series, Style, BLACK, BLUE, GREEN, GREY, RED};

/// One simulated front history, with its legend label.
pub struct Run<'a> {
    pub label: String,
    pub points: &'a [(f64, f64)],
}

/// The surge front Z = x/a against T = t √(2g/a): simulated runs as lines, the three
/// experimental series as markers.
pub fn front_chart(title: &str, runs: &[Run]) -> Chart {
    let colours: [Colour; 3] = [BLUE, RED, GREEN];
    let mut series: Vec<Series> = runs
        .iter()
        .zip(colours.iter().cycle())
        .map(|(r, c)| Series::line(r.label.clone(), r.points.to_vec(), *c))
        .collect();
    let data = |d: &[(f64, f64)]| d.to_vec();
    series.push(
        Series::line("Koshizuka & Oka 1996, experiment", data(&super::KOSHIZUKA_OKA), BLACK).styled(Style::Circles),
    );
    series.push(
        Series::line("Martin & Moyce 1952, a = 2.25 in", data(&super::MARTIN_MOYCE), GREY).styled(Style::Triangles),
    );
    series.push(
        Series::line("Martin & Moyce 1952, a = 1.125 in", data(&super::MARTIN_MOYCE_SMALL), GREY)
            .styled(Style::Crosses),
    );
    Chart::new(title, "T = t √(2g/a)  [–]")
        .panel(Panel::new("Z = x_front / a  [–]", series).y_range(1.0, 5.0))
        .x_range(0.0, 3.5)
        .size(900, 640)
}

/// Writes [`front_chart`] to `path` as a PNG.
pub fn front_png(path: &Path, title: &str, runs: &[Run]) -> Result<(), String> {
    front_chart(title, runs).write_png(path).map_err(|e| e.to_string())
}
