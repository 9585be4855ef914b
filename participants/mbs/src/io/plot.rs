//! The chart of one body's output (height, vertical velocity, vertical coupling force against
//! time), drawn with `tidelink-plot`: title naming the case and body, axis labels with units,
//! legend, grid.

use crate::io::output::Row;
use std::path::Path;
use tidelink_plot::{Chart, Panel, PlotError, Series, BLUE, GREEN, RED};

/// The body's chart: z (m), v_z (m/s) and F_z (N) against time, one panel each. `case`
/// names the case in the title.
pub fn body_chart(case: &str, body: &str, rows: &[Row]) -> Chart {
    let series = |f: fn(&Row) -> f64| rows.iter().map(|r| (r.time, f(r))).collect::<Vec<_>>();
    Chart::new(format!("{case}: body `{body}`"), "time t [s]")
        .panel(Panel::new("height z [m]", vec![Series::line(format!("{body} z"), series(|r| r.position.z), BLUE)]))
        .panel(Panel::new("velocity v_z [m/s]", vec![Series::line(format!("{body} v_z"), series(|r| r.linvel.z), RED)]))
        .panel(Panel::new(
            "coupling force F_z [N]",
            vec![Series::line(format!("{body} F_z (from the fluid)"), series(|r| r.force.z), GREEN)],
        ))
}

/// Writes [`body_chart`] to `path` as a PNG.
pub fn plot_rows(path: &Path, case: &str, body: &str, rows: &[Row]) -> Result<(), PlotError> {
    body_chart(case, body, rows).write_png(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    fn rows(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| {
                let t = i as f64 * 0.01;
                let z = (6.0 * t).cos() * 0.1;
                let v = Vector3::new(0.0, 0.0, z);
                Row { time: t, position: v, rotation: v, linvel: -v, angvel: v, force: v * 30.0, torque: v }
            })
            .collect()
    }

    #[test]
    fn body_chart_names_case_axes_and_series() {
        let chart = body_chart("sphere_drop", "ball", &rows(100));
        let svg = chart.to_svg().unwrap();
        assert_eq!(chart.missing_texts(&svg), Vec::<String>::new());
        for t in
            ["sphere_drop: body `ball`", "time t [s]", "height z [m]", "velocity v_z [m/s]", "coupling force F_z [N]"]
        {
            assert!(svg.contains(t), "`{t}` not in the SVG");
        }
        assert!(svg.contains("ball F_z (from the fluid)"));
    }

    #[test]
    fn writes_a_png_and_refuses_a_single_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ball.png");
        plot_rows(&path, "sphere_drop", "ball", &rows(100)).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let e = plot_rows(&path, "sphere_drop", "ball", &rows(1)).unwrap_err().to_string();
        assert!(e.contains("sphere_drop") && e.contains("height z [m]"), "{e}");
    }
}
