//! The PNG of surge front against the experiments: title, labelled axes with units, legend.
//! Text needs a TrueType font; DejaVu Sans (Debian `fonts-dejavu-core`, installed by
//! scripts/setup.sh) is looked for in the usual places, or at `TIDELINK_PLOT_FONT`.

use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];

/// Registers the font once; the error says where it was looked for.
fn font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let env = std::env::var("TIDELINK_PLOT_FONT").ok();
        let candidates: Vec<String> = env.into_iter().chain(FONT_PATHS.iter().map(|s| s.to_string())).collect();
        for path in &candidates {
            if let Ok(bytes) = std::fs::read(path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                return plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                    .map_err(|_| format!("{path}: not a usable font"));
            }
        }
        Err(format!(
            "no TrueType font found (looked at {candidates:?}); install fonts-dejavu-core or set TIDELINK_PLOT_FONT"
        ))
    })
    .clone()
}

/// One simulated front history, with its legend label.
pub struct Run<'a> {
    pub label: String,
    pub points: &'a [(f64, f64)],
}

/// Draws the surge front Z = x/a against T = t √(2g/a): simulated runs as lines, the three
/// experimental series as markers.
pub fn front_png(path: &Path, title: &str, runs: &[Run]) -> Result<(), String> {
    font()?;
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let root = BitMapBackend::new(path, (900, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..3.5f64, 1.0..4.5f64)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc("T = t √(2g/a)  [–]")
        .y_desc("Z = x_front / a  [–]")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(|x| e(&x))?;
    let colours = [RGBColor(30, 80, 200), RGBColor(200, 40, 40), RGBColor(0, 140, 0)];
    for (run, colour) in runs.iter().zip(colours.iter().cycle()) {
        let c = *colour;
        chart
            .draw_series(LineSeries::new(run.points.iter().copied(), c.stroke_width(2)))
            .map_err(|x| e(&x))?
            .label(run.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    let black = RGBColor(0, 0, 0);
    let grey = RGBColor(110, 110, 110);
    chart
        .draw_series(super::KOSHIZUKA_OKA.iter().map(|&p| Circle::new(p, 5, black.filled())))
        .map_err(|x| e(&x))?
        .label("Koshizuka & Oka 1996, experiment")
        .legend(move |(x, y)| Circle::new((x + 10, y), 5, black.filled()));
    chart
        .draw_series(super::MARTIN_MOYCE.iter().map(|&p| TriangleMarker::new(p, 7, grey.filled())))
        .map_err(|x| e(&x))?
        .label("Martin & Moyce 1952, a = 2.25 in")
        .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 7, grey.filled()));
    chart
        .draw_series(super::MARTIN_MOYCE_SMALL.iter().map(|&p| Cross::new(p, 6, grey.stroke_width(2))))
        .map_err(|x| e(&x))?
        .label("Martin & Moyce 1952, a = 1.125 in")
        .legend(move |(x, y)| Cross::new((x + 10, y), 6, grey.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.9))
        .border_style(black)
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| format!("{}: {x}", path.display()))
}
