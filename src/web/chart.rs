//! The small chart of supply centres per power over the years, drawn as
//! inline SVG by `templates/web/chart.svg`: one line per power in its
//! map colour, the years along the bottom. This is its geometry, the
//! numbers already written as the SVG has them. Pure.

use serde::Serialize;

use crate::draw::style;
use crate::engine::map::Power;

const WIDTH: f32 = 640.0;
const HEIGHT: f32 = 260.0;
const LEFT: f32 = 32.0;
const RIGHT: f32 = 80.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 28.0;

/// What `chart.svg` draws; every coordinate a number as written.
#[derive(Serialize)]
pub struct Chart {
    pub width: String,
    pub height: String,
    /// Where the lines of the grid begin and end.
    pub left: String,
    pub right: String,
    /// Where the counts of the grid's lines end (right-aligned).
    pub count_x: String,
    /// The baseline of the years.
    pub year_y: String,
    pub grid: Vec<GridLine>,
    pub years: Vec<YearLabel>,
    pub lines: Vec<PowerLine>,
    pub ends: Vec<EndLabel>,
}

/// A line across at `y` for the count `n`, labelled at `count_y`.
#[derive(Serialize)]
pub struct GridLine {
    pub n: usize,
    pub y: String,
    pub count_y: String,
}

#[derive(Serialize)]
pub struct YearLabel {
    pub x: String,
    pub label: String,
}

/// A power's line through its counts (`points`: "x,y x,y ...").
#[derive(Serialize)]
pub struct PowerLine {
    pub power: &'static str,
    pub colour: &'static str,
    pub points: String,
}

/// A power's count at the end of its line.
#[derive(Serialize)]
pub struct EndLabel {
    pub power: &'static str,
    pub colour: &'static str,
    pub centres: usize,
    pub x: String,
    pub y: String,
}

/// The chart of `rows` (label, centres per power in `Power::ALL` order);
/// None when there is nothing to draw.
pub fn centres_chart(rows: &[(String, [usize; 7])]) -> Option<Chart> {
    // One row (the start) is no line: the table above says it all.
    if rows.len() < 2 {
        return None;
    }
    let top = rows
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .max()
        .unwrap_or(0)
        .max(18) as f32;
    let step = (WIDTH - LEFT - RIGHT) / (rows.len().max(2) - 1) as f32;
    let x = |i: usize| LEFT + step * i as f32;
    let y = |n: usize| TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - n as f32 / top);
    let grid = [0, 6, 12, 18, 24, 30]
        .into_iter()
        .filter(|&n| n as f32 <= top)
        .map(|n| GridLine {
            n,
            y: format!("{:.1}", y(n)),
            count_y: format!("{:.1}", y(n) + 4.0),
        })
        .collect();
    let every = rows.len().div_ceil(12).max(1);
    let years = rows
        .iter()
        .enumerate()
        .step_by(every)
        .map(|(i, (label, _))| YearLabel {
            x: format!("{:.1}", x(i)),
            label: label.clone(),
        })
        .collect();
    let shown: Vec<(usize, Power)> = Power::ALL
        .into_iter()
        .enumerate()
        .filter(|&(k, _)| rows.iter().any(|(_, c)| c[k] > 0))
        .collect();
    let last = rows.len() - 1;
    let lines = shown
        .iter()
        .map(|&(k, power)| {
            let points: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, (_, c))| format!("{:.1},{:.1}", x(i), y(c[k])))
                .collect();
            PowerLine {
                power: power.name(),
                colour: style::power(power),
                points: points.join(" "),
            }
        })
        .collect();
    let ends: Vec<f32> = shown.iter().map(|&(k, _)| y(rows[last].1[k])).collect();
    let ends = shown
        .iter()
        .zip(label_heights(&ends))
        .map(|(&(k, power), label_y)| EndLabel {
            power: power.name(),
            colour: style::power(power),
            centres: rows[last].1[k],
            x: format!("{:.1}", x(last) + 6.0),
            y: format!("{:.1}", label_y + 4.0),
        })
        .collect();
    Some(Chart {
        width: WIDTH.to_string(),
        height: HEIGHT.to_string(),
        left: LEFT.to_string(),
        right: (WIDTH - RIGHT).to_string(),
        count_x: (LEFT - 4.0).to_string(),
        year_y: (HEIGHT - 8.0).to_string(),
        grid,
        years,
        lines,
        ends,
    })
}

/// The heights of the labels at the lines' ends (`ends`, top down in any
/// order), moved apart so that powers with the same count do not print
/// over each other: each at least a line below the one above it.
fn label_heights(ends: &[f32]) -> Vec<f32> {
    const LINE: f32 = 12.0;
    let mut order: Vec<usize> = (0..ends.len()).collect();
    order.sort_by(|&a, &b| ends[a].total_cmp(&ends[b]));
    let mut placed = ends.to_vec();
    let mut below = f32::MIN;
    for &i in &order {
        placed[i] = ends[i].max(below + LINE);
        below = placed[i];
    }
    // Pushed past the bottom: the whole stack moves up.
    let overflow = below - (HEIGHT - BOTTOM);
    if overflow > 0.0 {
        for y in &mut placed {
            *y -= overflow;
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_of_equal_counts_are_moved_apart() {
        let placed = label_heights(&[100.0, 100.0, 50.0, 100.0]);
        assert_eq!(placed[2], 50.0);
        let mut same: Vec<f32> = vec![placed[0], placed[1], placed[3]];
        same.sort_by(f32::total_cmp);
        assert_eq!(same, [100.0, 112.0, 124.0]);
    }

    #[test]
    fn a_chart_needs_two_rows() {
        assert!(centres_chart(&[("start".to_string(), [3; 7])]).is_none());
        let two = [("start".to_string(), [3; 7]), ("1901".to_string(), [4; 7])];
        let chart = centres_chart(&two).unwrap();
        assert_eq!(chart.lines.len(), 7);
        assert!(chart
            .ends
            .iter()
            .any(|e| e.power == "Russia" && e.centres == 4));
    }
}
