#!/usr/bin/env python3
"""Converts the DATC (Diplomacy Adjudicator Test Cases) into the project's own
test data: `tests/datc/v2.4.jsonl` and `tests/datc/v3.jsonl`, read by
`tests/datc.rs`.

Usage: python3 tools/datc_convert.py [SHARED_DATC_DIR] [OUT_DIR]
(defaults: ../shared/datc relative to the repository, and tests/datc).

Only facts are carried over: the position, the orders and the expected
outcome. Comments and prose of the sources are dropped.

Each output line is one case, in the shape of the `judge adjudicate` JSON
input plus expectations. Locations use our upper-case abbreviations
(`NAO NWG MAO LYO`, coasts `SPA/NC`); orders use our canonical short form
(`A PAR - BUR`, `A LVP - YOR VIA CONVOY`, `F NTH S A YOR`,
`F NTH C A LON - NWY`, `A BUR R GAS`, `A BUR DISBAND`, `BUILD F STP/NC`,
`REMOVE A MUN`, `WAIVE`). Two orders of the sources that our short form has
no canonical text for are written in the same style: a convoy of a fleet
(`F NTH C F LON - BEL`) and a support naming a coast (`F POR S F MAO -
SPA/NC`); the test's order reader documents how it takes them.

v2.4 lines: `name, phase, units, [centers], [retreats],
[preceding_movement], orders, expect {units, dislodged, [retreats,
destroyed, retreats_undecided], [orders, disbanded]}`.
  - `centers` only when the case sets the ownership; otherwise each power
    owns its home centres.
  - `expect.dislodged`: as in the source, only the units dislodged with
    somewhere to retreat; a unit destroyed at once is in neither list.
  - retreat cases: `retreats` {POWER: {UNIT: [LOCATION]}} (the key of the
    `judge adjudicate` input), where each unit of PRESTATE_DISLODGED may go,
    worked out here from the map's borders (read from
    `crates/engine/src/map_data.rs`) and PRESTATE_RESULTS by the DATC's retreat
    rule (`v24_retreats`); `expect.orders` {POWER: {ORDER:
    "succeeds"|"fails"}} and `expect.disbanded` {POWER: [UNIT]}, read off
    the POSTSTATE (`v24_retreat_results`); `preceding_movement` {phase,
    units, orders, expect_orders, expect_destroyed}: the movement phase
    the case follows, rebuilt from PRESTATE, PRESTATE_DISLODGED and
    PRESTATE_RESULTS (`v24_preceding_movement`).
  - movement cases: `expect.retreats` {POWER: {UNIT: [LOCATION]}} where
    each unit of POSTSTATE_DISLODGED may retreat, `expect.destroyed`
    {POWER: [UNIT]} the units gone from both lists, and
    `expect.retreats_undecided` {POWER: {UNIT: why}} the dislodged units
    whose options the case does not decide (`v24_movement_retreats`).
  - `V24_LINE_ERRATA`: lines of the v2.4 file that contradict the DATC's
    own case, corrected (and printed) on the way.

v3 lines: `name, datc, phase, [units], [occupiers], [civil_disorder],
[preceding_main_phase {phase, units, orders, expect_orders}], orders,
expect_orders {POWER: {ORDER: "succeeds"|"fails"}}, [expect_source],
[source_ignore], [source_errata]`.
  - every order has its expected result: the source's, or, where the
    source has none (null), the one `tests/datc/v3_annotations.jsonl` gives
    from the DATC text; `expect_source` is that file's note for the case.
  - no `starting_state`: the units are exactly those the orders name (build
    orders name no unit).
  - build cases: `occupiers` {PROVINCE: POWER} changes ownership after the
    standard home centres and the units' own provinces (the Fall update).
"""

import json
import os
import re
import sys

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
V3_POWERS = {p[:3]: p for p in POWERS}
# DATC ids that differ from our abbreviations.
RENAME = {"NAT": "NAO", "NRG": "NWG", "MID": "MAO", "GOL": "LYO"}
SEAS = {
    "ADR", "AEG", "BAL", "BAR", "BLA", "BOT", "EAS", "ENG", "HEL", "ION", "IRI",
    "LYO", "MAO", "NAO", "NTH", "NWG", "SKA", "TYS", "WES",
}
# Our 76 province abbreviations: only to reject a misspelt id (the
# converter knows no borders; the engine checks everything else).
PROVINCES = set("""
ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON
DEN EAS EDI ENG FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP LYO MAO MAR
MOS MUN NAF NAO NAP NTH NWG NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL
SKA SMY SPA STP SWE SWI SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR
""".split())
# The board's borders, read from the map tables (`crates/engine/src/map_data.rs`,
# facts checked against the rulebook map by `tests/map.rs`): only to list
# where a dislodged unit of a v2.4 retreat case may go. The retreat rule
# itself is written out here, apart from the engine.
MAP_DATA = os.path.join("crates", "engine", "src", "map_data.rs")


def read_borders(root):
    """-> (army {PROVINCE: {PROVINCE}}, fleet {LOCATION: {LOCATION}})."""
    with open(os.path.join(root, MAP_DATA), encoding="utf-8") as f:
        text = f.read()
    tables = {}
    for name in ("ARMY_BORDERS", "FLEET_BORDERS"):
        m = re.search(name + r"[^=]*=\s*&\[(.*?)\n\];", text, re.S)
        if not m:
            raise ConvertError(f"no {name} in {MAP_DATA}")
        pairs = re.findall(r'\("([A-Z/]+)", "([A-Z/]+)"\)', m.group(1))
        table = {}
        for a, b in pairs:
            table.setdefault(a, set()).add(b)
            table.setdefault(b, set()).add(a)
        tables[name] = table
    return tables["ARMY_BORDERS"], tables["FLEET_BORDERS"]


# The editions of the v3 file that the judge's default rules (1982) follow.
V3_KEEP_EDITIONS = {None, "1982"}


class ConvertError(Exception):
    pass


def loc(text):
    """`spa/nc`, `spa(nc)`, `gol` -> `SPA/NC`, `SPA/NC`, `LYO`."""
    t = text.strip().upper().replace("(", "/").replace(")", "")
    prov, _, coast = t.partition("/")
    if not re.fullmatch(r"[A-Z]{3}", prov) or (coast and coast not in ("NC", "SC", "EC")):
        raise ConvertError(f"bad location {text!r}")
    prov = RENAME.get(prov, prov)
    if prov not in PROVINCES:
        raise ConvertError(f"unknown province {text!r}")
    return f"{prov}/{coast}" if coast else prov


def province(location):
    return location.split("/")[0]


def unit_type(word):
    w = word.upper()
    if w not in ("A", "F"):
        raise ConvertError(f"bad unit type {word!r}")
    return w


# --------------------------------------------------------------------------
# v2.4 (the jDip/godip text format)
# --------------------------------------------------------------------------

V24_KINDS = {"h": "H", "hold": "H", "holds": "H",
             "s": "S", "support": "S", "supports": "S",
             "c": "C", "convoy": "C", "convoys": "C"}


def v24_tokens(text):
    t = text.replace("-", " - ")
    return t.split()


def v24_order(text, phase_kind, prestate):
    """One DATC v2.4 order -> our short form. `prestate` maps province ->
    unit type (to complete a `Remove x` without a unit type)."""
    tk = v24_tokens(text)
    low = [x.lower() for x in tk]
    if low == ["waive"]:
        return "WAIVE"
    if low[0] == "build" and len(tk) == 3:
        return f"BUILD {unit_type(tk[1])} {loc(tk[2])}"
    if low[0] == "remove" and len(tk) in (2, 3):
        if len(tk) == 3:
            u, where = unit_type(tk[1]), loc(tk[2])
        else:
            where = loc(tk[1])
            # No unit type given: the unit standing there, else a guess
            # from the terrain (the order is void anyway).
            u = prestate.get(province(where), "F" if province(where) in SEAS else "A")
        return f"REMOVE {u} {where}"
    u, at = unit_type(tk[0]), loc(tk[1])
    rest, lrest = tk[2:], low[2:]
    if lrest == ["disband"]:
        return f"REMOVE {u} {at}" if phase_kind == "A" else f"{u} {at} DISBAND"
    if len(lrest) == 1 and V24_KINDS.get(lrest[0]) == "H":
        return f"{u} {at} H"
    if lrest and lrest[0] == "-":
        dest = loc(rest[1])
        tail = lrest[2:]
        if phase_kind == "R":
            if tail:
                raise ConvertError(f"retreat with a tail: {text!r}")
            return f"{u} {at} R {dest}"
        if tail == ["via", "convoy"]:
            return f"{u} {at} - {dest} VIA CONVOY"
        if tail:
            raise ConvertError(f"bad move {text!r}")
        return f"{u} {at} - {dest}"
    if lrest and V24_KINDS.get(lrest[0]) in ("S", "C"):
        kind = V24_KINDS[lrest[0]]
        u2, from_ = unit_type(rest[1]), loc(rest[2])
        if len(rest) == 3 and kind == "S":
            return f"{u} {at} S {u2} {from_}"
        if len(rest) == 5 and lrest[3] == "-":
            return f"{u} {at} {kind} {u2} {from_} - {loc(rest[4])}"
    raise ConvertError(f"cannot read order {text!r}")


def v24_nation(word):
    w = word.strip().upper()
    if w == "GERMNAY":  # erratum (6.A.5)
        w = "GERMANY"
    if w not in POWERS:
        raise ConvertError(f"bad nation {word!r}")
    return w


def v24_unit_line(line):
    nation, _, unit = line.partition(":")
    tk = unit.split()
    if len(tk) != 2:
        raise ConvertError(f"bad unit line {line!r}")
    return v24_nation(nation), f"{unit_type(tk[0])} {loc(tk[1])}"


def v24_phase(text):
    m = re.fullmatch(r"(Spring|Fall)\s+(\d{4}),\s*(Movement|Retreat|Adjustment)", text.strip(), re.I)
    if not m:
        raise ConvertError(f"bad phase {text!r}")
    season, year, kind = m.group(1).lower(), m.group(2), m.group(3).lower()
    if kind == "adjustment":
        return f"W{year}A"
    return f"{'S' if season == 'spring' else 'F'}{year}{'M' if kind == 'movement' else 'R'}"


def add(d, power, item):
    d.setdefault(power, []).append(item)


def v24_blocks(text):
    """The raw cases: (name, [(section, [lines])]), comments stripped."""
    cases = []
    current = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "VARIANT_ALL":
            continue
        if word == "CASE":
            if current is not None:
                raise ConvertError(f"CASE inside {current[0]}")
            name = line.split()[1].rstrip(".")
            current = (name, [])
            continue
        if current is None:
            raise ConvertError(f"line outside a case: {line!r}")
        if word == "END":
            cases.append(current)
            current = None
        elif word == "PRESTATE_SETPHASE":
            current[1].append((word, [line[len(word):].strip()]))
        elif word.startswith(("PRESTATE", "ORDERS", "POSTSTATE")):
            current[1].append((word, []))
        else:
            if not current[1]:
                raise ConvertError(f"data before a section in {current[0]}")
            current[1][-1][1].append(line)
    if current is not None:
        raise ConvertError(f"unterminated case {current[0]}")
    return cases


def v24_errata(cases, log):
    """Applies the errata of the README, if the file still needs them."""
    seen = set()
    out = []
    for name, sections in cases:
        if name == "6.F.E":
            log.append("erratum: block 6.F.E renamed 6.F.5")
            name = "6.F.5"
        if name == "6.F.14" and name in seen:
            log.append("erratum: second 6.F.14 renamed 6.F.15, F naf -> A naf")
            name = "6.F.15"
            sections = [(s, [re.sub(r"\bF naf\b", "A naf", l) for l in lines])
                        for s, lines in sections]
        if any("Germnay" in l for _, lines in sections for l in lines):
            log.append(f"erratum: Germnay -> Germany in {name}")
        for section, wrong, right in V24_LINE_ERRATA.get(name, ()):
            lines = dict(sections).get(section, [])
            if lines.count(wrong) != 1:
                raise ConvertError(f"{name}: erratum {wrong!r} -> {right!r}: not one such line")
            lines[lines.index(wrong)] = right
            log.append(f"erratum: {name} {section}: {wrong} -> {right}")
        if name in seen:
            raise ConvertError(f"case {name} twice")
        seen.add(name)
        out.append((name, sections))
    return out


# Lines of the v2.4 file that contradict the DATC's own case (and the v3.0
# data): (section, line as written, line as the DATC has it).
V24_LINE_ERRATA = {
    # Russia's support is for the move into Ankara, which dislodges Turkey.
    "6.H.5": [("PRESTATE_RESULTS", "SUCCESS: Russia: F con S A ruh-hol",
               "SUCCESS: Russia: F con S F bla-ank")],
    "6.H.5.mod": [("PRESTATE_RESULTS", "SUCCESS: Russia: F con S A ruh-hol",
                   "SUCCESS: Russia: F con S F bla-ank")],
    # The file lists the winners of the movement where they started:
    # France entered Picardy, Germany Burgundy.
    "6.H.14": [(s, f"{who}: A {a}", f"{who}: A {b}") for s in ("PRESTATE", "POSTSTATE")
               for who, a, b in (("France", "par", "pic"), ("Germany", "mar", "bur"))],
    # Likewise, France entered Portugal.
    "6.H.15": [(s, "France: F spa/sc", "France: F por") for s in ("PRESTATE", "POSTSTATE")],
    # The Mid-Atlantic fleet moved to Spain's north coast (without a coast
    # the move is void, and Gascony's would have succeeded, not failed).
    "6.H.16": [("PRESTATE_RESULTS", "FAILURE: France: F mid-spa", "FAILURE: France: F mid-spa/nc")],
}


def v24_case(name, sections, borders):
    phase = "S1901M"
    units, dislodged_pre, owners = {}, {}, {}
    results, orders_raw = [], []
    post_units, post_dislodged = {}, {}
    same = False
    has_post = False
    for section, lines in sections:
        if section == "PRESTATE_SETPHASE":
            phase = v24_phase(lines[0])
        elif section == "PRESTATE":
            for l in lines:
                add(units, *v24_unit_line(l))
        elif section == "PRESTATE_DISLODGED":
            for l in lines:
                add(dislodged_pre, *v24_unit_line(l))
        elif section == "PRESTATE_SUPPLYCENTER_OWNERS":
            for l in lines:
                p, u = v24_unit_line(l)
                add(owners, p, province(u.split()[1]))
        elif section == "PRESTATE_RESULTS":
            for l in lines:
                m = re.fullmatch(r"(SUCCESS|FAILURE):\s*(\w+):\s*(.+)", l)
                if not m:
                    raise ConvertError(f"{name}: bad result {l!r}")
                results.append((m.group(1) == "SUCCESS", v24_nation(m.group(2)), m.group(3)))
        elif section == "ORDERS":
            for l in lines:
                nation, _, order = l.partition(":")
                orders_raw.append((v24_nation(nation), order.strip()))
        elif section == "POSTSTATE":
            has_post = True
            for l in lines:
                add(post_units, *v24_unit_line(l))
        elif section == "POSTSTATE_DISLODGED":
            for l in lines:
                add(post_dislodged, *v24_unit_line(l))
        elif section == "POSTSTATE_SAME":
            same = True
        else:
            raise ConvertError(f"{name}: unknown section {section}")
    kind = phase[-1]
    prestate = {province(u.split()[1]): u.split()[0] for us in units.values() for u in us}
    case = {"name": name, "phase": phase, "units": units}
    if owners:
        case["centers"] = owners
    if kind == "R":
        case["retreats"] = v24_retreats(name, units, dislodged_pre, results, borders)
        case["preceding_movement"] = v24_preceding_movement(name, phase, units, dislodged_pre, results)
    orders = {}
    for power, text in orders_raw:
        add(orders, power, v24_order(text, kind, prestate))
    case["orders"] = orders
    if same:
        if has_post or post_dislodged:
            raise ConvertError(f"{name}: POSTSTATE_SAME and POSTSTATE")
        case["expect"] = {"units": units, "dislodged": {}}
    else:
        if not has_post:
            raise ConvertError(f"{name}: no POSTSTATE")
        case["expect"] = {"units": post_units, "dislodged": post_dislodged}
    if kind == "R":
        if post_dislodged:
            raise ConvertError(f"{name}: dislodged units after a retreat phase")
        case["expect"].update(v24_retreat_results(name, units, dislodged_pre, orders, case["expect"]["units"]))
    if kind == "M":
        expect = case["expect"]
        retreats, destroyed, unknown = v24_movement_retreats(
            name, units, orders, expect["units"], expect["dislodged"], borders)
        expect["retreats"] = retreats
        expect["destroyed"] = destroyed
        if unknown:
            expect["retreats_undecided"] = unknown
    return case


def v24_retreats(name, units, dislodged, results, borders):
    """Where each dislodged unit of a retreat case may go: {POWER: {UNIT:
    [LOCATION]}}, from the borders and the previous movement phase's
    results (PRESTATE_RESULTS). The DATC's retreat rule: a unit may retreat
    to a place it could move to (no convoy), except the province its
    attacker came from (unless the attacker came by convoy), a province
    occupied after the movement, and a province left empty by a standoff;
    a standoff bars every coast of its province."""
    army, fleet = borders
    moves, convoys = [], []
    for ok, _, text in results:
        o = v24_order(text, "M", {})
        m = re.fullmatch(r"([AF]) (\S+) - (\S+)( VIA CONVOY)?", o)
        if m:
            moves.append((ok, province(m.group(2)), province(m.group(3)), bool(m.group(4))))
        m = re.fullmatch(r"F (\S+) C A (\S+) - (\S+)", o)
        if m:
            convoys.append((province(m.group(1)), province(m.group(2)), province(m.group(3))))
    attacker = {dst: (src, via) for ok, src, dst, via in moves if ok}
    dislodged_at = {province(u.split()[1]) for us in dislodged.values() for u in us}
    # Occupied after the movement: the units on the board (the winners of
    # the movement among them).
    occupied = {province(u.split()[1]) for us in units.values() for u in us}
    standoffs = set()
    for ok, src, dst, via in moves:
        if ok or dst in attacker:
            continue
        # No effect on the destination: a unit that lost a head-to-head
        # battle to the unit that dislodged it, or an army whose convoy was
        # disrupted (a fleet of its convoy dislodged; 6.H.12).
        if src in dislodged_at and attacker.get(src, (None,))[0] == dst:
            continue
        if via and any(f in dislodged_at for f, a, d in convoys if (a, d) == (src, dst)):
            continue
        standoffs.add(dst)
    out = {}
    for power, us in dislodged.items():
        for u in us:
            kind, at = u.split()
            p = province(at)
            if p not in attacker:
                raise ConvertError(f"{name}: nothing moved into {p} to dislodge {u}")
            src, via = attacker[p]
            barred = occupied | standoffs | ({src} if not via else set())
            reach = army.get(p, set()) if kind == "A" else fleet.get(at, set())
            options = sorted(l for l in reach if province(l) not in barred)
            out.setdefault(power, {})[u] = options
    return out


def v24_retreat_results(name, units, dislodged, orders, post_units):
    """The results a retreat case states through its POSTSTATE: a retreat
    order succeeds when its unit stands at the destination afterwards (and
    stood nowhere there before); every other order fails; the dislodged
    units that did not retreat are disbanded."""
    before = {(p, u) for p, us in units.items() for u in us}
    after = {(p, u) for p, us in post_units.items() for u in us}
    arrived = after - before
    if not before <= after:
        raise ConvertError(f"{name}: a unit on the board vanished in a retreat phase")
    expect, retreated, seen = {}, set(), set()
    for power, os_ in orders.items():
        for o in os_:
            m = re.fullmatch(r"([AF]) (\S+) R (\S+)", o)
            unit = m and f"{m.group(1)} {m.group(2)}"
            ok = bool(m) and unit in dislodged.get(power, []) and (power, f"{m.group(1)} {m.group(3)}") in arrived
            if (power, o) in seen:
                raise ConvertError(f"{name}: {power} {o} twice")
            seen.add((power, o))
            expect.setdefault(power, {})[o] = "succeeds" if ok else "fails"
            if ok:
                retreated.add((power, unit))
    disbanded = {}
    for power, us in dislodged.items():
        for u in us:
            if (power, u) not in retreated:
                add(disbanded, power, u)
    if len(arrived) != len(retreated):
        raise ConvertError(f"{name}: units arrived that no retreat order explains")
    return {"orders": expect, "disbanded": disbanded}


def v24_preceding_movement(name, phase, units, dislodged, results):
    """The movement phase a retreat case follows, rebuilt from its data:
    the units before it (PRESTATE with each successful mover back at its
    origin, and the dislodged units) and its orders (PRESTATE_RESULTS),
    each with its result as stated (SUCCESS/FAILURE). The dislodged units
    and their retreat options after it are the case's PRESTATE_DISLODGED
    and `retreats`."""
    before = {(power, u) for power, us in units.items() for u in us}
    before |= {(power, u) for power, us in dislodged.items() for u in us}
    orders, expect = {}, {}
    for ok, power, text in results:
        o = v24_order(text, "M", {})
        m = re.fullmatch(r"([AF]) (\S+) - (\S+)( VIA CONVOY)?", o)
        if ok and m:
            mover = (power, f"{m.group(1)} {m.group(2)}")
            arrived = (power, f"{m.group(1)} {m.group(3)}")
            if arrived not in before:
                raise ConvertError(f"{name}: {power} {o} succeeded, but did not arrive")
            before = (before - {arrived}) | {mover}
        add(orders, power, o)
        expect.setdefault(power, {})[o] = "succeeds" if ok else "fails"
    # A unit that gave an order but is on neither list was destroyed
    # (6.H.15 says so in a comment).
    destroyed = {}
    for power, os_ in orders.items():
        for o in os_:
            unit = " ".join(o.split()[:2])
            if (power, unit) not in before:
                before.add((power, unit))
                add(destroyed, power, unit)
    pre_units = {}
    for power, u in sorted(before):
        add(pre_units, power, u)
    movement = phase[:-1] + "M"
    return {"phase": movement, "units": pre_units, "orders": orders, "expect_orders": expect,
            "expect_destroyed": destroyed}


def v24_movement_retreats(name, units, orders, post_units, post_dislodged, borders):
    """What a movement case's POSTSTATE says about the units it dislodged:
    ({POWER: {UNIT: [LOCATION]}} where each unit of POSTSTATE_DISLODGED may
    retreat, {POWER: [UNIT]} those destroyed at once (gone from both
    lists), {POWER: {UNIT: why}} the dislodged units whose options the data
    does not decide). The retreat rule is the one of `v24_retreats`; what
    happened is read off the POSTSTATE: a unit found where its move led
    moved; the unit now standing where a dislodged unit stood is its
    attacker; every move into a province empty afterwards failed, and that
    province is a standoff when two of those moves had an effect there. A
    move over land (no convoy of it ordered) into an empty province fails
    only against a rival, so one such move and any other make a standoff;
    a lone failed move there had no rival (it was void, had no convoy, or
    lost a head-to-head battle, which is no effect there either). Moves that
    may depend on a convoy, with no move over land beside them, do not
    decide it: a unit that could go there is left undecided, as is one
    whose attacker may have come by convoy or over land."""
    army, fleet = borders
    at = {province(u.split()[1]): (p, u) for p, us in units.items() for u in us}
    after = {province(u.split()[1]): (p, u) for p, us in post_units.items() for u in us}
    gone = {province(u.split()[1]) for us in post_dislodged.values() for u in us}
    moves = v24_effective_moves(orders, at)
    convoyed = {(province(m.group(1)), province(m.group(2)))
                for os_ in orders.values() for o in os_
                for m in [re.fullmatch(r"F \S+ C A (\S+) - (\S+)", o)] if m}

    def route(src, dst, unit, dst_loc):
        """'land', 'convoy' (may depend on a convoy) or None (cannot go)."""
        u, loc_ = unit.split()
        if u == "F":
            there = [l for l in fleet.get(loc_, ()) if province(l) == dst]
            ok = dst_loc in there if "/" in dst_loc else len(there) == 1
            return "land" if ok else None
        if (src, dst) in convoyed:
            return "convoy"
        return "land" if dst in army.get(src, ()) else None

    def moved(src):
        if src not in moves:
            return False
        dst, power, unit, dst_loc = moves[src]
        return after.get(dst, (None, ""))[0] == power and after[dst][1].split()[0] == unit[0]

    attacker, destroyed = {}, {}
    for p, (power, u) in sorted(at.items()):
        if p not in gone:
            if moved(p) or after.get(p) == (power, u):
                continue  # moved on, or stayed
            if p not in after or after[p][0] == power:
                raise ConvertError(f"{name}: {power} {u} neither stays, moves nor is dislodged")
        # Dislodged: another power's unit stands where it stood.
        came = [s for s, (d, pw, unit, _) in moves.items()
                if d == p and moved(s) and (pw, unit[0]) == (after[p][0], after[p][1][0])]
        if len(came) != 1:
            raise ConvertError(f"{name}: cannot tell who moved into {p}")
        attacker[p] = came[0]
        if p not in gone:
            add(destroyed, power, u)
    rivals = {}
    for s, (d, power, unit, dst_loc) in moves.items():
        if d in after or attacker.get(s) == d:
            continue
        kind = route(s, d, unit, dst_loc)
        if kind:
            rivals.setdefault(d, []).append(kind)
    standoff = {d for d, ks in rivals.items() if len(ks) >= 2 and "land" in ks}
    unsure = {d for d, ks in rivals.items() if len(ks) >= 2 and "land" not in ks}
    retreats, unknown = {}, {}
    for p, s in attacker.items():
        power, u = at[p]
        kind, loc_ = u.split()
        reach = army.get(p, set()) if kind == "A" else fleet.get(loc_, set())
        barred = set(after) | standoff
        how = route(s, p, moves[s][2], moves[s][3])
        if how is None:
            raise ConvertError(f"{name}: the unit from {s} entered {p}, which it cannot reach")
        if how == "land":
            barred.add(s)
        doubts = [(d, f"whether the moves into {d} had an effect there") for d in sorted(unsure)]
        if how == "convoy" and p in army.get(s, ()):
            doubts.append((s, f"whether the attacker from {s} came by convoy"))
        open_ = {province(l) for l in reach} - barred
        why = [w for d, w in doubts if d in open_]
        options = sorted(l for l in reach if province(l) not in barred)
        if p not in gone and why:
            continue  # destroyed, so nowhere to go: the data decides it
        if why:
            unknown.setdefault(power, {})[u] = "; ".join(why)
        elif p in gone and options:
            retreats.setdefault(power, {})[u] = options
        elif options or p in gone:
            raise ConvertError(f"{name}: {power} {u}: dislodged {p in gone}, options {options}")
    return retreats, destroyed, unknown


def v24_effective_moves(orders, at):
    """{ORIGIN: (DESTINATION, POWER, UNIT, DESTINATION LOCATION)}: the move
    orders that name their power's unit (the last order for a unit
    counts)."""
    last = {}
    for power, os_ in orders.items():
        for o in os_:
            words = o.split()
            if len(words) >= 2 and words[0] in ("A", "F"):
                last[(power, province(words[1]))] = o
    moves = {}
    for (power, src), o in last.items():
        m = re.fullmatch(r"([AF]) (\S+) - (\S+)( VIA CONVOY)?", o)
        if m and at.get(src, (None,))[0] == power and at[src][1].split()[0] == m.group(1):
            moves[src] = (province(m.group(3)), power, at[src][1], m.group(3))
    return moves


def convert_v24(path, borders, log):
    with open(path, encoding="utf-8") as f:
        cases = v24_errata(v24_blocks(f.read()), log)
    return [v24_case(n, s, borders) for n, s in cases]


# --------------------------------------------------------------------------
# v3.0 (JSON, per-order Succeeds/Fails)
# --------------------------------------------------------------------------


def v3_power(word):
    w = word.strip().upper()
    if w not in V3_POWERS:
        raise ConvertError(f"bad nation {word!r}")
    return V3_POWERS[w]


def v3_unit(text):
    """`ENG: F stp(nc)` -> ("ENGLAND", "F STP/NC")."""
    nation, _, unit = text.partition(":")
    tk = unit.split()
    if len(tk) != 2:
        raise ConvertError(f"bad unit {text!r}")
    return v3_power(nation), f"{unit_type(tk[0])} {loc(tk[1])}"


def v3_order(key, phase_kind):
    """`ENG: F nth -> pic` -> ("ENGLAND", "F NTH - PIC", unit or None): the
    unit the order names (None for a build)."""
    nation, _, text = key.partition(":")
    power = v3_power(nation)
    tk = text.replace("->", " - ").split()
    low = [x.lower() for x in tk]
    u, at = unit_type(tk[0]), loc(tk[1])
    unit = f"{u} {at}"
    rest, lrest = tk[2:], low[2:]
    if lrest == ["build"]:
        return power, f"BUILD {u} {at}", None
    if lrest == ["disband"]:
        return power, (f"REMOVE {u} {at}" if phase_kind == "A" else f"{u} {at} DISBAND"), unit
    if lrest in (["hold"], ["holds"]):
        return power, f"{u} {at} H", unit
    if lrest and lrest[0] == "-":
        dest = loc(rest[1])
        tail = lrest[2:]
        if phase_kind == "R" and not tail:
            return power, f"{u} {at} R {dest}", unit
        if phase_kind == "M" and tail == ["via", "convoy"]:
            return power, f"{u} {at} - {dest} VIA CONVOY", unit
        if phase_kind == "M" and not tail:
            return power, f"{u} {at} - {dest}", unit
    if lrest and lrest[0] == "supports":
        u2, from_ = unit_type(rest[1]), loc(rest[2])
        if len(rest) == 3:
            return power, f"{u} {at} S {u2} {from_}", unit
        if len(rest) == 5 and rest[3] == "-":
            return power, f"{u} {at} S {u2} {from_} - {loc(rest[4])}", unit
    if lrest and lrest[0] == "convoys" and len(rest) == 4 and rest[2] == "-":
        return power, f"{u} {at} C A {loc(rest[1])} - {loc(rest[3])}", unit
    raise ConvertError(f"cannot read order {key!r}")


EXPECT = {"Succeeds": "succeeds", "Fails": "fails"}


def v3_orders(orders, phase_kind):
    """-> (orders {POWER: [ORDER]}, expect_orders, named units {POWER: [UNIT]})."""
    out, expect, named = {}, {}, {}
    where = {}
    for key, result in orders.items():
        power, text, unit = v3_order(key, phase_kind)
        add(out, power, text)
        if result is not None:
            if result not in EXPECT:
                raise ConvertError(f"bad result {result!r} for {key!r}")
            expect.setdefault(power, {})[text] = EXPECT[result]
        if unit is not None:
            p = province(unit.split()[1])
            if p in where:
                if where[p] != (power, unit):
                    raise ConvertError(f"two different units named in {p}")
                continue
            where[p] = (power, unit)
            add(named, power, unit)
    return out, expect, named


def v3_units(states):
    units = {}
    for s in states:
        add(units, *v3_unit(s))
    return units


def v3_case(e):
    name = e["name"]
    m = re.search(r"#(6\.[A-Z]\.\d+)$", e.get("url", ""))
    if not m:
        raise ConvertError(f"{name}: no DATC number in the url")
    phase = {"Main": "M", "Retreat": "R", "Build": "A"}[e["phase"]]
    case = {"name": name, "datc": m.group(1),
            "phase": {"M": "S1901M", "R": "S1901R", "A": "W1901A"}[phase]}
    orders, expect, named = v3_orders(e["orders"], phase)
    if phase == "R":
        pre = e["preceding_main_phase"]
        p_orders, p_expect, p_named = v3_orders(pre["orders"], "M")
        p_units = v3_units(pre["starting_state"]) if "starting_state" in pre else p_named
        case["preceding_main_phase"] = {
            "phase": "S1901M", "units": p_units, "orders": p_orders, "expect_orders": p_expect}
    else:
        case["units"] = v3_units(e["starting_state"]) if "starting_state" in e else named
    if "occupiers" in e:
        case["occupiers"] = {loc(p): v3_power(n) for p, n in e["occupiers"].items()}
    if "civil_disorder" in e:
        case["civil_disorder"] = v3_units(e["civil_disorder"])
    case["orders"] = orders
    case["expect_orders"] = expect
    # The source's own flags (a reason its library skips the case, or
    # thinks the DATC answer wrong): kept as facts for the test's table.
    if "ignore" in e:
        case["source_ignore"] = e["ignore"]
    if "errata" in e:
        case["source_errata"] = e["errata"]
    return case


def convert_v3(path, log):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out, names = [], set()
    for e in data["cases"]:
        ed = e.get("edition")
        if ed not in V3_KEEP_EDITIONS:
            log.append(f"v3 dropped (edition {ed}): {e['name']}")
            continue
        try:
            case = v3_case(e)
        except ConvertError as err:
            log.append(f"v3 dropped (cannot convert: {err}): {e['name']}")
            continue
        if case["name"] in names:
            raise ConvertError(f"v3 case {case['name']} twice")
        names.add(case["name"])
        out.append(case)
    return out


# The results the v3 source leaves open (null), given from the DATC text:
# one line per case, `name, source, [expect_orders],
# [preceding_expect_orders]`; `source` says where in the DATC the results
# come from. See tests/datc/README.md for how an order's result is read.
V3_ANNOTATIONS = os.path.join("tests", "datc", "v3_annotations.jsonl")


def merge_expectations(name, phase, extra):
    """Adds `extra` {POWER: {ORDER: result}} to `phase`'s expect_orders, in
    the order of the orders; every order must end with exactly one result."""
    expect = phase["expect_orders"]
    for power, results in extra.items():
        for order, result in results.items():
            if order not in phase["orders"].get(power, []):
                raise ConvertError(f"{name}: annotation for an order not given: {power} {order}")
            if order in expect.get(power, {}):
                raise ConvertError(f"{name}: annotation for a result the source gives: {power} {order}")
            if result not in EXPECT.values():
                raise ConvertError(f"{name}: bad result {result!r}")
            expect.setdefault(power, {})[order] = result
    missing = [f"{p} {o}" for p, os_ in phase["orders"].items() for o in os_
               if o not in expect.get(p, {})]
    if missing:
        raise ConvertError(f"{name}: no expected result for {', '.join(missing)}")
    phase["expect_orders"] = {p: {o: expect[p][o] for o in os_} for p, os_ in phase["orders"].items()}


def annotate_v3(cases, path):
    """Merges the annotations into the v3 cases: afterwards every order of
    every case has its expected result."""
    notes = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                a = json.loads(line)
                if a["name"] in notes:
                    raise ConvertError(f"annotations: {a['name']} twice")
                if not a.get("source"):
                    raise ConvertError(f"annotations: {a['name']} has no source")
                notes[a["name"]] = a
    for case in cases:
        name = case["name"]
        a = notes.pop(name, {})
        if "preceding_main_phase" in case:
            merge_expectations(name, case["preceding_main_phase"], a.get("preceding_expect_orders", {}))
        elif "preceding_expect_orders" in a:
            raise ConvertError(f"annotations: {name} has no preceding phase")
        merge_expectations(name, case, a.get("expect_orders", {}))
        if a:
            case["expect_source"] = a["source"]
    if notes:
        raise ConvertError(f"annotations for cases not in the v3 data: {', '.join(notes)}")


def write_jsonl(path, cases):
    with open(path, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, separators=(", ", ": ")) + "\n")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "datc")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "tests", "datc")
    os.makedirs(out, exist_ok=True)
    log = []
    v24 = convert_v24(os.path.join(src, "datc_v2.4.txt"), read_borders(root), log)
    v3 = convert_v3(os.path.join(src, "datc_v3.json"), log)
    annotate_v3(v3, os.path.join(root, V3_ANNOTATIONS))
    write_jsonl(os.path.join(out, "v2.4.jsonl"), v24)
    write_jsonl(os.path.join(out, "v3.jsonl"), v3)
    for line in log:
        print(line)
    print(f"v2.4: {len(v24)} cases -> {os.path.join(out, 'v2.4.jsonl')}")
    print(f"v3:   {len(v3)} cases -> {os.path.join(out, 'v3.jsonl')}")


if __name__ == "__main__":
    try:
        main()
    except ConvertError as err:
        sys.exit(f"datc_convert: {err}")
