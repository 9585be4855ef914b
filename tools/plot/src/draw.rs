//! Drawing a [`Chart`] on a plotters backend: the title over the whole figure, then per panel a
//! mesh with grid and tick labels, the y label, the series and a legend; the x label under the
//! bottom panel only.

use crate::{font, Chart, Colour, Panel, PlotError, Style};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

fn rgb(c: Colour) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// The range spanned by `values`, widened by 5 % each side (or by 1 when flat).
fn fit(values: impl Iterator<Item = f64>, pad: bool) -> Option<(f64, f64)> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        return None;
    }
    if hi - lo < 1e-12 * hi.abs().max(1.0) {
        return Some((lo - 1.0, hi + 1.0));
    }
    let p = if pad { 0.05 * (hi - lo) } else { 0.0 };
    Some((lo - p, hi + p))
}

/// A tick label: at most 6 significant digits, no `-0`, an exponent for large or tiny values.
pub(crate) fn tick(v: &f64) -> String {
    let v = if v.abs() < 1e-12 { 0.0 } else { *v };
    let rounded: f64 = format!("{v:.5e}").parse().unwrap_or(v);
    if rounded != 0.0 && (rounded.abs() >= 1e6 || rounded.abs() < 1e-3) {
        let s = format!("{rounded:e}");
        s.replace("e", "×10^")
    } else {
        format!("{rounded}")
    }
}

/// Checks there is something to draw, and returns the x range.
fn x_range(chart: &Chart) -> Result<(f64, f64), PlotError> {
    let empty = |why: String| PlotError::Empty { chart: chart.title.clone(), why };
    if chart.panels.is_empty() {
        return Err(empty("no panel to draw".into()));
    }
    for p in &chart.panels {
        let n: usize = p.series.iter().map(|s| s.points.len()).sum();
        if n < 2 {
            return Err(empty(format!("panel `{}` has {n} point(s), at least two are needed", p.y_label)));
        }
    }
    if let Some(r) = chart.x_range {
        return Ok(r);
    }
    let xs = chart.panels.iter().flat_map(|p| p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0)));
    fit(xs, false).ok_or_else(|| empty("no finite x value".into()))
}

/// Draws the chart on `root`.
fn draw<DB: DrawingBackend>(chart: &Chart, root: &DrawingArea<DB, Shift>) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let (x0, x1) = x_range(chart).map_err(|e| e.to_string())?;
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let body = root.titled(&chart.title, (font::FAMILY, 26)).map_err(e)?;
    let n = chart.panels.len();
    let areas = body.split_evenly((n, 1));
    for (k, (area, panel)) in areas.iter().zip(&chart.panels).enumerate() {
        draw_panel(area, panel, (x0, x1), (k + 1 == n).then_some(chart.x_label.as_str()))?;
    }
    root.present().map_err(e)
}

/// One panel; `x_label` is drawn only under the bottom one.
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
    (x0, x1): (f64, f64),
    x_label: Option<&str>,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let ys = panel.series.iter().flat_map(|s| s.points.iter().filter(|p| p.0 >= x0 && p.0 <= x1).map(|p| p.1));
    let (y0, y1) = panel.y_range.or_else(|| fit(ys, true)).unwrap_or((-1.0, 1.0));
    let mut c = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(if x_label.is_some() { 50 } else { 30 })
        .y_label_area_size(90)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    let mut mesh = c.configure_mesh();
    mesh.y_desc(panel.y_label.as_str())
        .label_style((font::FAMILY, 15))
        .axis_desc_style((font::FAMILY, 17))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(200, 200, 200));
    if let Some(x) = x_label {
        mesh.x_desc(x);
    }
    mesh.draw().map_err(e)?;
    for s in &panel.series {
        let colour = rgb(s.colour);
        let pts = s.points.iter().copied();
        let style = colour.stroke_width(2);
        let anno = match s.style {
            Style::Line => c.draw_series(LineSeries::new(pts, style)).map_err(e)?,
            Style::Dashed => c.draw_series(DashedLineSeries::new(pts, 10, 6, style)).map_err(e)?,
            Style::Circles => c.draw_series(pts.map(|p| Circle::new(p, 4, colour.filled()))).map_err(e)?,
            Style::Triangles => c.draw_series(pts.map(|p| TriangleMarker::new(p, 6, colour.filled()))).map_err(e)?,
            Style::Crosses => c.draw_series(pts.map(|p| Cross::new(p, 5, style))).map_err(e)?,
        };
        let kind = s.style;
        anno.label(s.label.as_str()).legend(move |(x, y)| -> DynElement<'static, DB, (i32, i32)> {
            match kind {
                Style::Line | Style::Dashed => PathElement::new(vec![(x, y), (x + 22, y)], style).into_dyn(),
                Style::Circles => Circle::new((x + 11, y), 4, colour.filled()).into_dyn(),
                Style::Triangles => TriangleMarker::new((x + 11, y), 6, colour.filled()).into_dyn(),
                Style::Crosses => Cross::new((x + 11, y), 5, style).into_dyn(),
            }
        });
    }
    c.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((font::FAMILY, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(120, 120, 120))
        .draw()
        .map_err(e)?;
    Ok(())
}

/// Writes `chart` to `path` as a PNG image.
pub(crate) fn png(chart: &Chart, path: &Path) -> Result<(), PlotError> {
    font::register()?;
    x_range(chart)?;
    let root = BitMapBackend::new(path, chart.pixels()).into_drawing_area();
    draw(chart, &root).map_err(|why| PlotError::Draw { path: path.to_path_buf(), why })
}

/// Renders `chart` as an SVG document.
pub(crate) fn svg(chart: &Chart) -> Result<String, PlotError> {
    font::register()?;
    x_range(chart)?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, chart.pixels()).into_drawing_area();
        draw(chart, &root).map_err(|why| PlotError::Draw { path: "<svg>".into(), why })?;
    }
    Ok(out)
}

/// Renders `chart` into an RGB pixel buffer (tests look at its pixels).
#[cfg(test)]
pub(crate) fn pixels(chart: &Chart) -> Result<Vec<u8>, PlotError> {
    font::register()?;
    x_range(chart)?;
    let (w, h) = chart.pixels();
    let mut buf = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        draw(chart, &root).map_err(|why| PlotError::Draw { path: "<pixels>".into(), why })?;
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::tick;

    #[test]
    fn tick_labels_are_short() {
        let cases = [(0.0, "0"), (-1e-15, "0"), (0.30000000000000004, "0.3"), (-0.5, "-0.5"), (250.0, "250")];
        for (v, want) in cases {
            assert_eq!(tick(&v), want, "{v}");
        }
        assert_eq!(tick(&2.5e6), "2.5×10^6");
        assert_eq!(tick(&1.5e-4), "1.5×10^-4");
    }
}
