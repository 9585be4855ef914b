//! Line charts people can read: a title naming the case, axis labels with units, tick labels,
//! a legend naming every series, and a grid. Every PNG the project writes goes through
//! [`Chart`], so the text is drawn the same way everywhere.
//!
//! The text uses DejaVu Sans embedded in the program (the `dejavu` crate; Bitstream Vera
//! licence, free to redistribute), so charts render on a machine without system fonts. The
//! same chart renders to SVG ([`Chart::to_svg`]), where its text stays text: tests look for the
//! title, labels and legend entries there ([`Chart::missing_texts`]), so text cannot vanish
//! from a plot unnoticed. [`HeatMap`] draws a matrix (a power matrix, say) the same way, with a
//! colour bar. [`csv_chart`] draws columns of CSV files (the `tidelink-plot` program).
#![warn(missing_docs)]

pub mod csv_chart;
mod draw;
mod font;
mod heatmap;

pub use heatmap::HeatMap;

use std::path::{Path, PathBuf};

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The chart has nothing to draw (no panel, or fewer than two points in a panel).
    #[error("{chart}: {why}")]
    Empty {
        /// The chart's title.
        chart: String,
        /// What is missing.
        why: String,
    },
    /// The embedded font could not be loaded (a broken build, not a user error).
    #[error("the embedded font could not be registered")]
    Font,
    /// The drawing backend failed (writing the file, encoding the image).
    #[error("{path}: {why}")]
    Draw {
        /// The file written, or `<svg>` for an in-memory drawing.
        path: PathBuf,
        /// The backend's message.
        why: String,
    },
}

/// An RGB colour; the palette below keeps series apart on screen and in print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

/// Our results.
pub const BLUE: Colour = Colour(30, 80, 200);
/// A first reference (e.g. another code's series).
pub const ORANGE: Colour = Colour(230, 120, 20);
/// A second series of the same kind as blue.
pub const GREEN: Colour = Colour(0, 140, 0);
/// A third series.
pub const RED: Colour = Colour(200, 40, 40);
/// Analytic or frequency-domain references.
pub const BLACK: Colour = Colour(0, 0, 0);
/// Secondary references.
pub const GREY: Colour = Colour(110, 110, 110);

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A solid line.
    Line,
    /// A dashed line (references, envelopes).
    Dashed,
    /// Filled circles at the points (measurements).
    Circles,
    /// Filled triangles at the points.
    Triangles,
    /// Crosses at the points.
    Crosses,
}

/// One named series of (x, y) points.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend entry: what the series is and where it comes from.
    pub label: String,
    /// The points, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Its colour.
    pub colour: Colour,
    /// Line or markers.
    pub style: Style,
}

impl Series {
    /// A solid line.
    pub fn line(label: impl Into<String>, points: Vec<(f64, f64)>, colour: Colour) -> Self {
        Series { label: label.into(), points, colour, style: Style::Line }
    }
    /// The same series drawn in `style`.
    pub fn styled(mut self, style: Style) -> Self {
        self.style = style;
        self
    }
}

/// One panel: a y axis with its label and unit, and the series drawn against it.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The y axis label with its unit, e.g. `heave z − z₀ [m]`.
    pub y_label: String,
    /// The series, in legend order.
    pub series: Vec<Series>,
    /// A fixed y range; `None` fits the data with a margin.
    pub y_range: Option<(f64, f64)>,
}

impl Panel {
    /// A panel fitted to its data.
    pub fn new(y_label: impl Into<String>, series: Vec<Series>) -> Self {
        Panel { y_label: y_label.into(), series, y_range: None }
    }
    /// The same panel with a fixed y range.
    pub fn y_range(mut self, lo: f64, hi: f64) -> Self {
        self.y_range = Some((lo, hi));
        self
    }
}

/// A figure: a title, panels stacked over one shared x axis, and its size in pixels.
#[derive(Debug, Clone)]
pub struct Chart {
    /// The title; it names the case.
    pub title: String,
    /// The x axis label with its unit, e.g. `time [s]`.
    pub x_label: String,
    /// The panels, top to bottom.
    pub panels: Vec<Panel>,
    /// A fixed x range; `None` spans the data.
    pub x_range: Option<(f64, f64)>,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

impl Chart {
    /// A chart with no panel yet, 1200 × 400 pixels per panel once panels are added.
    pub fn new(title: impl Into<String>, x_label: impl Into<String>) -> Self {
        Chart { title: title.into(), x_label: x_label.into(), panels: Vec::new(), x_range: None, size: (0, 0) }
    }
    /// Adds a panel below the others.
    pub fn panel(mut self, panel: Panel) -> Self {
        self.panels.push(panel);
        self
    }
    /// A fixed x range.
    pub fn x_range(mut self, lo: f64, hi: f64) -> Self {
        self.x_range = Some((lo, hi));
        self
    }
    /// A fixed size in pixels (otherwise 1200 wide, 400 per panel plus the title).
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.size = (width, height);
        self
    }

    /// The size drawn: the one set, or 1200 × (60 + 380 per panel).
    pub fn pixels(&self) -> (u32, u32) {
        if self.size.0 > 0 && self.size.1 > 0 {
            self.size
        } else {
            (1200, 60 + 380 * self.panels.len().max(1) as u32)
        }
    }

    /// Writes the chart as a PNG file.
    pub fn write_png(&self, path: &Path) -> Result<(), PlotError> {
        draw::png(self, path)
    }

    /// The chart as an SVG document (its text as `<text>` elements).
    pub fn to_svg(&self) -> Result<String, PlotError> {
        draw::svg(self)
    }

    /// Every text the chart must show: the title, the axis labels and the legend entries.
    pub fn texts(&self) -> Vec<&str> {
        let mut t = vec![self.title.as_str(), self.x_label.as_str()];
        for p in &self.panels {
            t.push(&p.y_label);
            t.extend(p.series.iter().map(|s| s.label.as_str()));
        }
        t
    }

    /// The texts of [`Self::texts`] that are not in `svg` (compared as SVG escapes them).
    pub fn missing_texts(&self, svg: &str) -> Vec<String> {
        self.texts().into_iter().filter(|t| !svg.contains(&escape(t))).map(str::to_string).collect()
    }
}

/// `text` as the SVG backend writes it inside a `<text>` element.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(phase: f64) -> Vec<(f64, f64)> {
        (0..200).map(|i| (i as f64 * 0.1, (i as f64 * 0.1 + phase).sin())).collect()
    }

    fn chart() -> Chart {
        Chart::new("Test case: two panels", "time [s]")
            .panel(Panel::new(
                "height z [m]",
                vec![
                    Series::line("ours", sine(0.0), BLUE),
                    Series::line("reference & co", sine(0.1), ORANGE).styled(Style::Dashed),
                ],
            ))
            .panel(Panel::new("force F_z [N]", vec![Series::line("F_z", sine(1.0), GREEN).styled(Style::Circles)]))
    }

    #[test]
    fn svg_has_title_axis_labels_legend_and_ticks() {
        let c = chart();
        let svg = c.to_svg().unwrap();
        assert_eq!(c.missing_texts(&svg), Vec::<String>::new());
        for t in ["Test case: two panels", "time [s]", "height z [m]", "force F_z [N]", "ours", "reference &amp; co"] {
            assert!(svg.contains(t), "`{t}` missing from the SVG");
        }
        // Tick labels: the x axis runs 0 to 19.9 s, the y axes −1 to 1.
        for tick in ["10", "0.4", "-0.4"] {
            assert!(svg.contains(&format!(">\n{tick}\n</text>")), "no tick label {tick}");
        }
        assert!(!svg.contains(">\n-0\n</text>"), "a tick labelled -0");
        // A text that is not in the chart is reported missing.
        let mut other = c.clone();
        other.title = "another title".into();
        assert_eq!(other.missing_texts(&svg), vec!["another title".to_string()]);
    }

    #[test]
    fn png_is_written_and_the_title_is_drawn_in_pixels() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.png");
        chart().write_png(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        // The title band (top 40 rows, above every panel) is white but for the title's glyphs:
        // with a title, hundreds of dark pixels there; without one, none.
        let dark = |c: &Chart| {
            let (w, _) = c.pixels();
            let px = draw::pixels(c).unwrap();
            px[..(w * 40 * 3) as usize].chunks(3).filter(|p| p.iter().all(|&v| v < 100)).count()
        };
        let with = dark(&chart());
        let mut untitled = chart();
        untitled.title = String::new();
        assert!(with > 200, "only {with} dark pixels in the title band");
        assert_eq!(dark(&untitled), 0);
    }

    #[test]
    fn too_few_points_is_an_error_naming_the_chart() {
        let c = Chart::new("Empty case", "t [s]").panel(Panel::new("y [m]", vec![Series::line("a", vec![], BLUE)]));
        let e = c.to_svg().unwrap_err().to_string();
        assert!(e.contains("Empty case") && e.contains("y [m]"), "{e}");
        assert!(Chart::new("No panel", "t [s]").to_svg().is_err());
    }
}
