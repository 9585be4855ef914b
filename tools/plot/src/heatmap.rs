//! Heat maps of a matrix (a power matrix over sea states, say): one coloured cell per entry with
//! its value written in it, the categories on both axes, a title, axis labels with units, and a
//! colour bar with its own label and ticks. Missing entries (a failed run) are hatched grey and
//! say so.

use crate::draw::tick;
use crate::{font, PlotError};
use plotters::coord::ranged1d::SegmentValue;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// A labelled matrix to draw as coloured cells.
#[derive(Debug, Clone)]
pub struct HeatMap {
    /// The title; it names the case and the figure.
    pub title: String,
    /// The x axis label with its unit (the columns).
    pub x_label: String,
    /// The y axis label with its unit (the rows).
    pub y_label: String,
    /// The columns' category labels, left to right.
    pub columns: Vec<String>,
    /// The rows' category labels, bottom to top.
    pub rows: Vec<String>,
    /// The values, `values[row][column]`; `None` for an entry that has none.
    pub values: Vec<Vec<Option<f64>>>,
    /// What the colours mean, with the unit (the colour bar's label).
    pub legend: String,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

impl HeatMap {
    /// Writes the heat map as a PNG file.
    pub fn write_png(&self, path: &Path) -> Result<(), PlotError> {
        font::register()?;
        self.range()?;
        let root = BitMapBackend::new(path, self.size).into_drawing_area();
        self.draw(&root).map_err(|why| PlotError::Draw { path: path.to_path_buf(), why })
    }

    /// The heat map as an SVG document (its text as `<text>` elements).
    pub fn to_svg(&self) -> Result<String, PlotError> {
        font::register()?;
        self.range()?;
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, self.size).into_drawing_area();
            self.draw(&root).map_err(|why| PlotError::Draw { path: "<svg>".into(), why })?;
        }
        Ok(out)
    }

    /// Every text the map must show: title, axis labels, legend label and the categories.
    pub fn texts(&self) -> Vec<&str> {
        let mut t = vec![self.title.as_str(), self.x_label.as_str(), self.y_label.as_str(), self.legend.as_str()];
        t.extend(self.columns.iter().map(String::as_str));
        t.extend(self.rows.iter().map(String::as_str));
        t
    }

    /// The range of the values that are there, or why there is nothing to draw.
    fn range(&self) -> Result<(f64, f64), PlotError> {
        let empty = |why: &str| PlotError::Empty { chart: self.title.clone(), why: why.into() };
        if self.rows.is_empty() || self.columns.is_empty() {
            return Err(empty("no rows or no columns"));
        }
        if self.values.len() != self.rows.len() || self.values.iter().any(|r| r.len() != self.columns.len()) {
            return Err(empty("the values are not rows × columns"));
        }
        let all = self.values.iter().flatten().flatten().filter(|v| v.is_finite());
        let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(*v), b.max(*v)));
        if lo > hi {
            return Err(empty("no entry has a value"));
        }
        Ok(if hi - lo < 1e-12 * hi.abs().max(1e-300) {
            (lo - 0.5 * lo.abs().max(1.0), hi + 0.5 * hi.abs().max(1.0))
        } else {
            (lo, hi)
        })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        let (lo, hi) = self.range().map_err(|x| x.to_string())?;
        root.fill(&WHITE).map_err(e)?;
        let body = root.titled(&self.title, (font::FAMILY, 24)).map_err(e)?;
        let (w, _) = body.dim_in_pixel();
        let (cells, bar) = body.split_horizontally(w.saturating_sub(170));
        let (xs, ys) = (&self.columns[..], &self.rows[..]);
        let mut c = ChartBuilder::on(&cells)
            .margin(15)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(xs.into_segmented(), ys.into_segmented())
            .map_err(e)?;
        let category = |v: &SegmentValue<&String>| match v {
            SegmentValue::CenterOf(s) => s.to_string(),
            _ => String::new(),
        };
        c.configure_mesh()
            .disable_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_labels(self.columns.len())
            .y_labels(self.rows.len())
            .x_label_formatter(&category)
            .y_label_formatter(&category)
            .label_style((font::FAMILY, 16))
            .axis_desc_style((font::FAMILY, 18))
            .draw()
            .map_err(e)?;
        for (j, row) in self.values.iter().enumerate() {
            for (i, v) in row.iter().enumerate() {
                let corners = [(edge(xs, i), edge(ys, j)), (edge(xs, i + 1), edge(ys, j + 1))];
                let centre = (SegmentValue::CenterOf(&xs[i]), SegmentValue::CenterOf(&ys[j]));
                let (fill, text, ink) = match v {
                    Some(v) if v.is_finite() => {
                        let f = colour((v - lo) / (hi - lo));
                        let light = 0.299 * f.0 as f64 + 0.587 * f.1 as f64 + 0.114 * f.2 as f64 > 140.0;
                        (f, value(*v), if light { BLACK } else { WHITE })
                    }
                    _ => (RGBColor(200, 200, 200), "failed".to_string(), RGBColor(90, 90, 90)),
                };
                c.draw_series(std::iter::once(Rectangle::new(corners.clone(), fill.filled()))).map_err(e)?;
                c.draw_series(std::iter::once(Rectangle::new(corners, WHITE.stroke_width(2)))).map_err(e)?;
                let style = TextStyle::from((font::FAMILY, 17).into_font()).color(&ink).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    ),
                );
                // In pixels on the whole figure: the text needs no chart coordinates of its own.
                root.draw_text(&text, &style, c.backend_coord(&centre)).map_err(e)?;
            }
        }
        self.draw_bar(&bar, lo, hi)
    }

    /// The colour bar: the colours from `lo` to `hi` against a labelled value axis.
    fn draw_bar<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>, lo: f64, hi: f64) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
        let mut c = ChartBuilder::on(area)
            .margin_top(15)
            .margin_bottom(70)
            .margin_right(5)
            .y_label_area_size(110)
            .build_cartesian_2d(0.0..1.0, lo..hi)
            .map_err(e)?;
        c.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_desc(self.legend.as_str())
            .y_label_formatter(&tick)
            .label_style((font::FAMILY, 14))
            .axis_desc_style((font::FAMILY, 16))
            .draw()
            .map_err(e)?;
        let n = 100;
        c.draw_series((0..n).map(|k| {
            let (a, b) = (lo + (hi - lo) * k as f64 / n as f64, lo + (hi - lo) * (k + 1) as f64 / n as f64);
            Rectangle::new([(0.0, a), (1.0, b)], colour((k as f64 + 0.5) / n as f64).filled())
        }))
        .map_err(e)?;
        Ok(())
    }
}

/// Where cell `k` of `labels` begins: its category's left (lower) edge, or the axis end after
/// the last one.
fn edge(labels: &[String], k: usize) -> SegmentValue<&String> {
    match labels.get(k) {
        Some(l) => SegmentValue::Exact(l),
        None => SegmentValue::Last,
    }
}

/// A value written in its cell: three significant digits.
fn value(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e5 || v.abs() < 1e-2) {
        format!("{v:.2e}")
    } else {
        let digits = (2 - v.abs().max(1e-300).log10().floor() as i32).clamp(0, 4) as usize;
        format!("{v:.digits$}")
    }
}

/// The colour of `f` (0–1) on a perceptually ordered scale, dark blue through green to yellow
/// (the viridis scale's ends and middle, linearly between).
fn colour(f: f64) -> RGBColor {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [68.0, 1.0, 84.0]),
        (0.25, [59.0, 82.0, 139.0]),
        (0.5, [33.0, 145.0, 140.0]),
        (0.75, [94.0, 201.0, 98.0]),
        (1.0, [253.0, 231.0, 37.0]),
    ];
    let f = if f.is_finite() { f.clamp(0.0, 1.0) } else { 0.0 };
    let k = STOPS.iter().rposition(|(x, _)| *x <= f).unwrap_or(0).min(STOPS.len() - 2);
    let ((x0, a), (x1, b)) = (STOPS[k], STOPS[k + 1]);
    let t = (f - x0) / (x1 - x0);
    let mix = |i: usize| (a[i] + t * (b[i] - a[i])).round() as u8;
    RGBColor(mix(0), mix(1), mix(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> HeatMap {
        HeatMap {
            title: "RM3: mean absorbed power".into(),
            x_label: "wave period T [s]".into(),
            y_label: "wave height H [m]".into(),
            columns: vec!["6".into(), "8".into(), "10".into()],
            rows: vec!["1".into(), "2".into()],
            values: vec![vec![Some(10.0), Some(20.0), Some(15.0)], vec![Some(40.0), None, Some(60.0)]],
            legend: "mean absorbed power [kW]".into(),
            size: (900, 600),
        }
    }

    #[test]
    fn svg_has_title_labels_categories_values_legend_and_the_failed_cell() {
        let m = map();
        let svg = m.to_svg().unwrap();
        for t in m.texts().into_iter().chain(["10.0", "60.0", "failed"]) {
            assert!(svg.contains(&format!(">\n{t}\n</text>")) || svg.contains(t), "`{t}` missing from the SVG");
        }
        // The colour bar's ticks span the values: 10 and 60 are the ends.
        assert!(svg.contains(">\n10\n</text>") && svg.contains(">\n60\n</text>"), "colour bar ticks");
    }

    #[test]
    fn png_is_written_and_nothing_to_draw_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.png");
        map().write_png(&p).unwrap();
        assert_eq!(&std::fs::read(&p).unwrap()[1..4], b"PNG");
        // One column (a grid of one axis) draws too.
        let mut one = map();
        one.columns = vec![String::new()];
        one.values = vec![vec![Some(1.0)], vec![Some(2.0)]];
        one.write_png(&p).unwrap();
        let mut none = map();
        none.values = vec![vec![None; 3]; 2];
        assert!(none.to_svg().unwrap_err().to_string().contains("no entry has a value"));
    }

    #[test]
    fn the_scale_runs_from_dark_to_light() {
        let lum = |c: RGBColor| 0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64;
        let l: Vec<f64> = (0..=10).map(|k| lum(colour(k as f64 / 10.0))).collect();
        assert!(l.windows(2).all(|w| w[1] > w[0]), "{l:?}");
        assert_eq!(
            (value(1234.4), value(0.5), value(3.0e6)),
            ("1234".to_string(), "0.500".to_string(), "3.00e6".to_string())
        );
    }
}
