//! Draw votes: what a seat's stored vote means, and whether the votes of
//! the surviving players agree on a draw. A vote stands until it is
//! withdrawn (SET NODRAW) or replaced by a vote for another draw.

use crate::engine::map::Power;

/// One player's vote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vote {
    /// SET DRAW: a draw of all survivors (DIAS).
    All,
    /// SET DRAW <powers>: a draw of these powers (in the order of
    /// `Power::ALL`).
    Powers(Vec<Power>),
}

/// What is kept in the seat's `draw_vote`.
pub fn encode(vote: &Vote) -> String {
    match vote {
        Vote::All => "ALL".to_string(),
        Vote::Powers(powers) => {
            let names: Vec<&str> = powers.iter().map(|p| p.upper()).collect();
            format!("POWERS {}", names.join(" "))
        }
    }
}

/// The vote kept as `text`. Before votes stood, a vote was the name of
/// the phase it was given in: such a vote counts in `phase` only.
pub fn decode(text: &str, phase: &str) -> Option<Vote> {
    if text == "ALL" {
        return Some(Vote::All);
    }
    if let Some(names) = text.strip_prefix("POWERS ") {
        let powers: Option<Vec<Power>> = names.split(' ').map(Power::parse).collect();
        return powers.map(|p| Vote::Powers(in_order(p)));
    }
    (text == phase).then_some(Vote::All)
}

/// `powers` once each, in the order of `Power::ALL`.
pub fn in_order(powers: Vec<Power>) -> Vec<Power> {
    Power::ALL
        .into_iter()
        .filter(|p| powers.contains(p))
        .collect()
}

/// The draw the players agree on, if they do: every surviving player (a
/// bloc of countries in games for fewer players) has voted through one
/// of its countries, and every vote names the same powers (a vote for all
/// survivors names all the survivors). With `dias`, only a draw of all
/// survivors counts.
pub fn agreed(
    alive: &[&Vec<Power>],
    vote_of: impl Fn(Power) -> Option<Vote>,
    dias: bool,
) -> Option<Vec<Power>> {
    let everyone = in_order(alive.iter().flat_map(|b| b.iter().copied()).collect());
    let mut set: Option<Vec<Power>> = None;
    for bloc in alive {
        let vote = bloc.iter().find_map(|&p| vote_of(p))?;
        let wanted = match vote {
            Vote::All => everyone.clone(),
            Vote::Powers(powers) => powers,
        };
        match &set {
            Some(s) if *s != wanted => return None,
            _ => set = Some(wanted),
        }
    }
    set.filter(|s| !s.is_empty() && (!dias || *s == everyone))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn votes_agree_on_one_set() {
        let (e, f, r) = (Power::England, Power::France, Power::Russia);
        let blocs = [vec![e], vec![f], vec![r]];
        let alive: Vec<&Vec<Power>> = blocs.iter().collect();
        let all = |_| Some(Vote::All);
        assert_eq!(agreed(&alive, all, true), Some(vec![e, f, r]));
        let two = |_| Some(Vote::Powers(vec![e, f]));
        assert_eq!(agreed(&alive, two, false), Some(vec![e, f]));
        assert_eq!(agreed(&alive, two, true), None);
        let mixed = |p| {
            Some(if p == r {
                Vote::All
            } else {
                Vote::Powers(vec![e, f])
            })
        };
        assert_eq!(agreed(&alive, mixed, false), None);
        let missing = |p| (p != r).then_some(Vote::All);
        assert_eq!(agreed(&alive, missing, true), None);
        assert_eq!(
            decode(&encode(&Vote::Powers(vec![f, e])), "S1901M"),
            Some(Vote::Powers(vec![e, f]))
        );
        assert_eq!(decode("S1901M", "S1901M"), Some(Vote::All));
        assert_eq!(decode("S1901M", "F1901M"), None);
    }
}
