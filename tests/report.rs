//! The results mail: real phases adjudicated by the engine, rendered with
//! the built-in template, and the lines players (and mapping tools) read
//! checked word for word; and a judgekeeper's template folder overriding
//! the built-in copy.

use judge::engine::adjudicate::{adjudicate, adjudicate_with, Adjudication};
use judge::engine::map::{Map, Power, UnitType};
use judge::engine::order::{Order, OrderKind};
use judge::engine::parse::parse_orders;
use judge::engine::phase::Phase;
use judge::engine::position::{Position, Unit};
use judge::engine::rules::Rules;
use judge::report::{render_results, render_subject, ReportError, ResultsContext, Templates};

use Power::*;

const DEADLINE: &str = "Thu Nov 26 2026 20:00 UTC";

fn map() -> &'static Map {
    Map::standard()
}

fn unit(power: Power, text: &str) -> Unit {
    let kind = match &text[..1] {
        "A" => UnitType::Army,
        "F" => UnitType::Fleet,
        _ => panic!("unit text {text}"),
    };
    Unit {
        power,
        kind,
        location: map().location_by_abbr(&text[2..]).expect("location"),
    }
}

/// A board at `phase` with `units` and every power owning its home centres.
fn board(phase: &str, units: &[(Power, &str)]) -> Position {
    let mut pos = Position::empty(map(), phase.parse().unwrap());
    pos.units = units.iter().map(|&(p, t)| unit(p, t)).collect();
    for power in Power::ALL {
        for &p in &pos.homes[power.index()] {
            pos.owners[p.index()] = Some(power);
        }
    }
    pos
}

/// Reads each power's orders with the player-facing parser and adjudicates.
fn play(pos: &Position, orders: &[(Power, &str)]) -> Adjudication {
    let mut parsed = Vec::new();
    for &(power, line) in orders {
        for r in parse_orders(map(), pos, power, line) {
            parsed.push(r.unwrap_or_else(|e| panic!("{power}: {line}: {e:?}")));
        }
    }
    adjudicate(map(), pos, &parsed)
}

fn render_with(
    templates: &Templates,
    before: &Position,
    adj: &Adjudication,
    game_over: Option<&str>,
) -> String {
    render_full(templates, before, adj, game_over, &[])
}

/// The results, with `in_disorder` the powers in civil disorder.
fn render_full(
    templates: &Templates,
    before: &Position,
    adj: &Adjudication,
    game_over: Option<&str>,
    in_disorder: &[Power],
) -> String {
    let cx = ResultsContext {
        judge_code: "JDG",
        game: "mygame",
        variant: "Standard",
        phase: before.phase,
        adjudication: adj,
        before,
        next_deadline: Some(DEADLINE.to_string()),
        game_over: game_over.map(str::to_string),
        in_disorder,
        inert: in_disorder,
        pages: None,
    };
    render_results(templates, &cx).expect("renders")
}

fn render(before: &Position, adj: &Adjudication) -> String {
    render_with(&Templates::builtin(), before, adj, None)
}

fn has_line(text: &str, line: &str) {
    assert!(
        text.lines().any(|l| l == line),
        "no line {line:?} in:\n{text}"
    );
}

fn lacks(text: &str, part: &str) {
    assert!(!text.contains(part), "{part:?} should not be in:\n{text}");
}

#[test]
fn subject() {
    assert_eq!(
        render_subject("JDG", "mygame", Phase::START),
        "JDG:mygame - S1901M Results"
    );
}

#[test]
fn spring_movement_with_a_bounce() {
    let before = Position::standard_start(map());
    let adj = play(
        &before,
        &[
            (Austria, "A Vie - Gal, F Tri - Alb"),
            (Russia, "A War - Gal"),
            (France, "A Par - Bur"),
        ],
    );
    let text = render(&before, &adj);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..5],
        [
            ":: Judge: JDG  Game: mygame  Variant: Standard",
            ":: Deadline: F1901M Thu Nov 26 2026 20:00 UTC",
            "",
            "Movement results for Spring of 1901.",
            "",
        ]
    );
    // Austria's orders first, by province, then a blank line, England's.
    assert_eq!(
        lines[5..9],
        [
            "Austria: Army Budapest HOLD.  (*no order*)",
            "Austria: Fleet Trieste -> Albania.",
            "Austria: Army Vienna -> Galicia.  (*bounce*)",
            "",
        ]
    );
    has_line(&text, "France:  Army Paris -> Burgundy.");
    has_line(&text, "Russia:  Army Warsaw -> Galicia.  (*bounce*)");
    has_line(&text, "Turkey:  Army Smyrna HOLD.  (*no order*)");
    // Every unit has its line.
    let order_lines = text
        .lines()
        .filter(|l| Power::ALL.iter().any(|p| l.starts_with(&format!("{p}:"))))
        .count();
    assert_eq!(order_lines, 22);
    lacks(&text, "dislodged");
    lacks(&text, "Ownership");
    assert!(text.ends_with(
        "\nThe next phase of 'mygame' will be Movement for Fall of 1901.\n\
         The deadline for orders will be Thu Nov 26 2026 20:00 UTC.\n"
    ));
}

#[test]
fn cut_support_dislodgement_and_retreat_options() {
    let before = board(
        "S1901M",
        &[
            (Austria, "A TRI"),
            (Austria, "A TYR"),
            (Italy, "A VEN"),
            (Italy, "A ROM"),
            (Italy, "A PIE"),
            (Russia, "F SEV"),
            (Russia, "A UKR"),
            (Turkey, "F BLA"),
        ],
    );
    let adj = play(
        &before,
        &[
            (Austria, "A Tri - Ven, A Tyr S A Tri - Ven"),
            (Italy, "A Ven H, A Rom H, A Pie H"),
            (Russia, "F Sev S A Ukr - Rum, A Ukr - Rum"),
            (Turkey, "F Bla - Sev"),
        ],
    );
    let text = render(&before, &adj);
    has_line(&text, ":: Deadline: S1901R Thu Nov 26 2026 20:00 UTC");
    has_line(&text, "Austria: Army Trieste -> Venice.");
    has_line(
        &text,
        "Austria: Army Tyrolia SUPPORT Army Trieste -> Venice.",
    );
    has_line(&text, "Italy:   Army Venice HOLD.  (*dislodged*)");
    has_line(
        &text,
        "Russia:  Fleet Sevastopol SUPPORT Army Ukraine -> Rumania.  (*cut*)",
    );
    has_line(&text, "Russia:  Army Ukraine -> Rumania.");
    has_line(&text, "Turkey:  Fleet Black Sea -> Sevastopol.  (*bounce*)");
    assert!(text.contains(
        "\n\nThe following units were dislodged:\n\
         The Italian Army in Venice can retreat to Apulia or Tuscany.\n\n"
    ));
    has_line(
        &text,
        "The next phase of 'mygame' will be Retreats for Spring of 1901.",
    );
}

#[test]
fn many_retreat_options_with_coasts_are_folded() {
    // The French fleet in the Mid-Atlantic, driven out by two English
    // fleets, may go to both coasts of Spain, among others.
    let before = board(
        "F1901M",
        &[
            (England, "F ENG"),
            (England, "F IRI"),
            (France, "F MAO"),
            (France, "A GAS"),
            (France, "A POR"),
            (Germany, "F WAL"),
        ],
    );
    let adj = play(
        &before,
        &[
            (England, "F Eng - Mao, F Iri S F Eng - Mao"),
            (Germany, "F Wal H"),
        ],
    );
    let text = render(&before, &adj);
    has_line(
        &text,
        "France:  Fleet Mid-Atlantic Ocean HOLD.  (*dislodged, no order*)",
    );
    has_line(&text, "Germany: Fleet Wales HOLD.");
    assert!(
        text.contains(
            "\nThe following units were dislodged:\n\
             The French Fleet in Mid-Atlantic Ocean can retreat to Brest, North Africa,\n    \
             North Atlantic Ocean, Spain (north coast), Spain (south coast) or Western\n    \
             Mediterranean.\n"
        ),
        "{text}"
    );
    // A Fall movement with retreats to come: ownership waits for them.
    lacks(&text, "Ownership");
    has_line(
        &text,
        "The next phase of 'mygame' will be Retreats for Fall of 1901.",
    );
}

#[test]
fn a_unit_with_nowhere_to_go_is_destroyed() {
    let before = board(
        "S1902M",
        &[
            (Austria, "F TRI"),
            (Italy, "F ADR"),
            (Italy, "A VEN"),
            (Turkey, "A ALB"),
            (Turkey, "A SER"),
            (Russia, "A BUD"),
            (Russia, "A VIE"),
            (Germany, "A TYR"),
        ],
    );
    let adj = play(&before, &[(Italy, "F Adr - Tri, A Ven S F Adr - Tri")]);
    assert_eq!(adj.destroyed.len(), 1);
    let text = render(&before, &adj);
    has_line(
        &text,
        "Austria: Fleet Trieste HOLD.  (*dislodged, destroyed, no order*)",
    );
    has_line(&text, "Italy:   Fleet Adriatic Sea -> Trieste.");
    assert!(text.contains(
        "\n\nThe following units were dislodged:\n\
         The Austrian Fleet in Trieste with no place to retreat was destroyed.\n\n"
    ));
    // Nothing left to retreat: the next phase is the Fall movement.
    has_line(&text, ":: Deadline: F1902M Thu Nov 26 2026 20:00 UTC");
}

/// A unit of a power in civil disorder is destroyed when dislodged though
/// it had somewhere to go, and its orders are void: the results say why.
#[test]
fn civil_disorder_is_the_reason_given() {
    let before = board(
        "S1902M",
        &[(Austria, "A TYR"), (Austria, "A TRI"), (Italy, "A VEN")],
    );
    let mut rules = Rules::standard();
    rules.set_inert(Italy);
    let orders = [
        parse_orders(map(), &before, Austria, "A Tyr - Ven, A Tri S A Tyr - Ven"),
        parse_orders(map(), &before, Italy, "A Ven - Pie"),
    ];
    let orders: Vec<Order> = orders.into_iter().flatten().map(Result::unwrap).collect();
    let adj = adjudicate_with(map(), &before, &orders, &rules);
    let text = render_full(&Templates::builtin(), &before, &adj, None, &[Italy]);
    has_line(
        &text,
        "Italy:   Army Venice -> Piedmont.  (*void, dislodged, destroyed*) \
         (Italy is in civil disorder: its orders are not carried out)",
    );
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "The Italian Army in Venice was destroyed: Italy is in civil disorder, and \
             its dislodged units do not retreat."
        ),
        "{text}"
    );
    assert!(
        flat.contains("In civil disorder: Italy. Their units hold without orders, retreat nowhere"),
        "{text}"
    );
    lacks(&text, "with no place to retreat");
}

/// A power that builds nothing (in civil disorder, or out of a game for
/// fewer players) is shown due no builds in the Fall table.
#[test]
fn a_power_that_builds_nothing_is_due_no_builds() {
    let before = board(
        "F1901M",
        &[(Italy, "A VEN"), (Italy, "A ROM"), (France, "A PAR")],
    );
    let adj = adjudicate_with(map(), &before, &[], &Rules::standard());
    let text = render_full(&Templates::builtin(), &before, &adj, None, &[Italy]);
    has_line(
        &text,
        "Italy:     3 Supply centres,  2 Units:  Builds   0 units.",
    );
    has_line(
        &text,
        "France:    3 Supply centres,  1 Unit:   Builds   2 units.",
    );
}

#[test]
fn void_orders_are_reported() {
    let before = Position::standard_start(map());
    // An order for a unit Germany does not have.
    let stray = Order::new(
        Germany,
        UnitType::Army,
        map().location_by_abbr("PAR").unwrap(),
        OrderKind::Move {
            to: map().location_by_abbr("PIC").unwrap(),
            via_convoy: false,
        },
    );
    let adj = adjudicate(map(), &before, &[stray]);
    let text = render(&before, &adj);
    has_line(
        &text,
        "Germany: Army Paris -> Picardy.  (*void*) (no unit of the power's there)",
    );
    has_line(&text, "France:  Army Paris HOLD.  (*no order*)");
}

/// Spring and Fall 1901: France takes Spain, Russia Rumania; the Fall
/// results show who owns what and the builds.
#[test]
fn fall_turn_ownership_and_adjustments() {
    let spring = Position::standard_start(map());
    let adj = play(
        &spring,
        &[
            (France, "A Mar - Spa, A Par - Bur, F Bre - Mao"),
            (Russia, "F Sev - Rum"),
            (Germany, "A Mun - Bur"),
        ],
    );
    let text = render(&spring, &adj);
    has_line(&text, "France:  Army Paris -> Burgundy.  (*bounce*)");
    has_line(&text, "Germany: Army Munich -> Burgundy.  (*bounce*)");
    lacks(&text, "Ownership");

    let fall = adj.next.clone();
    assert_eq!(fall.phase.to_string(), "F1901M");
    let adj = play(&fall, &[(France, "A Spa H, F Mao - Por")]);
    assert_eq!(adj.next.phase.to_string(), "W1901A");
    let text = render(&fall, &adj);
    has_line(&text, ":: Deadline: W1901A Thu Nov 26 2026 20:00 UTC");
    has_line(&text, "Movement results for Fall of 1901.");
    has_line(&text, "France:  Fleet Mid-Atlantic Ocean -> Portugal.");
    let expected = "\n\
        Ownership of supply centres:\n\
        \n\
        Austria:   Budapest, Trieste, Vienna.\n\
        England:   Edinburgh, Liverpool, London.\n\
        France:    Brest, Marseilles, Paris, Portugal, Spain.\n\
        Germany:   Berlin, Kiel, Munich.\n\
        Italy:     Naples, Rome, Venice.\n\
        Russia:    Moscow, Rumania, Sevastopol, St Petersburg, Warsaw.\n\
        Turkey:    Ankara, Constantinople, Smyrna.\n\
        Unowned:   Belgium, Bulgaria, Denmark, Greece, Holland, Norway, Serbia,\n           \
        Sweden, Tunis.\n\
        \n\
        Austria:   3 Supply centres,  3 Units:  Builds   0 units.\n\
        England:   3 Supply centres,  3 Units:  Builds   0 units.\n\
        France:    5 Supply centres,  3 Units:  Builds   2 units.\n\
        Germany:   3 Supply centres,  3 Units:  Builds   0 units.\n\
        Italy:     3 Supply centres,  3 Units:  Builds   0 units.\n\
        Russia:    5 Supply centres,  4 Units:  Builds   1 unit.\n\
        Turkey:    3 Supply centres,  3 Units:  Builds   0 units.\n\
        \n\
        The next phase of 'mygame' will be Adjustments for Winter of 1901.\n\
        The deadline for orders will be Thu Nov 26 2026 20:00 UTC.\n";
    assert!(text.ends_with(expected), "{text}");

    // The winter: France builds two, Russia waives its build.
    let winter = adj.next.clone();
    let adj = play(
        &winter,
        &[
            (France, "Build A Mar, Build F Bre, Waive"),
            (Russia, "Waive"),
        ],
    );
    let text = render(&winter, &adj);
    has_line(&text, "Adjustment results for Winter of 1901.");
    let orders: Vec<&str> = text.lines().filter(|l| l.starts_with("France:")).collect();
    assert_eq!(
        orders,
        [
            "France:  Build army Marseilles.",
            "France:  Build fleet Brest.",
            "France:  Build waived.  (*void*) (more builds than were due)",
        ]
    );
    has_line(&text, "Russia:  Build waived.");
    lacks(&text, "Russia:  Build waived.  (*no order*)");
    lacks(&text, "Ownership");
    has_line(&text, ":: Deadline: S1902M Thu Nov 26 2026 20:00 UTC");
    has_line(
        &text,
        "The next phase of 'mygame' will be Movement for Spring of 1902.",
    );

    // Builds not ordered are reported as waived.
    let adj = play(&winter, &[(France, "Build A Mar")]);
    let text = render(&winter, &adj);
    let orders: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("France:") || l.starts_with("Russia:"))
        .collect();
    assert_eq!(
        orders,
        [
            "France:  Build army Marseilles.",
            "France:  Build waived.  (*no order*)",
            "Russia:  Build waived.  (*no order*)",
        ]
    );
}

/// The Fall retreats are followed by the ownership block; a removal is
/// counted as one.
#[test]
fn fall_retreats_then_ownership_with_a_removal() {
    let mut before = board(
        "F1901M",
        &[
            (Austria, "A TRI"),
            (Austria, "A TYR"),
            (Italy, "A VEN"),
            (Italy, "A ROM"),
            (Italy, "A PIE"),
        ],
    );
    before.units.push(unit(Italy, "A APU"));
    let adj = play(&before, &[(Austria, "A Tri - Ven, A Tyr S A Tri - Ven")]);
    let text = render(&before, &adj);
    has_line(&text, "The Italian Army in Venice can retreat to Tuscany.");
    lacks(&text, "Ownership");

    let retreat = adj.next.clone();
    assert_eq!(retreat.phase.to_string(), "F1901R");
    let adj = play(&retreat, &[(Italy, "A Ven - Tus")]);
    let text = render(&retreat, &adj);
    has_line(&text, "Retreat results for Fall of 1901.");
    has_line(&text, "Italy:   Army Venice -> Tuscany.");
    has_line(&text, "Ownership of supply centres:");
    has_line(&text, "Austria:   Budapest, Trieste, Venice, Vienna.");
    has_line(&text, "Italy:     Naples, Rome.");
    has_line(
        &text,
        "Austria:   4 Supply centres,  2 Units:  Builds   2 units.",
    );
    has_line(
        &text,
        "Italy:     2 Supply centres,  4 Units:  Removes  2 units.",
    );
    // Powers with neither centres nor units are left out.
    has_line(
        &text,
        "Turkey:    3 Supply centres,  0 Units:  Builds   3 units.",
    );
}

#[test]
fn the_game_over_replaces_the_next_phase() {
    let before = Position::standard_start(map());
    let adj = play(&before, &[]);
    let text = render_with(
        &Templates::builtin(),
        &before,
        &adj,
        Some("The game was declared a draw between England, France and Russia."),
    );
    has_line(
        &text,
        "The game was declared a draw between England, France and Russia.",
    );
    lacks(&text, ":: Deadline");
    lacks(&text, "The next phase");
    lacks(&text, "The deadline");
    has_line(&text, ":: Judge: JDG  Game: mygame  Variant: Standard");
}

/// France with 17 centres takes its 18th in the Fall.
#[test]
fn a_winner() {
    let mut before = board("F1905M", &[(France, "A BUR"), (Germany, "A BER")]);
    for abbr in [
        "BEL", "HOL", "SPA", "POR", "TUN", "NAP", "ROM", "VEN", "LON", "LVP", "EDI", "NWY", "KIE",
        "DEN",
    ] {
        let p = map().province_by_abbr(abbr).unwrap();
        before.owners[p.index()] = Some(France);
    }
    assert_eq!(before.centre_count(France), 17);
    let adj = play(&before, &[(France, "A Bur - Mun")]);
    assert_eq!(adj.winner, Some(France));
    let text = render(&before, &adj);
    assert!(text.contains(
        "\nFrance:    Belgium, Brest, Denmark, Edinburgh, Holland, Kiel, Liverpool,\n\
         \x20          London, Marseilles, Munich, Naples, Norway, Paris, Portugal, Rome,\n\
         \x20          Spain, Tunis, Venice.\n"
    ));
    has_line(
        &text,
        "France:   18 Supply centres,  1 Unit:   Builds  17 units.",
    );
    has_line(
        &text,
        "Germany:   1 Supply centre,   1 Unit:   Builds   0 units.",
    );
    has_line(
        &text,
        "The game is over: France has won with 18 supply centres.",
    );
    lacks(&text, ":: Deadline");
    lacks(&text, "The next phase");

    // The caller's sentence wins over the template's own.
    let text = render_with(
        &Templates::builtin(),
        &before,
        &adj,
        Some("France has won with 18 supply centres."),
    );
    has_line(&text, "France has won with 18 supply centres.");
    lacks(&text, "The game is over");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "judge-report-{name}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_template_folder_overrides_the_builtin_copy() {
    let dir = temp_dir("override");
    std::fs::write(
        dir.join("results.txt"),
        "Results of {{ phase.code }} in {{ game }}:\n\
         {% for g in orders %}{% for o in g.orders %}\
         {{ g.power }} {{ o.text }}{% if o.tags %} [{{ o.tags|join('/') }}]{% endif +%}\n\
         {% endfor %}{% endfor %}",
    )
    .unwrap();
    let templates = Templates::from_dir(&dir).expect("loads");
    assert_eq!(
        templates.origin("results.txt"),
        Some(dir.join("results.txt").display().to_string().as_str())
    );
    let before = Position::standard_start(map());
    let adj = play(
        &before,
        &[(Austria, "A Vie - Gal"), (Russia, "A War - Gal")],
    );
    let text = render_with(&templates, &before, &adj, None);
    assert!(text.starts_with("Results of S1901M in mygame:\n"), "{text}");
    has_line(&text, "Austria Army Vienna -> Galicia. [bounce]");
    has_line(&text, "Turkey Army Smyrna HOLD. [no order]");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_or_folder_falls_back_to_the_builtin_copy() {
    let dir = temp_dir("empty");
    let templates = Templates::from_dir(&dir).expect("loads");
    assert_eq!(
        templates.origin("results.txt"),
        Some("built-in results.txt")
    );
    let before = Position::standard_start(map());
    let adj = play(&before, &[]);
    assert_eq!(
        render_with(&templates, &before, &adj, None),
        render(&before, &adj)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(Templates::from_dir(dir.join("nowhere")).is_ok());
}

#[test]
fn a_broken_template_is_reported_when_loaded() {
    let dir = temp_dir("broken");
    std::fs::write(dir.join("results.txt"), "{% for o in orders %}no end\n").unwrap();
    let err = Templates::from_dir(&dir).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, ReportError::Template { .. }), "{message}");
    assert!(message.contains("results.txt"), "{message}");

    // A misspelt variable is refused too, not printed as nothing.
    std::fs::write(dir.join("results.txt"), "{{ gmae }}\n").unwrap();
    let message = Templates::from_dir(&dir).unwrap_err().to_string();
    assert!(message.contains("undefined"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_typo_in_a_rarely_used_branch_is_found_at_load() {
    let dir = temp_dir("branch");
    // The retreat line is printed only when a unit was dislodged.
    let text = include_str!("../templates/results.txt").replace("d.retreats", "d.retreets");
    std::fs::write(dir.join("results.txt"), text).unwrap();
    let message = Templates::from_dir(&dir).unwrap_err().to_string();
    assert!(message.contains("results.txt"), "{message}");
    assert!(message.contains("undefined"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
