//! Colours and sizes of the map pictures.
//!
//! Two palettes for the powers ([`Palette`], `[maps] palette`):
//! - `classic`, the board's own colours as players know them (Austria red,
//!   England dark blue, France light blue, Germany black, Italy green,
//!   Russia white, Turkey yellow), the hues picked so that neighbours that
//!   share a hue family also differ in lightness (England dark, France
//!   light; Austria's red darker than Italy's green), which is what a
//!   reader with red-green colour blindness still sees;
//! - `okabe-ito`, the Okabe-Ito palette (Okabe and Ito, "Color Universal
//!   Design", 2002), chosen to stay distinguishable for readers with every
//!   common kind of colour blindness; each power keeps the hue closest to
//!   its classic colour (Germany brown-orange, Russia purple).
//!
//! Units carry their kind as a shape (a ship or a cannon), never by colour
//! alone, and a dark outline so that black and white badges read on any
//! province; failed orders are greyed *and* dashed *and* marked with a
//! cross.

use judge_engine::map::Power;

/// The powers' colours of one palette, each by `Power::index`.
pub struct Colours {
    /// Units, centre markers.
    pub power: [&'static str; 7],
    /// A province whose supply centre the power owns: the power's colour
    /// mixed half-and-half with white (halves rounded to even).
    pub tint: [&'static str; 7],
    /// A province (not a centre) a power's unit holds: 72 % white.
    pub light_tint: [&'static str; 7],
    /// The icon on each power's badge: black or white, whichever stands
    /// out (contrast ratio above 4.5).
    pub on_power: [&'static str; 7],
}

/// Which colours the powers are drawn in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Palette {
    /// The board's own colours (the judge's default: see README).
    #[default]
    Classic,
    /// Okabe-Ito, for colour-blind readers.
    OkabeIto,
}

impl Palette {
    pub const ALL: [Palette; 2] = [Palette::Classic, Palette::OkabeIto];

    /// As `[maps] palette` names it: "classic", "okabe-ito".
    pub fn name(self) -> &'static str {
        match self {
            Palette::Classic => "classic",
            Palette::OkabeIto => "okabe-ito",
        }
    }

    pub fn from_name(name: &str) -> Option<Palette> {
        Palette::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn colours(self) -> &'static Colours {
        match self {
            Palette::Classic => &CLASSIC,
            Palette::OkabeIto => &OKABE_ITO,
        }
    }
}

pub const OKABE_ITO: Colours = Colours {
    power: POWER,
    tint: TINT,
    light_tint: LIGHT_TINT,
    on_power: ON_POWER,
};

pub const CLASSIC: Colours = Colours {
    power: [
        "#C8202F", // Austria: red
        "#1F3C91", // England: dark blue
        "#5FB4E6", // France: light blue
        "#262626", // Germany: black
        "#2E9E4A", // Italy: green
        "#FFFFFF", // Russia: white
        "#F2C400", // Turkey: yellow
    ],
    tint: [
        "#E49097", "#8F9EC8", "#AFDAF2", "#929292", "#96CEA4", "#FFFFFF", "#F8E280",
    ],
    light_tint: [
        "#F0C1C5", "#C0C8E0", "#D2EAF8", "#C2C2C2", "#C4E4CC", "#FFFFFF", "#FBEEB8",
    ],
    on_power: [
        "#FFFFFF", "#FFFFFF", "#000000", "#FFFFFF", "#000000", "#000000", "#000000",
    ],
};

/// The Okabe-Ito colour of each power, by `Power::index` (also the web
/// pages' charts).
pub const POWER: [&str; 7] = [
    "#D55E00", // Austria: vermillion
    "#0072B2", // England: blue
    "#56B4E9", // France: sky blue
    "#E69F00", // Germany: orange
    "#009E73", // Italy: bluish green
    "#CC79A7", // Russia: reddish purple
    "#F0E442", // Turkey: yellow
];

/// The tint of a province whose supply centre a power owns: the power's
/// colour mixed half-and-half with white (halves rounded to even).
pub const TINT: [&str; 7] = [
    "#EAAE80", "#80B8D8", "#AADAF4", "#F2CF80", "#80CEB9", "#E6BCD3", "#F8F2A0",
];

/// The lighter tint of a province (not a centre) that a power's unit holds.
pub const LIGHT_TINT: [&str; 7] = [
    "#F3D2B8", "#B8D8E9", "#D0EAF9", "#F8E4B8", "#B8E4D8", "#F1D9E6", "#FBF7CA",
];

/// What an icon is drawn in on top of each power's colour: black on the
/// light colours, white on the dark ones (contrast ratio above 4.5 each).
pub const ON_POWER: [&str; 7] = [
    "#000000", "#FFFFFF", "#000000", "#000000", "#000000", "#000000", "#000000",
];

pub const SEA: &str = "#D6E6EE";
pub const LAND: &str = "#F1EADB";
pub const IMPASSABLE: &str = "#A8A29A";
pub const COASTLINE: &str = "#5A6A72";
pub const LAND_BORDER: &str = "#7D776E";
pub const SEA_BORDER: &str = "#A9C0CC";
pub const LABEL: &str = "#2B2B2B";
pub const SEA_LABEL: &str = "#4D6B7A";
/// Orders that were carried out.
pub const ORDER: &str = "#1A1A1A";
/// Orders that failed (also dashed and marked with a cross).
pub const FAILED: &str = "#8C8C8C";
/// Retreats (also double-headed).
pub const RETREAT: &str = "#7A1F8C";
/// Where a dislodged unit may retreat (thin, dashed, open heads).
pub const OPTION: &str = "#3F6478";
/// Every badge's outline.
pub const OUTLINE: &str = "#1A1A1A";
/// The cross on a failed order or a removed unit (its shape is what
/// tells; the colour only makes it stand out).
pub const MARK: &str = "#B0002A";
pub const NEUTRAL_CENTRE: &str = "#FFFFFF";
pub const PAPER: &str = "#FFFFFF";

/// Heights of the title band above the board and the legend band below.
pub const TITLE_BAND: f32 = 22.0;
pub const LEGEND_BAND: f32 = 50.0;

/// Half the width and height of a unit's badge: at 1,200 pixels wide a
/// badge is 32 by 23 pixels, its ship or cannon about 25 pixels wide.
pub const UNIT_HALF_WIDTH: f32 = 8.5;
pub const UNIT_HALF_HEIGHT: f32 = 6.0;
/// How much the icon is enlarged from its path's units.
pub const ICON_SCALE: f32 = 1.3;

pub fn power(p: Power) -> &'static str {
    POWER[p.index()]
}

pub fn tint(p: Power) -> &'static str {
    TINT[p.index()]
}

pub fn light_tint(p: Power) -> &'static str {
    LIGHT_TINT[p.index()]
}

pub fn on_power(p: Power) -> &'static str {
    ON_POWER[p.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(hex: &str) -> [f32; 3] {
        let v = u32::from_str_radix(&hex[1..], 16).unwrap();
        [(v >> 16) as f32, (v >> 8 & 0xFF) as f32, (v & 0xFF) as f32]
    }

    fn luminance(hex: &str) -> f32 {
        let c = rgb(hex).map(|v| {
            let v = v / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        });
        0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    }

    fn mix(hex: &str, white: f32) -> String {
        let c = rgb(hex).map(|v| (v + (255.0 - v) * white).round_ties_even() as u32);
        format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2])
    }

    #[test]
    fn tints_are_the_power_colours_mixed_with_white() {
        for palette in Palette::ALL {
            let c = palette.colours();
            for i in 0..7 {
                assert_eq!(c.tint[i], mix(c.power[i], 0.5), "{palette:?} tint {i}");
                assert_eq!(
                    c.light_tint[i],
                    mix(c.power[i], 0.72),
                    "{palette:?} light tint {i}"
                );
            }
        }
    }

    #[test]
    fn icons_stand_out_from_their_badges() {
        for palette in Palette::ALL {
            let c = palette.colours();
            for i in 0..7 {
                let (a, b) = (luminance(c.power[i]), luminance(c.on_power[i]));
                let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
                assert!(ratio >= 4.5, "{palette:?} power {i}: contrast {ratio}");
            }
        }
    }

    #[test]
    fn palettes_are_named_as_the_configuration_writes_them() {
        for palette in Palette::ALL {
            assert_eq!(Palette::from_name(palette.name()), Some(palette));
        }
        assert_eq!(Palette::from_name("rainbow"), None);
    }
}
