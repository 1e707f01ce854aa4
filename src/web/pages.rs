//! The pages as HTML text, from the views: pure (no store, no files), so
//! each is the same text for the same game.

use std::fmt::Write;

use super::chart::centres_chart;
use super::html::{date, escape, page};
use super::view::{GameCard, GameView, PhaseView};
use crate::engine::map::{Map, Power};
use crate::engine::phase::{Phase, PhaseKind};
use crate::engine::position::Position;
use crate::report::void_reason;
use crate::store::web::IndexRow;

/// "Spring 1901 Movement".
pub fn phase_words(phase: Phase) -> String {
    format!(
        "{} {} {}",
        phase.season_name(),
        phase.year,
        phase.kind_name()
    )
}

/// `index.html` at the top: the games' rows (newest activity first), the
/// finished ones in a list of their own.
pub fn site_index(judge_name: &str, rows: &[IndexRow]) -> String {
    let (over, going): (Vec<&IndexRow>, Vec<&IndexRow>) = rows.iter().partition(|r| r.over);
    let mut body = format!("<h1>{}: the games</h1>\n", escape(judge_name));
    body.push_str("<section id=\"games\">\n<h2>Games in play</h2>\n");
    games_table(&mut body, &going);
    body.push_str("</section>\n<section id=\"finished\">\n<h2>Finished games</h2>\n");
    games_table(&mut body, &over);
    body.push_str("</section>\n");
    page(
        &format!("{judge_name}: the games"),
        "style.css",
        "",
        &body,
        "",
    )
}

fn games_table(out: &mut String, rows: &[&IndexRow]) {
    if rows.is_empty() {
        out.push_str("<p class=\"muted\">None.</p>\n");
        return;
    }
    out.push_str(
        "<div class=\"scroll\"><table>\n<thead><tr><th>Game</th><th>Variant</th><th>State</th>\
         <th>Phase</th><th>Year</th><th>Powers (centres)</th><th>Result</th><th>Last activity</th>\
         </tr></thead>\n<tbody>\n",
    );
    for row in rows {
        out.push_str(&row.html);
    }
    out.push_str("</tbody>\n</table></div>\n");
}

/// A game's row in the list of games (kept in the store as written).
pub fn index_row(card: &GameCard) -> IndexRow {
    let name = escape(&card.name);
    let powers: Vec<String> = card
        .centres
        .iter()
        .map(|(p, n)| format!("{} {n}", p.name()))
        .collect();
    let html = format!(
        "<tr><td><a href=\"{name}/index.html\">{name}</a></td><td>{}</td><td>{}</td>\
         <td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape(&card.variant),
        card.state.as_str(),
        card.current.map(|p| p.to_string()).unwrap_or_default(),
        card.current.map(|p| p.year.to_string()).unwrap_or_default(),
        escape(&powers.join(", ")),
        escape(card.result.as_deref().unwrap_or("")),
        date(card.activity),
    );
    IndexRow {
        html,
        activity: card.activity,
        over: card.state.is_over(),
    }
}

/// `<game>/index.html`: settings, who played, the phases, the centres
/// year by year (table and chart), the press to everyone.
pub fn game_index(view: &GameView) -> String {
    let card = &view.card;
    let name = escape(&card.name);
    let mut body = format!(
        "<nav><a rel=\"up\" href=\"../index.html\">All games</a>\
         <a href=\"feed.atom\">Feed</a><a href=\"game.json\">JSON</a></nav>\n\
         <h1>{name}</h1>\n<p>{}, {}{}{}</p>\n",
        escape(&card.variant),
        card.state.as_str(),
        card.current
            .map(|p| format!(", {}", phase_words(p)))
            .unwrap_or_default(),
        card.result
            .as_deref()
            .map(|r| format!(". {}", escape(r)))
            .unwrap_or_default(),
    );
    settings_and_players(&mut body, view);
    body.push_str("<section id=\"phases\">\n<h2>Phases</h2>\n");
    if view.phases.is_empty() {
        body.push_str("<p class=\"muted\">No phase has been processed yet.</p>\n");
    } else {
        body.push_str("<ol class=\"plain\">\n");
        for line in &view.phases {
            let _ = writeln!(
                body,
                "<li><a href=\"{code}.html\">{code}</a> {} <span class=\"muted\">({})</span></li>",
                phase_words(line.phase),
                date(line.processed_at),
                code = line.phase,
            );
        }
        body.push_str("</ol>\n");
    }
    body.push_str("</section>\n");
    centres_table(&mut body, &view.years);
    press(&mut body, view);
    let head = "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"feed.atom\">\n";
    page(&card.name, "../style.css", head, &body, "")
}

/// The `i`th of `count` players of a power, and when: "first player, from
/// S1901M", "first player, S1901M to F1902M", "replacement, from W1902A"
/// (numbered when there were several).
fn tenure(i: usize, count: usize, from: &str, to: Option<&str>) -> String {
    let who = match i {
        0 => "first player".to_string(),
        _ if count == 2 => "replacement".to_string(),
        _ => format!("replacement {i}"),
    };
    match to {
        None => format!("{who}, from {}", escape(from)),
        Some(to) => format!("{who}, {} to {}", escape(from), escape(to)),
    }
}

fn settings_and_players(body: &mut String, view: &GameView) {
    body.push_str("<section id=\"settings\">\n<h2>Settings</h2>\n<table>\n");
    for (what, value) in &view.settings {
        let _ = writeln!(body, "<tr><th>{what}</th><td>{}</td></tr>", escape(value));
    }
    body.push_str("</table>\n</section>\n<section id=\"players\">\n<h2>Players</h2>\n");
    if view.powers.is_empty() {
        body.push_str("<p class=\"muted\">No powers assigned yet.</p>\n");
    } else {
        body.push_str("<table>\n<tr><th>Power</th><th>Played by</th></tr>\n");
        for p in &view.powers {
            let players: Vec<String> = p
                .tenures
                .iter()
                .enumerate()
                .map(|(i, (from, to))| tenure(i, p.tenures.len(), from, to.as_deref()))
                .collect();
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td></tr>",
                p.power.name(),
                players.join("; ")
            );
        }
        body.push_str("</table>\n");
    }
    body.push_str("</section>\n");
}

fn centres_table(body: &mut String, years: &[(String, [usize; 7])]) {
    body.push_str("<section id=\"centres\">\n<h2>Supply centres</h2>\n");
    if years.is_empty() {
        body.push_str("<p class=\"muted\">The game has not started.</p>\n</section>\n");
        return;
    }
    body.push_str("<div class=\"scroll\"><table>\n<tr><th>After</th>");
    for p in Power::ALL {
        let _ = write!(body, "<th class=\"n\">{}</th>", p.name());
    }
    body.push_str("</tr>\n");
    for (label, counts) in years {
        let _ = write!(body, "<tr><td>{}</td>", escape(label));
        for n in counts {
            let _ = write!(body, "<td class=\"n\">{n}</td>");
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</table></div>\n");
    body.push_str(&centres_chart(years));
    body.push_str("</section>\n");
}

fn press(body: &mut String, view: &GameView) {
    body.push_str("<section id=\"press\">\n<h2>Press to everyone</h2>\n");
    if view.press.is_empty() {
        body.push_str("<p class=\"muted\">None.</p>\n");
    }
    for item in &view.press {
        let _ = writeln!(
            body,
            "<article id=\"press-{}\"><h3 dir=\"auto\">{}</h3><p class=\"muted\">{}{}</p><pre dir=\"auto\">{}</pre></article>",
            item.id,
            escape(&item.subject),
            date(item.sent_at),
            item.phase
                .as_deref()
                .map(|p| format!(", {}", escape(p)))
                .unwrap_or_default(),
            escape(&item.body),
        );
    }
    body.push_str("</section>\n");
}

/// Left and right arrow keys follow the links to the previous and next
/// phase (the links work without it).
const STEP_KEYS: &str = "document.addEventListener('keydown', function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var rel = e.key === 'ArrowLeft' ? 'prev' : e.key === 'ArrowRight' ? 'next' : null;
  var a = rel && document.querySelector('a[rel=\"' + rel + '\"]');
  if (a) window.location.href = a.href;
});";

/// `<game>/<PHASE>.html`: the map, the orders with their results, the
/// retreats, the centres after; links to the neighbouring phases.
pub fn phase_page(view: &PhaseView, prev: Option<Phase>, next: Option<Phase>) -> String {
    let map = Map::standard();
    let code = view.phase.to_string();
    let words = phase_words(view.phase);
    let mut body = String::from("<nav>");
    if let Some(p) = prev {
        let _ = write!(body, "<a rel=\"prev\" href=\"{p}.html\">&larr; {p}</a>");
    }
    body.push_str("<a rel=\"up\" href=\"index.html\">The game</a>");
    if let Some(p) = next {
        let _ = write!(body, "<a rel=\"next\" href=\"{p}.html\">{p} &rarr;</a>");
    }
    let _ = writeln!(
        body,
        "</nav>\n<h1>{}: {words} ({code})</h1>\n<p class=\"muted\">Processed {}.</p>\n\
         <img id=\"map\" src=\"{code}.svg\" alt=\"The map of {words}: the units, their orders and what came of them\">",
        escape(&view.game),
        date(view.processed_at),
    );
    orders(&mut body, map, view);
    retreats(&mut body, map, view);
    if let Some(after) = &view.after {
        centres_after(&mut body, map, &view.before, after);
    }
    if let Some(mail) = &view.results_mail {
        // The classic text readers of judges' archives know, folded away:
        // it also says who was in civil disorder and which builds were
        // waived.
        let _ = writeln!(
            body,
            "<section id=\"results-mail\">\n<details><summary>The results mail, as the \
             players got it</summary>\n<pre>{}</pre>\n</details>\n</section>",
            escape(mail.trim_end())
        );
    }
    page(
        &format!("{} {code}", view.game),
        "../style.css",
        "",
        &body,
        STEP_KEYS,
    )
}

fn orders(body: &mut String, map: &Map, view: &PhaseView) {
    body.push_str("<section id=\"orders\" class=\"orders\">\n<h2>Orders and results</h2>\n");
    if view.orders.is_empty() {
        body.push_str("<p class=\"muted\">No orders.</p>\n");
    }
    for power in Power::ALL {
        let mine: Vec<_> = view
            .orders
            .iter()
            .filter(|(o, _)| o.power == power)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(body, "<h3>{}</h3>\n<ul>", power.name());
        for (order, outcome) in mine {
            let tags: Vec<&str> = outcome.tags().collect();
            let tags = if tags.is_empty() {
                String::new()
            } else {
                format!("  <span class=\"tags\">(*{}*)</span>", tags.join(", "))
            };
            // As the results mail: no order voided without a word. Who was
            // in civil disorder then is not kept per phase, so only the
            // reasons the position gives.
            let reason = void_reason(map, &view.before, &[], order, *outcome)
                .map(|r| format!(" <span class=\"reason\">({})</span>", escape(&r)))
                .unwrap_or_default();
            let _ = writeln!(body, "<li>{}{tags}{reason}</li>", escape(&order.long(map)));
        }
        body.push_str("</ul>\n");
    }
    body.push_str("</section>\n");
}

fn retreats(body: &mut String, map: &Map, view: &PhaseView) {
    if view.phase.kind != PhaseKind::Movement || view.dislodged.is_empty() {
        return;
    }
    body.push_str("<section id=\"dislodged\">\n<h2>Dislodged units</h2>\n<ul class=\"plain\">\n");
    for d in &view.dislodged {
        let places: Vec<String> = d.retreats.iter().map(|&l| map.loc_name(l)).collect();
        let can = match places.split_last() {
            None => "has nowhere to retreat and is destroyed".to_string(),
            Some((last, [])) => format!("can retreat to {last}"),
            Some((last, rest)) => format!("can retreat to {} or {last}", rest.join(", ")),
        };
        let _ = writeln!(
            body,
            "<li>The {} {} in {} {}.</li>",
            d.unit.power.adjective(),
            d.unit.kind.name(),
            escape(&map.loc_name(d.unit.location)),
            escape(&can)
        );
    }
    body.push_str("</ul>\n</section>\n");
}

/// Who owns which centres after the phase, with the units and the builds
/// or removals due when the next phase is the adjustments.
fn centres_after(body: &mut String, map: &Map, before: &Position, after: &Position) {
    let adjusting = after.phase.kind == PhaseKind::Adjustment;
    let changed = before.owners != after.owners;
    let _ = writeln!(
        body,
        "<section id=\"ownership\">\n<h2>Supply centres after the phase{}</h2>\n\
         <div class=\"scroll\"><table>\n<tr><th>Power</th><th class=\"n\">Centres</th>\
         <th class=\"n\">Units</th>{}<th>Centres owned</th></tr>",
        if changed { " (changed)" } else { "" },
        if adjusting { "<th>Adjustment</th>" } else { "" },
    );
    for power in Power::ALL {
        let centres = after.centre_count(power);
        let units = after.unit_count(power);
        if centres == 0 && units == 0 {
            continue;
        }
        let mut names: Vec<&str> = map
            .supply_centres()
            .filter(|&p| after.owner(p) == Some(power))
            .map(|p| map.name(p))
            .collect();
        names.sort_unstable();
        let due = after.adjustment_due(power);
        let adjustment = match due {
            _ if !adjusting => String::new(),
            0 => "<td>none</td>".to_string(),
            d if d > 0 => format!("<td>builds {d}</td>"),
            d => format!("<td>removes {}</td>", -d),
        };
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"n\">{centres}</td><td class=\"n\">{units}</td>{adjustment}<td>{}</td></tr>",
            power.name(),
            names.join(", ")
        );
    }
    body.push_str("</table></div>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::tenure;

    #[test]
    fn a_powers_players_are_named_by_turn_and_phases() {
        assert_eq!(tenure(0, 1, "S1901M", None), "first player, from S1901M");
        assert_eq!(
            tenure(0, 2, "S1901M", Some("F1902M")),
            "first player, S1901M to F1902M"
        );
        assert_eq!(tenure(1, 2, "S1903M", None), "replacement, from S1903M");
        assert_eq!(tenure(2, 3, "S1905M", None), "replacement 2, from S1905M");
    }
}
