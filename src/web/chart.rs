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
    if rows.is_empty() {
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
    for (k, power) in Power::ALL.into_iter().enumerate() {
        if rows.iter().all(|(_, c)| c[k] == 0) {
            continue;
        }
        let points: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, (_, c))| format!("{:.1},{:.1}", x(i), y(c[k])))
            .collect();
        let last = rows.len() - 1;
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\" points=\"{}\">\
             <title>{name}</title></polyline>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"{colour}\">{name} {}</text>",
            points.join(" "),
            x(last) + 6.0,
            y(rows[last].1[k]) + 4.0,
            rows[last].1[k],
            colour = style::power(power),
            name = power.name(),
        );
    }
    out.push_str("</svg>\n");
    out
}
