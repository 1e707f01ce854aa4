//! The standard map as plain tables. Facts of the board, in our own form.

use super::map::Coast::*;
use super::map::Power::*;
use super::map::ProvinceRow;
use super::map::Terrain::*;

pub(super) const PROVINCES: &[ProvinceRow] = &[
    ProvinceRow { abbr: "LON", name: "London", terrain: Coast, supply_centre: true, home: Some(England), coasts: &[], aliases: &[] },
];
pub(super) const ARMY_BORDERS: &[(&str, &str)] = &[];
pub(super) const FLEET_BORDERS: &[(&str, &str)] = &[];
