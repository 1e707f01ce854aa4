"""Rewrites `judge adjudicate` input lines with the orders in mail form:
`A PAR - BUR` becomes `Army Paris -> Burgundy.`, so that every order goes
through the full order grammar (benches/versions.sh). Names come from the
map table in crates/engine/src/map_data.rs. stdin to stdout."""
import json, os, re, sys
names = dict(re.findall(r'abbr: "(\w+)", name: "([^"]+)"', open(os.path.join(os.path.dirname(__file__), '..', 'src', 'engine', 'map_data.rs')).read()))
coast = {'NC': 'north coast', 'SC': 'south coast', 'EC': 'east coast'}
def place(tok):
    p, _, c = tok.partition('/')
    n = names[p]
    return f"{n} ({coast[c]})" if c else n
def long(o):
    w = o.split()
    out = []
    for x in w:
        if x == 'A': out.append('Army')
        elif x == 'F': out.append('Fleet')
        elif x == '-': out.append('->')
        elif x == 'S': out.append('supports')
        elif x == 'C': out.append('convoys')
        elif x == 'H': out.append('holds')
        elif x.split('/')[0] in names: out.append(place(x))
        else: out.append(x.lower())
    return ' '.join(out) + '.'
for line in sys.stdin:
    d = json.loads(line)
    d['orders'] = {p: [long(o) for o in os] for p, os in d.get('orders', {}).items()}
    print(json.dumps(d))
