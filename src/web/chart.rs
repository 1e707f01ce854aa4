//! The small chart of supply centres per power over the years, as inline
//! SVG: one line per power in its map colour, the years along the bottom.
//! Pure.

use std::fmt::Write;

use super::html::escape;
use crate::draw::style;
use crate::engine::map::Power;

const WIDTH: f32 = 640.0;
const HEIGHT: f32 = 260.0;
const LEFT: f32 = 32.0;
const RIGHT: f32 = 80.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 28.0;

/// The chart of `rows` (label, centres per power in `Power::ALL` order);
/// empty when there is nothing to draw.
pub fn centres_chart(rows: &[(String, [usize; 7])]) -> String {
    // One row (the start) is no line: the table above says it all.
    if rows.len() < 2 {
        return String::new();
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
    let mut out = format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" \
         aria-label=\"Supply centres per power over the years\">\n"
    );
    for n in [0, 6, 12, 18, 24, 30]
        .into_iter()
        .filter(|&n| n as f32 <= top)
    {
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{n}</text>",
            WIDTH - RIGHT,
            LEFT - 4.0,
            y(n) + 4.0,
            y = y(n),
        );
    }
    let every = rows.len().div_ceil(12).max(1);
    for (i, (label, _)) in rows.iter().enumerate().step_by(every) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            x(i),
            HEIGHT - 8.0,
            escape(label)
        );
    }
    let shown: Vec<(usize, Power)> = Power::ALL
        .into_iter()
        .enumerate()
        .filter(|&(k, _)| rows.iter().any(|(_, c)| c[k] > 0))
        .collect();
    let last = rows.len() - 1;
    for &(k, power) in &shown {
        let points: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, (_, c))| format!("{:.1},{:.1}", x(i), y(c[k])))
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\" points=\"{}\">\
             <title>{}</title></polyline>",
            style::power(power),
            points.join(" "),
            power.name(),
        );
    }
    let ends: Vec<f32> = shown.iter().map(|&(k, _)| y(rows[last].1[k])).collect();
    for ((k, power), label_y) in shown.iter().zip(label_heights(&ends)) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"{}\">{} {}</text>",
            x(last) + 6.0,
            label_y + 4.0,
            style::power(*power),
            power.name(),
            rows[last].1[*k],
        );
    }
    out.push_str("</svg>\n");
    out
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
        assert_eq!(centres_chart(&[("start".to_string(), [3; 7])]), "");
        let two = [("start".to_string(), [3; 7]), ("1901".to_string(), [4; 7])];
        let svg = centres_chart(&two);
        assert_eq!(svg.matches("<polyline").count(), 7);
        assert!(svg.contains(">Russia 4</text>"), "{svg}");
    }
}
