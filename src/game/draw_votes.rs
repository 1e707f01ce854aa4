//! Draw votes: what a seat's stored vote means, and whether the votes of
//! the surviving players agree on a draw. A vote counts for the phase it
//! is given in (njudge): the votes are cleared when the phase is
//! processed, and a player may withdraw (SET NODRAW) or change it before.

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

/// The draw the players agree on, if they do. Every surviving player (a
/// bloc of countries in games for fewer players) must approve it through
/// one of its countries' votes. With `dias`, the draw is of all survivors
/// and every vote is for it. Without (NoDIAS, as njudge's `draws` file
/// says), a vote for a list of powers that includes the voter approves
/// every part of the list that still includes the voter; one that leaves
/// the voter out approves every part of the list, with or without the
/// voter. Of the draws every player approves, the largest passes; a draw
/// of one player's countries is a concession to that player.
pub fn agreed(
    alive: &[&Vec<Power>],
    vote_of: impl Fn(Power) -> Option<Vote>,
    dias: bool,
) -> Option<Vec<Power>> {
    let everyone = in_order(alive.iter().flat_map(|b| b.iter().copied()).collect());
    let mut lists = Vec::new();
    for bloc in alive {
        let list = match bloc.iter().find_map(|&p| vote_of(p))? {
            Vote::All => everyone.clone(),
            Vote::Powers(powers) => powers,
        };
        lists.push((*bloc, list));
    }
    if dias {
        return lists
            .iter()
            .all(|(_, list)| *list == everyone)
            .then_some(everyone);
    }
    // Every draw is a set of whole players: the blocs in it.
    let n = alive.len();
    let approves = |(bloc, list): &(&Vec<Power>, Vec<Power>), draw: &[Power]| {
        let voter_in_list = bloc.iter().any(|p| list.contains(p));
        let voter_in_draw = bloc.iter().any(|p| draw.contains(p));
        let allowed = |p: &Power| list.contains(p) || (!voter_in_list && bloc.contains(p));
        draw.iter().all(allowed) && (voter_in_draw || !voter_in_list)
    };
    (1u32..1 << n)
        .map(|mask| {
            let chosen = (0..n).filter(|k| mask & (1 << k) != 0);
            in_order(chosen.flat_map(|k| alive[k].iter().copied()).collect())
        })
        .filter(|draw| lists.iter().all(|vote| approves(vote, draw)))
        .max_by_key(|draw| draw.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of njudge's `draws` file: Austria, England and France
    /// the only survivors.
    #[test]
    fn nodias_draws_as_njudge_decides_them() {
        let (a, e, f) = (Power::Austria, Power::England, Power::France);
        let blocs = [vec![a], vec![e], vec![f]];
        let alive: Vec<&Vec<Power>> = blocs.iter().collect();
        let decide = |votes: [&[Power]; 3]| {
            agreed(
                &alive,
                |p| {
                    let k = [a, e, f].iter().position(|q| *q == p)?;
                    Some(Vote::Powers(in_order(votes[k].to_vec())))
                },
                false,
            )
        };
        // Austria, England, France.
        assert_eq!(
            decide([&[a, e, f], &[a, e, f], &[a, e, f]]),
            Some(vec![a, e, f])
        );
        assert_eq!(
            decide([&[a, e, f], &[a, e, f], &[a, e]]),
            Some(vec![a, e, f])
        );
        assert_eq!(decide([&[a, e], &[a, e, f], &[a, e]]), Some(vec![a, e]));
        assert_eq!(decide([&[a, e], &[a, e], &[a, e, f]]), None);
        // France and England concede to Austria; Austria's NO DRAW is a
        // vote for itself alone.
        assert_eq!(decide([&[a], &[a], &[a]]), Some(vec![a]));
    }

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
        // Russia votes for all: EF is part of it, but leaves Russia out.
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
