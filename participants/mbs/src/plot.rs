//! A PNG plot of a body's main channels (height z, vertical velocity, vertical coupling
//! force against time), drawn without text so no system font is needed: three stacked
//! panels, each scaled to its own range, with a grey zero line.

use crate::output::Row;
use plotters::prelude::*;
use std::path::Path;

/// One panel: the channel of a row it shows and its colour.
type Channel = (fn(&Row) -> f64, RGBColor);

/// Draws `rows` to `path` (PNG, `width` × `height` pixels).
pub fn plot_rows(path: &Path, rows: &[Row], width: u32, height: u32) -> Result<(), String> {
    if rows.len() < 2 {
        return Err(format!("{}: need at least two rows to plot, got {}", path.display(), rows.len()));
    }
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = root.split_evenly((3, 1));
    let channels: [Channel; 3] =
        [(|r| r.position.z, BLUE), (|r| r.linvel.z, RED), (|r| r.force.z, RGBColor(0, 140, 0))];
    let (t0, t1) = (rows[0].time, rows[rows.len() - 1].time);
    for (panel, (f, colour)) in panels.iter().zip(channels) {
        let ys: Vec<f64> = rows.iter().map(f).collect();
        let (mut lo, mut hi) = ys.iter().fold((0.0f64, 0.0f64), |(a, b), &y| (a.min(y), b.max(y)));
        if hi - lo < 1e-12 {
            hi += 1.0;
            lo -= 1.0;
        }
        let pad = 0.05 * (hi - lo);
        let mut chart = ChartBuilder::on(panel)
            .margin(8)
            .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(vec![(t0, 0.0), (t1, 0.0)], &RGBColor(180, 180, 180)))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(rows.iter().zip(&ys).map(|(r, &y)| (r.time, y)), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?;
        panel
            .draw(&Rectangle::new([(0, 0), (width as i32 - 1, (height / 3) as i32 - 1)], BLACK))
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| format!("{}: {e}", path.display()))
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
