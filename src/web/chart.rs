//! The small chart of supply centres per power over the years, drawn as
//! inline SVG by `templates/web/chart.svg`: one line per power in its
//! map colour (darkened where the map's would not read on the page's
//! white: Russia's white, Turkey's yellow), the years along the bottom.
//! Lines of equal counts lie side by side, each power's a little above or
//! below the count (`SPREAD`), not on top of each other. The lines end in
//! labels at their count's height: one per count, naming the powers that
//! end on it (two to a line of text), so labels of different counts, more
//! than a line of text apart, do not meet; a label of many lines is
//! centred on its count, and labels that would still overlap move apart
//! only as far as they need. This is its geometry, the numbers already
//! written as the SVG has them. Pure.

use serde::Serialize;

use crate::draw::Palette;
use crate::engine::map::Power;

const WIDTH: f32 = 640.0;
const HEIGHT: f32 = 340.0;
const LEFT: f32 = 32.0;
/// Room for the end labels: "Germany Russia 12".
const RIGHT: f32 = 120.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 28.0;
/// How far apart the lines of two powers with the same count are drawn
/// (each line is 2 wide): seven of them in a band of 9 pixels, well
/// inside the 14 pixels between two counts.
const SPREAD: f32 = 1.5;
/// The height of an end label's line (its text is 11 high).
const LABEL_LINE: f32 = 12.0;
/// Powers named on one line of an end label.
const PER_LINE: usize = 2;
/// The least contrast a colour on the page's white must have (WCAG's
/// for text).
const READABLE: f64 = 4.5;

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
    pub colour: String,
    pub points: String,
}

/// A line of text at the lines' end: powers (each in its colour) ending
/// on one count, and the count.
#[derive(Serialize)]
pub struct EndLabel {
    pub powers: Vec<Named>,
    pub centres: usize,
    pub x: String,
    pub y: String,
}

/// A power's name in its colour.
#[derive(Serialize)]
pub struct Named {
    pub power: &'static str,
    pub colour: String,
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
    // Each shown power's place in the band of equal counts, the middle
    // one on the count itself.
    let middle = (shown.len() as f32 - 1.0) / 2.0;
    let offset = |rank: usize| (rank as f32 - middle) * SPREAD;
    let last = rows.len() - 1;
    let lines = shown
        .iter()
        .enumerate()
        .map(|(rank, &(k, power))| {
            let points: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, (_, c))| format!("{:.1},{:.1}", x(i), y(c[k]) + offset(rank)))
                .collect();
            PowerLine {
                power: power.name(),
                colour: line_colour(power),
                points: points.join(" "),
            }
        })
        .collect();
    let ends = end_labels(&shown, &rows[last].1, x(last) + 6.0, y);
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

/// The labels at the lines' end: for each count some power ends on, its
/// powers by `PER_LINE` to a line, the lines centred on the count's height
/// (`y`), moved apart from the others' only where they would overlap.
fn end_labels(
    shown: &[(usize, Power)],
    end: &[usize; 7],
    x: f32,
    y: impl Fn(usize) -> f32,
) -> Vec<EndLabel> {
    let mut counts: Vec<usize> = shown.iter().map(|&(k, _)| end[k]).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts.dedup();
    let mut lines: Vec<(Vec<Named>, usize, f32)> = Vec::new();
    for n in counts {
        let named: Vec<Named> = shown
            .iter()
            .filter(|&&(k, _)| end[k] == n)
            .map(|&(_, power)| Named {
                power: power.name(),
                colour: line_colour(power),
            })
            .collect();
        let mut named = named.into_iter().peekable();
        while named.peek().is_some() {
            let powers: Vec<Named> = named.by_ref().take(PER_LINE).collect();
            lines.push((powers, n, y(n)));
        }
    }
    let targets: Vec<f32> = lines.iter().map(|l| l.2).collect();
    lines
        .into_iter()
        .zip(label_heights(&targets, TOP, HEIGHT - BOTTOM))
        .map(|((powers, centres, _), label_y)| EndLabel {
            powers,
            centres,
            x: format!("{x:.1}"),
            y: format!("{:.1}", label_y + 4.0),
        })
        .collect()
}

/// A power's colour on the chart: its colour on the archive's maps (the
/// default palette's), darkened until it reads on white.
fn line_colour(power: Power) -> String {
    readable_on_white(Palette::default().colours().power[power.index()])
}

/// `#RRGGBB` darkened (its hue kept) as little as gives it a contrast of
/// `READABLE` on white; as it is when it has that already.
fn readable_on_white(hex: &str) -> String {
    let channel = |i: usize| u8::from_str_radix(hex.get(1 + 2 * i..3 + 2 * i).unwrap_or("0"), 16);
    let rgb = [channel(0), channel(1), channel(2)].map(|c| f64::from(c.unwrap_or(0)));
    let mut scale = 1.0;
    let scaled = |scale: f64| rgb.map(|c| (c * scale).round());
    while contrast_on_white(scaled(scale)) < READABLE && scale > 0.0 {
        scale -= 0.01;
    }
    let [r, g, b] = scaled(scale.max(0.0));
    format!("#{:02X}{:02X}{:02X}", r as u8, g as u8, b as u8)
}

/// WCAG's contrast ratio of the colour `rgb` (0-255 each) on white.
fn contrast_on_white(rgb: [f64; 3]) -> f64 {
    let linear = |c: f64| {
        let c = c / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
    1.05 / (luminance + 0.05)
}

/// The heights of the labels at the lines' ends (`ends`, in any order),
/// each as near its line's end as the others let it be: labels closer
/// than a line of text are gathered into a group, a line apart each, the
/// group centred on their ends' middle (so each moves as little as the
/// others need), groups that then meet gathered again; and kept between
/// `top` and `bottom`.
fn label_heights(ends: &[f32], top: f32, bottom: f32) -> Vec<f32> {
    let mut order: Vec<usize> = (0..ends.len()).collect();
    order.sort_by(|&a, &b| ends[a].total_cmp(&ends[b]));
    // Each group: its labels (in `order`, top down) and its first's height.
    let mut groups: Vec<(Vec<usize>, f32)> = Vec::new();
    for &i in &order {
        groups.push((vec![i], ends[i]));
        while groups.len() > 1 {
            let (upper, lower) = (&groups[groups.len() - 2], &groups[groups.len() - 1]);
            if upper.1 + LABEL_LINE * upper.0.len() as f32 <= lower.1 {
                break;
            }
            let (lower, _) = groups.pop().unwrap_or_default();
            let last = groups.len() - 1;
            groups[last].0.extend(lower);
            let labels = &groups[last].0;
            // Centred: the mean of each label's end less its place below
            // the group's first.
            let first = labels
                .iter()
                .enumerate()
                .map(|(n, &l)| ends[l] - LABEL_LINE * n as f32)
                .sum::<f32>()
                / labels.len() as f32;
            let room = bottom - LABEL_LINE * (labels.len() - 1) as f32;
            groups[last].1 = first.min(room).max(top);
        }
    }
    let mut placed = vec![0.0; ends.len()];
    for (labels, first) in groups {
        for (n, l) in labels.into_iter().enumerate() {
            placed[l] = first + LABEL_LINE * n as f32;
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_stay_at_their_line_ends_when_there_is_room() {
        let ends = [40.0, 100.0, 160.0, 220.0];
        assert_eq!(label_heights(&ends, 0.0, 300.0), ends);
    }

    #[test]
    fn labels_of_equal_counts_are_moved_apart_around_their_count() {
        let placed = label_heights(&[100.0, 100.0, 50.0, 100.0], 0.0, 300.0);
        assert_eq!(placed[2], 50.0, "a label with room keeps its place");
        let mut same: Vec<f32> = vec![placed[0], placed[1], placed[3]];
        same.sort_by(f32::total_cmp);
        assert_eq!(same, [88.0, 100.0, 112.0], "centred on their count");
    }

    #[test]
    fn a_crowd_near_the_bottom_moves_up_not_through_the_axis() {
        let placed = label_heights(&[250.0, 250.0, 250.0], 0.0, 254.0);
        let mut sorted = placed.clone();
        sorted.sort_by(f32::total_cmp);
        assert_eq!(sorted, [230.0, 242.0, 254.0]);
    }

    /// The y of the label naming `power`, less the text's drop.
    fn label_y(chart: &Chart, power: &str) -> f32 {
        let end = chart
            .ends
            .iter()
            .find(|e| e.powers.iter().any(|p| p.power == power))
            .unwrap_or_else(|| panic!("no label names {power}"));
        end.y.parse::<f32>().unwrap() - 4.0
    }

    /// The y of `power`'s line's end.
    fn end_y(chart: &Chart, power: &str) -> f32 {
        let line = chart.lines.iter().find(|l| l.power == power).unwrap();
        let last = line.points.rsplit(' ').next().unwrap();
        last.split_once(',').unwrap().1.parse::<f32>().unwrap()
    }

    /// The chart: labels of equal counts stacked in a column from
    /// the top, pushing the others down ("Austria 2" printed at 0). Now
    /// one label per count, at its line's end; each line's end its own.
    #[test]
    fn labels_sit_at_their_lines_ends() {
        let rows = [
            ("start".to_string(), [3, 3, 3, 3, 3, 4, 3]),
            ("1901".to_string(), [2, 3, 6, 4, 4, 4, 3]),
        ];
        let chart = centres_chart(&rows).unwrap();
        for power in ["Austria", "France"] {
            let (label, end) = (label_y(&chart, power), end_y(&chart, power));
            assert!(
                (label - end).abs() <= SPREAD * 3.0 + 0.1,
                "{power}'s label at {label} for its line's end at {end}"
            );
        }
        let austria = chart
            .ends
            .iter()
            .find(|e| e.powers.iter().any(|p| p.power == "Austria"))
            .unwrap();
        assert_eq!(austria.powers.len(), 1);
        assert_eq!(austria.centres, 2);
        // Germany, Italy and Russia on 4: two lines about their count.
        let fours: Vec<&EndLabel> = chart
            .ends
            .iter()
            .filter(|e| {
                e.powers
                    .iter()
                    .any(|p| p.power == "Italy" || p.power == "Russia")
            })
            .collect();
        assert_eq!(fours.len(), 2);
        assert!(fours.iter().all(|line| line.centres == 4));
        let four = end_y(&chart, "Italy");
        let middle = (label_y(&chart, "Germany") + label_y(&chart, "Russia")) / 2.0;
        assert!((middle - four).abs() < LABEL_LINE, "{middle} {four}");
        let mut heights: Vec<f32> = chart.ends.iter().map(|e| e.y.parse().unwrap()).collect();
        heights.sort_by(f32::total_cmp);
        for pair in heights.windows(2) {
            assert!(pair[1] - pair[0] >= LABEL_LINE - 0.11, "{heights:?}");
        }
        // Equal counts, lines apart.
        assert!(end_y(&chart, "Italy") - end_y(&chart, "Germany") >= SPREAD - 0.11);
    }

    #[test]
    fn every_powers_colour_reads_on_white() {
        for power in Power::ALL {
            let colour = line_colour(power);
            let rgb =
                [1, 3, 5].map(|i| f64::from(u8::from_str_radix(&colour[i..i + 2], 16).unwrap()));
            assert!(contrast_on_white(rgb) >= READABLE, "{power:?}: {colour}");
        }
        // Dark colours stay as the map has them; Turkey's yellow darkens.
        assert_eq!(readable_on_white("#1F3C91"), "#1F3C91");
        let turkey = Palette::default().colours().power[Power::Turkey.index()];
        assert_ne!(line_colour(Power::Turkey), turkey);
    }

    #[test]
    fn a_chart_needs_two_rows() {
        assert!(centres_chart(&[("start".to_string(), [3; 7])]).is_none());
        let two = [("start".to_string(), [3; 7]), ("1901".to_string(), [4; 7])];
        let chart = centres_chart(&two).unwrap();
        assert_eq!(chart.lines.len(), 7);
        // Seven powers on 4: four lines, each with the count.
        assert_eq!(chart.ends.len(), 4);
        assert!(chart.ends.iter().all(|line| line.centres == 4));
    }
}
