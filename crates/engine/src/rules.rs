//! What a game's variant or situation changes in the rules, for the
//! adjudicator: powers that play no part (out of a game for fewer players,
//! or in civil disorder), and provinces no unit may enter (Italy in the
//! two-player game's first year).

use super::map::{LocSet, Map, Power, Province};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Powers whose units hold and give no support, are disbanded when
    /// dislodged, and which never build (rulebook: a country out of the
    /// game, or in civil disorder). Their orders are ignored.
    pub inert: [bool; 7],
    /// Provinces no unit may move, retreat or be built into.
    pub closed: LocSet,
}

impl Rules {
    /// The rules of the standard game: nobody inert, nothing closed.
    pub fn standard() -> Rules {
        Rules::default()
    }

    pub fn is_inert(&self, power: Power) -> bool {
        self.inert[power.index()]
    }

    pub fn set_inert(&mut self, power: Power) {
        self.inert[power.index()] = true;
    }

    pub fn is_closed(&self, p: Province) -> bool {
        self.closed.contains(p.index())
    }

    /// Closes the named provinces (standard abbreviations).
    pub fn close(&mut self, map: &Map, provinces: &[&str]) {
        for abbr in provinces {
            if let Some(p) = map.province_by_abbr(abbr) {
                self.closed.insert(p.index());
            }
        }
    }
}
