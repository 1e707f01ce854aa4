#!/usr/bin/env python3
"""Builds the judge's own drawing of the standard board,
`crates/draw/src/board_data.rs`, from DPjudge's PostScript map
(`dpjudge-standard.ps`, MIT licence; see NOTICE).

Usage: python3 tools/map_convert.py [PS_FILE] [OUT_FILE]
(defaults: ../shared/maps/dpjudge-standard.ps relative to the repository,
and crates/draw/src/board_data.rs).

What is taken from the source, as facts: the outline polylines (coasts,
borders, Switzerland, lakes), the unit point of every location and the
supply-centre points. Nothing of its drawing procedures is used.

The source has no closed shape per province: coasts are closed rings and
borders are separate open lines whose ends stop near (not on) a coast or
another border. So the shapes are made here:

1. snap: an open line's end within 1.5 units of a vertex moves onto it,
   else onto the nearest point of a segment (which is split there);
2. node: every segment is split where another crosses or touches it
   (exact rational arithmetic, so no tolerance is needed after step 1);
3. polygonize: the planar graph's faces are traced (at every node the
   next edge clockwise), a component lying inside another face becomes
   that face's hole;
4. assign: the face holding a province's unit point is that province;
   the few faces holding none are named in FACES_BY_POINT below (parts of
   Constantinople and Denmark) or left as islands and lakes;
5. merge: a province of several faces loses its inner edges, so every
   province is one closed shape (one SVG path, even-odd: holes included);
6. check: every point drawn for a province (unit, dislodged unit, label,
   supply centre) lies inside its shape; the script stops otherwise.

Coordinates: the source's points (y up, the board from (22, 25) to
(650, 576)) become SVG user units with y down, the board from (0, 0) to
(628, 551): x - 22, 576 - y.
"""

import math
import os
import re
import sys
from fractions import Fraction as F

# The board's frame in the source's coordinates.
X0, Y0, X1, Y1 = 22, 25, 650, 576
# How far an open line's end may be from where it belongs.
SNAP = F(3, 2)
# The outline charts of the source, and what each holds.
CHARTS = {
    "LandBrown": "coast",  # the two continents' coastlines (closed)
    "Brown": "coast",  # islands' coastlines (closed)
    "Black": "border",  # borders inside one power's home (dashed there)
    "BorderBlack": "border",  # other borders, sea borders included
    "Grey": "impassable",  # Switzerland (closed)
    "Blue": "lake",  # lakes (closed)
}
# Lines the source lacks: the Strait of Messina, which parts the Tyrrhenian
# from the Ionian Sea (the source draws the Sicily-Tunis line only).
EXTRA_LINES = [[(306, 80), (308, 79)]]
# Faces with no unit point in them that belong to a province, each named by
# a point inside it (source coordinates): European Turkey and the Sea of
# Marmara are Constantinople's; the Danish islands and straits, Denmark's.
FACES_BY_POINT = {
    (438, 130): "CON",  # Thrace
    (451, 123): "CON",  # the Sea of Marmara (water drawn over it)
    (293, 345): "DEN",  # the straits around Zealand (water drawn over it)
    (301, 342): "DEN",  # Zealand
}
# Faces of water inside a land province, drawn over it in the sea colour.
# (Not lakes: a fleet there is in the province.)
INLAND_WATER = {(451, 123), (293, 345)}
# The lakes, each named by a point inside it: the Caspian shore at the
# board's edge, Lakes Ladoga and Onega (the source's blue outlines).
LAKES = [(643, 237), (445, 423), (474, 439)]
# Where a dislodged unit stands, tried in turn (SVG units from the unit
# point): the first that is inside the shape and clear of its edge.
DISLODGED_OFFSETS = [
    (13, 8), (-13, 8), (13, -8), (-13, -8), (15, 0), (-15, 0), (0, 12), (0, -12),
    (11, 6), (-11, 6), (11, -6), (-11, -6), (9, 6), (-9, 6), (9, -6), (-9, -6),
    (10, 0), (-10, 0), (0, 9), (0, -9), (7, 4), (-7, 4), (7, -4), (-7, -4),
]
# The label stands below the unit, as players expect to read it.
LABEL_BELOW = 6


def read_source(path):
    with open(path, encoding="latin-1") as f:
        text = f.read()
    charts = {}
    for name in CHARTS:
        m = re.search(r"/OutlineChart%s \{(.*?)\} bd" % name, text, re.S)
        lines, current = [], None
        for row in m.group(1).splitlines():
            t = row.split()
            if not t:
                continue
            if t[-1] == "m":
                current = [(int(t[0]), int(t[1]))]
            elif t[-1] == "l":
                current.append((int(t[0]), int(t[1])))
            elif t[-1] == "fk":
                lines.append(current)
                current = None
        charts[name] = lines
    body = re.search(r"/VisitTerritories \{(.*?)\} def", text, re.S).group(1)
    points = {}
    kinds = {}
    for m in re.finditer(r"\((\S+)\) (\d+) (\d+) (\w)", body):
        points[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        kinds[m.group(1)] = m.group(4)
    body = re.search(r"/VisitSupplies \{(.*?)\} def", text, re.S).group(1)
    centres = {
        m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"/(\w{3}) (\d+) (\d+) s", body)
    }
    return charts, points, kinds, centres


def d2(a, b):
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def project(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = max(F(0), min(F(1), t))
    return (a[0] + t * dx, a[1] + t * dy)


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def on_segment(p, a, b):
    return (
        cross(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def snap(polylines):
    """Moves each open line's loose ends onto the line they stop near."""
    for i, line in enumerate(polylines):
        if line[0] == line[-1]:
            continue
        for end in (0, -1):
            p = line[end]
            others = [q for j, q in enumerate(polylines) if j != i]
            if any(p in q for q in others) or p in line[1:-1]:
                continue
            near = [(d2(p, v), v) for q in others for v in q]
            dist, v = min(near)
            if dist <= SNAP * SNAP:
                line[end] = v
                continue
            best = None
            for j, q in enumerate(polylines):
                if j == i:
                    continue
                for k in range(len(q) - 1):
                    foot = project(p, q[k], q[k + 1])
                    dist = d2(p, foot)
                    if best is None or dist < best[0]:
                        best = (dist, j, k, foot)
            dist, j, k, foot = best
            if dist > SNAP * SNAP:
                sys.exit("a line ends at %s, far from any other" % (p,))
            polylines[j].insert(k + 1, foot)
            line[end] = foot


def node(polylines):
    """The planar graph: every segment split where others touch or cross it."""
    segments = set()
    for line in polylines:
        for a, b in zip(line, line[1:]):
            if a != b:
                segments.add((min(a, b), max(a, b)))
    segments = sorted(segments)
    cuts = [set() for _ in segments]
    boxes = [
        (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        for a, b in segments
    ]
    for i, (a, b) in enumerate(segments):
        bi = boxes[i]
        for j in range(i + 1, len(segments)):
            bj = boxes[j]
            if bi[2] < bj[0] or bj[2] < bi[0] or bi[3] < bj[1] or bj[3] < bi[1]:
                continue
            c, d = segments[j]
            for p in (c, d):
                if p not in (a, b) and on_segment(p, a, b):
                    cuts[i].add(p)
            for p in (a, b):
                if p not in (c, d) and on_segment(p, c, d):
                    cuts[j].add(p)
            s1, s2 = cross(a, b, c), cross(a, b, d)
            s3, s4 = cross(c, d, a), cross(c, d, b)
            if s1 * s2 < 0 and s3 * s4 < 0:
                t = s3 / (s3 - s4)
                p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                cuts[i].add(p)
                cuts[j].add(p)
    adjacent = {}
    for i, (a, b) in enumerate(segments):
        points = sorted(cuts[i] | {a, b}, key=lambda p: d2(p, a))
        for u, v in zip(points, points[1:]):
            adjacent.setdefault(u, set()).add(v)
            adjacent.setdefault(v, set()).add(u)
    dangling = [u for u, vs in adjacent.items() if len(vs) < 2]
    if dangling:
        sys.exit("loose line ends after snapping: %s" % dangling)
    return adjacent


def faces_of(adjacent):
    """Every face as a cycle of points; positive area: a bounded face."""
    around = {
        u: sorted(vs, key=lambda v: math.atan2(v[1] - u[1], v[0] - u[0]))
        for u, vs in adjacent.items()
    }
    used = set()
    faces = []
    for u in sorted(adjacent):
        for v in sorted(adjacent[u]):
            if (u, v) in used:
                continue
            cycle, a, b = [], u, v
            while (a, b) not in used:
                used.add((a, b))
                cycle.append(a)
                ring = around[b]
                c = ring[(ring.index(a) - 1) % len(ring)]
                a, b = b, c
            faces.append(cycle)
    return faces


def area(ring):
    n = len(ring)
    return sum(
        ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1]
        for i in range(n)
    ) / 2


def inside_ring(p, ring):
    x, y = p
    n, result = len(ring), False
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            if x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
    return result


def inside_rings(p, rings):
    """Even-odd over all rings: inside a shape with its holes."""
    return sum(inside_ring(p, r) for r in rings) % 2 == 1


def distance_to_rings(p, rings):
    best = None
    for ring in rings:
        for i in range(len(ring)):
            a, b = ring[i], ring[(i + 1) % len(ring)]
            if a == b:
                continue
            dist = math.sqrt(d2(p, project(p, a, b)))
            best = dist if best is None else min(best, dist)
    return best


def merge(cycles):
    """One province's faces as rings, the edges they share dropped."""
    edges = {}
    for cycle in cycles:
        for i in range(len(cycle)):
            a, b = cycle[i], cycle[(i + 1) % len(cycle)]
            if (b, a) in edges:
                del edges[(b, a)]
            else:
                edges[(a, b)] = True
    starts = {}
    for a, b in edges:
        starts.setdefault(a, []).append(b)
    rings = []
    while starts:
        first = min(starts)
        ring, a = [first], first
        while True:
            b = starts[a].pop()
            if not starts[a]:
                del starts[a]
            if b == first:
                break
            ring.append(b)
            a = b
        rings.append(ring)
    return rings


def to_svg(p):
    return (F(p[0]) - X0, Y1 - F(p[1]))


def num(v):
    v = round(float(v), 2)
    return ("%d" % v) if v == int(v) else ("%.2f" % v).rstrip("0")


def path(rings):
    parts = []
    for ring in rings:
        pts = [to_svg(p) for p in ring]
        parts.append(
            "M" + "L".join("%s %s" % (num(x), num(y)) for x, y in pts) + "Z"
        )
    return "".join(parts)


def polyline_path(lines):
    parts = []
    for line in lines:
        pts = [to_svg(p) for p in line]
        parts.append("M" + "L".join("%s %s" % (num(x), num(y)) for x, y in pts))
    return "".join(parts)


def chain(edges):
    """Undirected edges joined into as few polylines as simply found."""
    around = {}
    for a, b in edges:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    lines = []

    def walk(start):
        line, a = [start], start
        while around.get(a):
            b = around[a].pop()
            around[b].remove(a)
            line.append(b)
            a = b
        return line

    # Begin at odd nodes (line ends), then close what is left into rings.
    for u in sorted(around):
        while len(around[u]) % 2 == 1:
            lines.append(walk(u))
    for u in sorted(around):
        while around[u]:
            lines.append(walk(u))
    return lines


def build(ps_path):
    charts, points, kinds, centres = read_source(ps_path)
    polylines = []
    for name in CHARTS:
        for line in charts[name]:
            polylines.append([(F(x), F(y)) for x, y in line])
    for line in EXTRA_LINES:
        polylines.append([(F(x), F(y)) for x, y in line])
    frame = [(X0, Y0), (X1, Y0), (X1, Y1), (X0, Y1), (X0, Y0)]
    polylines.append([(F(x), F(y)) for x, y in frame])
    snap(polylines)
    adjacent = node(polylines)
    cycles = faces_of(adjacent)
    bounded = [c for c in cycles if area(c) > 0]
    outers = [c for c in cycles if area(c) < 0]

    # A component's outer cycle lying inside a bounded face of another
    # component is a hole of the smallest such face.
    holes = {i: [] for i in range(len(bounded))}
    for outer in outers:
        probe = outer[0]
        owners = [
            i
            for i, c in enumerate(bounded)
            if probe not in c and inside_ring(probe, c)
        ]
        if owners:
            holes[min(owners, key=lambda i: area(bounded[i]))].append(outer)
    shapes = [[c] + holes[i] for i, c in enumerate(bounded)]

    def face_at(p):
        hits = [i for i, rings in enumerate(shapes) if inside_rings(p, rings)]
        if len(hits) != 1:
            sys.exit("point %s is in %d faces" % (p, len(hits)))
        return hits[0]

    province_faces = {}
    for abbr, p in points.items():
        if "/" in abbr:
            continue
        face = face_at((F(p[0]), F(p[1])))
        if face in province_faces.values():
            sys.exit("%s shares a face with another province" % abbr)
        province_faces[abbr] = face
    extra_faces = {}
    for p, abbr in FACES_BY_POINT.items():
        extra_faces.setdefault(abbr, []).append(face_at(p))
    named = set(province_faces.values()) | {
        f for fs in extra_faces.values() for f in fs
    }
    inland_water = {face_at(p) for p in INLAND_WATER}
    lakes = {face_at(p) for p in LAKES}
    islands = [i for i in range(len(shapes)) if i not in named and i not in lakes]

    provinces = []
    for abbr in sorted(province_faces):
        faces = [province_faces[abbr]] + extra_faces.get(abbr, [])
        cycles_of = [r for f in faces for r in shapes[f]]
        rings = merge(cycles_of)
        provinces.append((abbr, rings))

    land = set(islands) | {
        f
        for abbr, f in province_faces.items()
        if kinds[abbr] != "w"
    } | {f for fs in extra_faces.values() for f in fs}
    land -= inland_water
    water = set(range(len(shapes))) - land

    # Every edge once, with the faces on its two sides.
    side = {}
    for i, rings in enumerate(shapes):
        for ring in rings:
            for k in range(len(ring)):
                side[(ring[k], ring[(k + 1) % len(ring)])] = i
    owner = {}
    for abbr, face in province_faces.items():
        for f in [face] + extra_faces.get(abbr, []):
            owner[f] = abbr
    coast, land_borders, sea_borders = [], [], []
    seen = set()
    for (a, b), left in side.items():
        key = (min(a, b), max(a, b))
        if key in seen:
            continue
        seen.add(key)
        right = side.get((b, a))
        if right is None:
            continue  # the frame
        if left in water and right in water:
            if owner.get(left) != owner.get(right):
                sea_borders.append(key)
        elif left in water or right in water:
            coast.append(key)
        elif owner.get(left) != owner.get(right) or left not in owner:
            land_borders.append(key)

    return {
        "points": points,
        "kinds": kinds,
        "centres": centres,
        "provinces": provinces,
        "islands": [shapes[i] for i in islands],
        "waters": [shapes[i] for i in sorted(lakes)] + [shapes[i] for i in sorted(inland_water)],
        "coast": chain(coast),
        "land_borders": chain(land_borders),
        "sea_borders": chain(sea_borders),
    }


def svg_point(p):
    x, y = to_svg(p)
    return (float(x), float(y))


def points_for(abbr, rings, unit_source):
    """Unit, dislodged-unit and label points (SVG units) of one location."""
    svg_rings = [[svg_point(p) for p in ring] for ring in rings]
    unit = svg_point(unit_source)
    if "/" in abbr:
        # The source sets a coast's fleet on the water off that coast; ours
        # stands on the coast: the nearest point inside the province and
        # clear of its edge.
        unit = nearest_inside(unit, svg_rings, 3)
    if not inside_rings(unit, svg_rings):
        sys.exit("%s: its unit point is outside its shape" % abbr)
    for dx, dy in DISLODGED_OFFSETS:
        q = (unit[0] + dx, unit[1] + dy)
        if inside_rings(q, svg_rings) and distance_to_rings(q, svg_rings) >= 2:
            dislodged = q
            break
    else:
        sys.exit("%s: no room for a dislodged unit" % abbr)
    return unit, dislodged


def nearest_inside(p, rings, margin):
    """The point nearest `p` (on a half-unit grid) inside `rings` and at
    least `margin` from their edges; `p` itself if it is such a point."""
    if inside_rings(p, rings) and distance_to_rings(p, rings) >= margin:
        return p
    best = None
    for i in range(-40, 41):
        for j in range(-40, 41):
            q = (p[0] + i / 2, p[1] + j / 2)
            dist = i * i + j * j
            if best is not None and dist >= best[0]:
                continue
            if inside_rings(q, rings) and distance_to_rings(q, rings) >= margin:
                best = (dist, q)
    if best is None:
        sys.exit("no point inside near %s" % (p,))
    return best[1]


def rust_point(p):
    return "(%s, %s)" % (num(p[0]) + ".0" if "." not in num(p[0]) else num(p[0]),
                         num(p[1]) + ".0" if "." not in num(p[1]) else num(p[1]))


def write_rust(board, out_path):
    points, kinds, centres = board["points"], board["kinds"], board["centres"]
    out = []
    w = out.append
    w("//! The standard board as a drawing: generated by `tools/map_convert.py`")
    w("//! from DPjudge's map (MIT licence; see NOTICE). Do not edit by hand:")
    w("//! change the script and run it again.")
    w("//!")
    w("//! SVG user units, y down, the board from (0, 0) to (WIDTH, HEIGHT).")
    w("")
    w("use super::board::{LocationPoints, ProvinceShape};")
    w("")
    w("pub const WIDTH: f32 = %d.0;" % (X1 - X0))
    w("pub const HEIGHT: f32 = %d.0;" % (Y1 - Y0))
    w("")
    w("/// Every province, alphabetical: its shape (one even-odd path), where")
    w("/// its unit and a dislodged unit stand, its label and its supply centre.")
    w("#[rustfmt::skip]")
    w("pub const PROVINCES: &[ProvinceShape] = &[")
    for abbr, rings in board["provinces"]:
        svg_rings = [[svg_point(p) for p in ring] for ring in rings]
        unit, dislodged = points_for(abbr, rings, points[abbr])
        label = (unit[0], unit[1] + LABEL_BELOW)
        if not inside_rings(label, svg_rings):
            label = unit
        centre = "None"
        if abbr in centres:
            c = svg_point(centres[abbr])
            if not inside_rings(c, svg_rings):
                sys.exit("%s: its centre is outside its shape" % abbr)
            centre = "Some(%s)" % rust_point(c)
        w(
            '    ProvinceShape { abbr: "%s", unit: %s, dislodged: %s, label: %s, centre: %s,\n'
            '        path: "%s" },'
            % (abbr, rust_point(unit), rust_point(dislodged), rust_point(label),
               centre, path(rings))
        )
    w("];")
    w("")
    w("/// The coasts of the two-coast provinces: where a fleet on each stands.")
    w("#[rustfmt::skip]")
    w("pub const COASTS: &[LocationPoints] = &[")
    shapes = dict(board["provinces"])
    for loc in sorted(a for a in points if "/" in a):
        unit, dislodged = points_for(loc, shapes[loc[:3]], points[loc])
        w('    LocationPoints { location: "%s", unit: %s, dislodged: %s },'
          % (loc, rust_point(unit), rust_point(dislodged)))
    w("];")
    w("")
    w("/// Land that is no province (Ireland, Sardinia, Sicily, ...).")
    w('pub const ISLANDS: &str = "%s";' % "".join(path(s) for s in board["islands"]))
    w("")
    w("/// Water inside the land (lakes, the Sea of Marmara), drawn over it.")
    w('pub const WATERS: &str = "%s";' % "".join(path(s) for s in board["waters"]))
    w("")
    w("/// Where land meets water.")
    w('pub const COASTLINE: &str = "%s";' % polyline_path(board["coast"]))
    w("")
    w("/// Borders between two land provinces (or a province and an island).")
    w('pub const LAND_BORDERS: &str = "%s";' % polyline_path(board["land_borders"]))
    w("")
    w("/// Borders between two seas.")
    w('pub const SEA_BORDERS: &str = "%s";' % polyline_path(board["sea_borders"]))
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ps_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, "..", "shared", "maps", "dpjudge-standard.ps")
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        root, "crates", "draw", "src", "board_data.rs")
    board = build(ps_path)
    write_rust(board, out_path)
    print("%s: %d provinces, %d islands, %d waters" % (
        out_path, len(board["provinces"]), len(board["islands"]), len(board["waters"])))


if __name__ == "__main__":
    main()
