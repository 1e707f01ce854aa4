//! njudge's preference lists: `E[FGR][TAI]` (the powers in brackets
//! equal, put in an order drawn by lot now) and `*` (the powers not named
//! yet, by lot: alone, no preference at all).

use crate::game::start::Lot;

/// What a SET PREFERENCE list asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Wish {
    /// `*` alone: no preference, a power by lot.
    Lot,
    /// The initials in order, and whether brackets were drawn by lot.
    List(String, bool),
}

/// Reads `text`, drawing the order within brackets with `seed`.
pub fn read(text: &str, seed: i64) -> Result<Wish, String> {
    let mut lot = Lot::new(seed);
    let mut flat = String::new();
    let mut group: Option<Vec<char>> = None;
    let mut drew = false;
    let mut chars = text.chars().filter(|c| !c.is_whitespace() && *c != ',');
    for c in chars.by_ref() {
        match (c, group.as_mut()) {
            ('[', None) => group = Some(Vec::new()),
            ('[', Some(_)) => return Err(bad(text, "a '[' inside brackets")),
            (']', None) => return Err(bad(text, "a ']' with no '[' before it")),
            (']', Some(g)) => {
                lot.shuffle(g);
                drew |= g.len() > 1;
                flat.extend(g.iter());
                group = None;
            }
            ('*', None) => break,
            ('*', Some(_)) => return Err(bad(text, "a '*' inside brackets")),
            (c, Some(g)) => g.push(c),
            (c, None) => flat.push(c),
        }
    }
    if group.is_some() {
        return Err(bad(text, "a '[' with no ']' after it"));
    }
    if chars.next().is_some() {
        return Err(bad(
            text,
            "something after '*', which stands for all the others",
        ));
    }
    if flat.is_empty() && text.contains('*') {
        return Ok(Wish::Lot);
    }
    Ok(Wish::List(flat, drew))
}

fn bad(text: &str, what: &str) -> String {
    crate::say!("set.bad_preference", text, what)
}

#[cfg(test)]
mod tests {
    use super::{read, Wish};

    #[test]
    fn njudge_lists() {
        assert_eq!(read("FEG", 1), Ok(Wish::List("FEG".into(), false)));
        assert_eq!(read("*", 1), Ok(Wish::Lot));
        assert_eq!(read("EF*", 1), Ok(Wish::List("EF".into(), false)));
        let Ok(Wish::List(flat, true)) = read("E[FGR][TAI]", 7) else {
            panic!("brackets not drawn");
        };
        assert_eq!(&flat[..1], "E");
        let mut mid: Vec<char> = flat[1..4].chars().collect();
        mid.sort();
        assert_eq!(mid, ['F', 'G', 'R']);
        let mut last: Vec<char> = flat[4..].chars().collect();
        last.sort();
        assert_eq!(last, ['A', 'I', 'T']);
        assert!(read("E[FG", 1).is_err());
        assert!(read("EF]", 1).is_err());
        assert!(read("E*F", 1).is_err());
    }
}
