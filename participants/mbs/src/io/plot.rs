//! PNG plots drawn without text, so no system font is needed: stacked panels of lines
//! against time, each panel scaled to its own range, with a grey zero line. `plot_rows`
//! shows a body's main channels (height z, vertical velocity, vertical coupling force).

use crate::io::output::Row;
use plotters::prelude::*;
use std::path::Path;

/// One line of a panel: its points (t, y) and its colour.
pub type Line = (Vec<(f64, f64)>, RGBColor);

/// Draws stacked panels to `path` (PNG, `width` × `height` pixels), each panel a set of
/// lines over the same time range, scaled to its own values, with a grey zero line.
pub fn plot_panels(path: &Path, panels: &[Vec<Line>], width: u32, height: u32) -> Result<(), String> {
    let points = |p: &Vec<Line>| p.iter().flat_map(|(l, _)| l.iter().copied()).collect::<Vec<_>>();
    let all: Vec<(f64, f64)> = panels.iter().flat_map(points).collect();
    if panels.is_empty() || all.len() < 2 {
        return Err(format!("{}: need at least two points to plot, got {}", path.display(), all.len()));
    }
    let (t0, t1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &(t, _)| (a.min(t), b.max(t)));
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let areas = root.split_evenly((panels.len(), 1));
    for (area, lines) in areas.iter().zip(panels) {
        let (mut lo, mut hi) = points(lines).iter().fold((0.0f64, 0.0f64), |(a, b), &(_, y)| (a.min(y), b.max(y)));
        if hi - lo < 1e-12 {
            hi += 1.0;
            lo -= 1.0;
        }
        let pad = 0.05 * (hi - lo);
        let mut chart = ChartBuilder::on(area)
            .margin(8)
            .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(vec![(t0, 0.0), (t1, 0.0)], &RGBColor(180, 180, 180)))
            .map_err(|e| e.to_string())?;
        for (line, colour) in lines {
            chart
                .draw_series(LineSeries::new(line.iter().copied(), colour.stroke_width(2)))
                .map_err(|e| e.to_string())?;
        }
        let (w, h) = area.dim_in_pixel();
        area.draw(&Rectangle::new([(0, 0), (w as i32 - 1, h as i32 - 1)], BLACK)).map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| format!("{}: {e}", path.display()))
}

/// Draws a body's height z (blue), vertical velocity (red) and vertical coupling force
/// (green) against time, in three panels.
pub fn plot_rows(path: &Path, rows: &[Row], width: u32, height: u32) -> Result<(), String> {
    if rows.len() < 2 {
        return Err(format!("{}: need at least two rows to plot, got {}", path.display(), rows.len()));
    }
    let series = |f: fn(&Row) -> f64| rows.iter().map(|r| (r.time, f(r))).collect::<Vec<_>>();
    let panels = vec![
        vec![(series(|r| r.position.z), BLUE)],
        vec![(series(|r| r.linvel.z), RED)],
        vec![(series(|r| r.force.z), RGBColor(0, 140, 0))],
    ];
    plot_panels(path, &panels, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn writes_a_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ball.png");
        let rows: Vec<Row> = (0..100)
            .map(|i| {
                let t = i as f64 * 0.01;
                let z = (6.0 * t).cos() * 0.1;
                let v = Vector3::new(0.0, 0.0, z);
                Row { time: t, position: v, rotation: v, linvel: -v, angvel: v, force: v * 30.0, torque: v }
            })
            .collect();
        plot_rows(&path, &rows, 640, 480).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(plot_rows(&path, &rows[..1], 640, 480).is_err());
    }
}
