//! SVG line charts (plotters): one line per series over thread counts, optionally with the ideal line y = x.

use plotters::prelude::*;
use std::path::Path;

/// One line of a chart: a name and (x, y) points in increasing x.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// What a chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// Label of the x axis.
    pub x_label: &'a str,
    /// Label of the y axis.
    pub y_label: &'a str,
    /// The lines.
    pub series: &'a [Series],
    /// Draw the dashed ideal line y = x (for speedups).
    pub ideal: bool,
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];

/// Draws `chart` as an SVG file at `path`.
///
/// # Errors
/// When there is nothing to draw or the file cannot be written.
pub fn draw(path: &Path, chart: &LineChart<'_>) -> Result<(), String> {
    let points = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut x_max, mut y_max) = (1.0f64, 0.0f64);
    let mut any = false;
    for &(x, y) in points {
        any = true;
        x_max = x_max.max(x);
        y_max = y_max.max(y);
    }
    if !any {
        return Err(format!("no data for the chart {}", path.display()));
    }
    if chart.ideal {
        y_max = y_max.max(x_max);
    }
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let error = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let mut context = ChartBuilder::on(&root)
        .caption(chart.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max * 1.05 + 0.5, 0.0..y_max)
        .map_err(|e| error(&e))?;
    context
        .configure_mesh()
        .x_desc(chart.x_label)
        .y_desc(chart.y_label)
        .draw()
        .map_err(|e| error(&e))?;
    if chart.ideal {
        let ideal = DashedLineSeries::new(
            vec![(1.0, 1.0), (x_max, x_max)],
            6,
            4,
            BLACK.mix(0.5).stroke_width(1),
        );
        context
            .draw_series(ideal)
            .map_err(|e| error(&e))?
            .label("ideal")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.5)));
    }
    for (index, series) in chart.series.iter().enumerate() {
        let color = PALETTE[index % PALETTE.len()];
        context
            .draw_series(LineSeries::new(
                series.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| error(&e))?
            .label(series.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        context
            .draw_series(series.points.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(|e| error(&e))?;
    }
    context
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| error(&e))?;
    root.present().map_err(|e| error(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_parseable_svg_with_every_series_named() {
        let dir = std::env::temp_dir().join(format!("xtask-chart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("speedup.svg");
        let series = [
            Series {
                name: "lazy".into(),
                points: vec![(1.0, 1.0), (2.0, 1.05)],
            },
            Series {
                name: "ybwc".into(),
                points: vec![(1.0, 1.0), (2.0, 1.6)],
            },
        ];
        let chart = LineChart {
            title: "Time-to-depth speedup",
            x_label: "threads",
            y_label: "speedup",
            series: &series,
            ideal: true,
        };
        draw(&path, &chart).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
        assert!(svg.trim_end().ends_with("</svg>"));
        for name in ["lazy", "ybwc", "ideal"] {
            assert!(svg.contains(name), "{name} in the legend");
        }
        assert!(draw(&path, &LineChart { series: &[], ..chart }).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
