//! Groups, then a final stage: the entrants are seeded into round-robin
//! groups, and the top of each group go on to a final stage, a round robin
//! or a knockout.
//!
//! The rules, as this module applies them:
//!
//! * **Snake seeding.** The entrants come in seed order (the caller sorts
//!   them, by rating as for a Swiss). Seeds 1 to G go into groups 1 to G,
//!   seeds G + 1 to 2G back from group G to group 1, and so on, so that
//!   every group gets a fair share of the strong and the weak; with a count
//!   that does not divide, the last groups get the extra players (9 in 2:
//!   1 4 5 8 9 and 2 3 6 7).
//! * **Groups.** Each group is a round robin (single or double) by the
//!   Berger tables of [`super::berger`], its start numbers in seed order
//!   (the group's best seed is its number 1), and its standings are the
//!   crosstable of [`super::table`] with the event's tiebreaks.
//! * **Advancing.** When every group is over, the top K of each go on, in
//!   the final stage's seed order: every group's winner first, then every
//!   runner-up, and so on; players of the same place in group-number order.
//!   Not by score: groups of different sizes play different numbers of
//!   games, so scores across groups do not compare, while snake seeding
//!   already makes group 1 the group of the top seed. A knockout final thus
//!   pairs, with two groups of two going on, group 1's winner with group
//!   2's runner-up, and group 2's winner with group 1's runner-up. (With
//!   three groups and a knockout, a runner-up may meet their own group's
//!   winner in the first round; the director can choose a round robin
//!   final instead.)
//! * **Withdrawals.** A withdrawn player does not go on; the next of their
//!   group takes the place. A group with fewer than K players left sends
//!   them all.

use std::fmt;

use super::MAX_ROUND_ROBIN;
use super::berger::{self, Pair};
use super::knockout::{Knockout, KnockoutError, TieRule};
use super::table::{Crosstable, EventResults, GameRecord};

/// The most groups an event may have.
pub const MAX_GROUPS: u32 = 16;
/// The most entrants an event of groups may have: [`MAX_GROUPS`] groups
/// of [`MAX_ROUND_ROBIN`].
pub const MAX_GROUP_ENTRANTS: u32 = MAX_GROUPS * MAX_ROUND_ROBIN;

/// What the players who go on play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalStage {
    /// A round robin, once or (`double`) once with each colour.
    RoundRobin { double: bool },
    /// A knockout of `match_games`-game matches.
    Knockout { match_games: u32, tie: TieRule },
}

/// Why an event of groups cannot be made, or cannot go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupsError {
    TooFewGroups {
        groups: u32,
    },
    TooManyGroups {
        groups: u32,
    },
    /// Fewer than two players a group.
    TooFewPlayers {
        players: u32,
        groups: u32,
    },
    /// A group larger than a round robin may be.
    GroupTooLarge {
        players: u32,
        groups: u32,
    },
    /// Going on: none, or as many as the smallest group has (or more).
    Advance {
        advance: u32,
        smallest: u32,
    },
    /// A round-robin final larger than a round robin may be.
    FinalTooLarge {
        finalists: u32,
    },
    /// A knockout final that cannot be made.
    Knockout(KnockoutError),
    /// The tables given are not the groups' (a count or a size differs).
    TablesMismatch {
        group: u32,
    },
    /// A group still has games to play.
    GroupNotOver {
        group: u32,
        games_left: u32,
    },
    /// Fewer than two players left to go on (withdrawals).
    TooFewFinalists {
        finalists: u32,
    },
}

impl fmt::Display for GroupsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GroupsError::TooFewGroups { groups } => write!(
                f,
                "{groups} group is no groups stage; give --groups=G with G from 2 to {MAX_GROUPS}, or make it a plain round robin"
            ),
            GroupsError::TooManyGroups { groups } => write!(
                f,
                "{groups} groups are too many; give --groups=G with G from 2 to {MAX_GROUPS}"
            ),
            GroupsError::TooFewPlayers { players, groups } => write!(
                f,
                "{players} players cannot make {groups} groups of at least 2; wait for more entries or give fewer groups"
            ),
            GroupsError::GroupTooLarge { players, groups } => write!(
                f,
                "{players} players in {groups} groups make groups larger than {MAX_ROUND_ROBIN}; give more groups"
            ),
            GroupsError::Advance { advance, smallest } => write!(
                f,
                "{advance} going on from each group cannot be: the smallest group has {smallest} players; give --advance=K with K from 1 to {}",
                smallest.saturating_sub(1).max(1)
            ),
            GroupsError::FinalTooLarge { finalists } => write!(
                f,
                "a round-robin final of {finalists} players is larger than {MAX_ROUND_ROBIN}; let fewer go on (--advance) or play a knockout final (--final=knockout)"
            ),
            GroupsError::Knockout(error) => write!(f, "the knockout final: {error}"),
            GroupsError::TablesMismatch { group } => write!(
                f,
                "the table of group {group} does not fit the group; tell the server's operator"
            ),
            GroupsError::GroupNotOver { group, games_left } => write!(
                f,
                "group {group} still has {games_left} games to finish before anyone goes on"
            ),
            GroupsError::TooFewFinalists { finalists } => write!(
                f,
                "only {finalists} players are left to go on, too few for a final stage; the director may end the event"
            ),
        }
    }
}

impl std::error::Error for GroupsError {}

/// An event of groups and a final stage. Made by [`Groups::new`], which
/// checks the bounds, so every value of this type can be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    players: u32,
    groups: u32,
    advance: u32,
    double: bool,
    final_stage: FinalStage,
}

/// A player going on to the final stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advancer {
    /// The player's seed in the event (from 1).
    pub seed: u32,
    /// Their group (from 1).
    pub group: u32,
    /// Their place among the group's players going on (from 1).
    pub place: u32,
}

impl Groups {
    /// `players` entrants in `groups` groups (2 to [`MAX_GROUPS`], each of
    /// 2 to [`MAX_ROUND_ROBIN`] players), round robins single or `double`;
    /// the top `advance` of each (at least 1, fewer than the smallest group
    /// has) go on to `final_stage`.
    pub fn new(
        players: u32,
        groups: u32,
        advance: u32,
        double: bool,
        final_stage: FinalStage,
    ) -> Result<Groups, GroupsError> {
        if groups < 2 {
            return Err(GroupsError::TooFewGroups { groups });
        }
        if groups > MAX_GROUPS {
            return Err(GroupsError::TooManyGroups { groups });
        }
        let smallest = players / groups;
        if smallest < 2 {
            return Err(GroupsError::TooFewPlayers { players, groups });
        }
        let largest = players.div_ceil(groups);
        if largest > MAX_ROUND_ROBIN {
            return Err(GroupsError::GroupTooLarge { players, groups });
        }
        if advance == 0 || advance >= smallest {
            return Err(GroupsError::Advance { advance, smallest });
        }
        let finalists = groups
            .checked_mul(advance)
            .ok_or(GroupsError::FinalTooLarge {
                finalists: u32::MAX,
            })?;
        let event = Groups {
            players,
            groups,
            advance,
            double,
            final_stage,
        };
        if let FinalStage::RoundRobin { .. } = final_stage
            && finalists > MAX_ROUND_ROBIN
        {
            return Err(GroupsError::FinalTooLarge { finalists });
        }
        event.final_knockout(finalists)?;
        Ok(event)
    }

    pub fn players(&self) -> u32 {
        self.players
    }

    pub fn groups(&self) -> u32 {
        self.groups
    }

    pub fn advance(&self) -> u32 {
        self.advance
    }

    pub fn double(&self) -> bool {
        self.double
    }

    pub fn final_stage(&self) -> FinalStage {
        self.final_stage
    }

    /// Each group's seeds, group 1 first, each in seed order (snake
    /// seeding).
    pub fn members(&self) -> Vec<Vec<u32>> {
        let mut members = vec![Vec::new(); self.groups as usize];
        for seed in 1..=self.players {
            let index = seed - 1;
            let (row, column) = (index / self.groups, index % self.groups);
            let group = if row.is_multiple_of(2) {
                column
            } else {
                self.groups - 1 - column
            };
            members[group as usize].push(seed);
        }
        members
    }

    /// The rounds of group `group` (from 1) by the Berger tables, White
    /// and Black given as event seeds. Empty for a group that does not
    /// exist.
    pub fn rounds(&self, group: u32) -> Vec<Vec<Pair>> {
        let members = self.members();
        let Some(list) = group
            .checked_sub(1)
            .and_then(|index| members.get(index as usize))
        else {
            return Vec::new();
        };
        let size = list.len() as u32;
        let table = if self.double {
            berger::double(size)
        } else {
            berger::single(size)
        };
        let seed = |start: u32| list[start as usize - 1];
        table
            .into_iter()
            .map(|round| {
                round
                    .into_iter()
                    .map(|pair| Pair {
                        white: seed(pair.white),
                        black: seed(pair.black),
                    })
                    .collect()
            })
            .collect()
    }

    /// Group `group`'s (from 1) share of the group stage, for its
    /// crosstable. `stage` has the entrants in seed order (seed `s` at
    /// index `s - 1`) and the group stage's games (not the final stage's,
    /// whose players may have met in a group); the result has the group's
    /// members in [`Groups::members`] order and only the games among them.
    /// `None` for a group that does not exist or entrants that do not
    /// match.
    pub fn group_results(&self, group: u32, stage: &EventResults) -> Option<EventResults> {
        if stage.entrants.len() != self.players as usize {
            return None;
        }
        let members = self.members();
        let list = members.get(group.checked_sub(1)? as usize)?;
        // Index in the group of the event index `index`.
        let local = |index: usize| list.iter().position(|&seed| seed as usize == index + 1);
        let games = stage
            .games
            .iter()
            .filter_map(|game| {
                Some(GameRecord {
                    white: local(game.white)?,
                    black: local(game.black)?,
                    ..*game
                })
            })
            .collect();
        Some(EventResults {
            format: super::Format::RoundRobin {
                double: self.double,
            },
            entrants: list
                .iter()
                .map(|&seed| stage.entrants[seed as usize - 1].clone())
                .collect(),
            games,
            byes: Vec::new(),
            tiebreaks: stage.tiebreaks.clone(),
        })
    }

    /// The games a group of `size` plays in all.
    fn games_of(&self, size: u32) -> u32 {
        let once = size * size.saturating_sub(1) / 2;
        if self.double { once * 2 } else { once }
    }

    /// The players going on, in the final stage's seed order (the first
    /// is its seed 1), from the groups' crosstables (`tables[g]` group
    /// `g + 1`'s, its start numbers in the order of [`Groups::members`]).
    /// Every group must be over.
    pub fn advancers(&self, tables: &[Crosstable]) -> Result<Vec<Advancer>, GroupsError> {
        let members = self.members();
        if tables.len() != members.len() {
            return Err(GroupsError::TablesMismatch {
                group: tables.len().min(members.len()) as u32 + 1,
            });
        }
        let mut by_group: Vec<Vec<u32>> = Vec::with_capacity(members.len());
        for (index, (table, list)) in tables.iter().zip(&members).enumerate() {
            let group = index as u32 + 1;
            if table.rows.len() != list.len()
                || table
                    .rows
                    .iter()
                    .any(|row| row.start == 0 || row.start as usize > list.len())
            {
                return Err(GroupsError::TablesMismatch { group });
            }
            let due = self.games_of(list.len() as u32);
            let finished = table.finished_games.min(table.games);
            if table.games < due || finished < table.games {
                return Err(GroupsError::GroupNotOver {
                    group,
                    games_left: due.max(table.games) - finished,
                });
            }
            by_group.push(
                table
                    .rows
                    .iter()
                    .filter(|row| !row.withdrawn)
                    .take(self.advance as usize)
                    .map(|row| list[row.start as usize - 1])
                    .collect(),
            );
        }
        let mut advancers = Vec::new();
        for place in 0..self.advance as usize {
            for (index, seeds) in by_group.iter().enumerate() {
                if let Some(&seed) = seeds.get(place) {
                    advancers.push(Advancer {
                        seed,
                        group: index as u32 + 1,
                        place: place as u32 + 1,
                    });
                }
            }
        }
        if advancers.len() < 2 {
            return Err(GroupsError::TooFewFinalists {
                finalists: advancers.len() as u32,
            });
        }
        Ok(advancers)
    }

    /// The knockout of a knockout final of `finalists` players (fewer than
    /// planned after withdrawals); `None` for a round-robin final.
    pub fn final_knockout(&self, finalists: u32) -> Result<Option<Knockout>, GroupsError> {
        match self.final_stage {
            FinalStage::Knockout { match_games, tie } => Knockout::new(finalists, match_games, tie)
                .map(Some)
                .map_err(GroupsError::Knockout),
            FinalStage::RoundRobin { .. } => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Entrant, EventResults, GameRecord, GameResult};
    use crate::{Format, Tiebreak};
    use std::collections::HashSet;

    const KNOCKOUT_FINAL: FinalStage = FinalStage::Knockout {
        match_games: 2,
        tie: TieRule::Playoff,
    };

    #[test]
    fn eight_players_in_two_groups() {
        let groups = Groups::new(8, 2, 2, false, KNOCKOUT_FINAL).unwrap();
        assert_eq!(groups.members(), vec![vec![1, 4, 5, 8], vec![2, 3, 6, 7]]);
        // Group 1 by the Berger table of 4 (1-4 2-3, 4-3 1-2, 2-4 3-1),
        // start numbers 1 2 3 4 being seeds 1 4 5 8.
        let text: Vec<String> = groups
            .rounds(1)
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|p| format!("{}-{}", p.white, p.black))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(text, ["1-8 4-5", "8-5 1-4", "4-8 5-1"]);
        assert!(groups.rounds(3).is_empty());
        assert!(groups.rounds(0).is_empty());
    }

    #[test]
    fn nine_players_in_two_groups_of_five_and_four() {
        let groups = Groups::new(9, 2, 1, false, FinalStage::RoundRobin { double: false }).unwrap();
        let members = groups.members();
        assert_eq!(members, vec![vec![1, 4, 5, 8, 9], vec![2, 3, 6, 7]]);
        for (index, list) in members.iter().enumerate() {
            let rounds = groups.rounds(index as u32 + 1);
            // Five rounds of two games (one sits out), or three of two.
            let expected_rounds = if list.len() == 5 { 5 } else { 3 };
            assert_eq!(rounds.len(), expected_rounds);
            assert!(rounds.iter().all(|round| round.len() == 2));
            let mut met = HashSet::new();
            for pair in rounds.iter().flatten() {
                assert!(list.contains(&pair.white) && list.contains(&pair.black));
                assert!(met.insert((pair.white.min(pair.black), pair.white.max(pair.black))));
            }
            assert_eq!(met.len(), list.len() * (list.len() - 1) / 2);
        }
    }

    #[test]
    fn snake_seeding_of_ten_in_three() {
        let groups = Groups::new(10, 3, 1, true, KNOCKOUT_FINAL).unwrap();
        assert_eq!(
            groups.members(),
            vec![vec![1, 6, 7], vec![2, 5, 8], vec![3, 4, 9, 10]]
        );
        // Double round robins: a group of 3 plays 6 games.
        assert_eq!(groups.rounds(1).iter().flatten().count(), 6);
    }

    #[test]
    fn bounds_are_refused_with_what_to_do() {
        let rr = FinalStage::RoundRobin { double: false };
        assert_eq!(
            Groups::new(8, 1, 1, false, rr),
            Err(GroupsError::TooFewGroups { groups: 1 })
        );
        assert!(Groups::new(400, 17, 1, false, rr).is_err());
        let error = Groups::new(5, 3, 1, false, rr).unwrap_err();
        assert_eq!(
            error,
            GroupsError::TooFewPlayers {
                players: 5,
                groups: 3
            }
        );
        assert!(error.to_string().contains("fewer groups"));
        assert_eq!(
            Groups::new(62, 2, 1, false, rr),
            Err(GroupsError::GroupTooLarge {
                players: 62,
                groups: 2
            })
        );
        assert!(Groups::new(60, 2, 1, false, rr).is_ok());
        let error = Groups::new(9, 2, 4, false, rr).unwrap_err();
        assert_eq!(
            error,
            GroupsError::Advance {
                advance: 4,
                smallest: 4
            }
        );
        assert!(error.to_string().contains("--advance=K with K from 1 to 3"));
        assert!(Groups::new(9, 2, 0, false, rr).is_err());
        assert_eq!(
            Groups::new(256, 16, 2, false, rr),
            Err(GroupsError::FinalTooLarge { finalists: 32 })
        );
        assert!(Groups::new(256, 16, 2, false, KNOCKOUT_FINAL).is_ok());
        let bad_matches = FinalStage::Knockout {
            match_games: 0,
            tie: TieRule::Seed,
        };
        assert!(matches!(
            Groups::new(8, 2, 2, false, bad_matches),
            Err(GroupsError::Knockout(KnockoutError::MatchGames {
                games: 0
            }))
        ));
    }

    /// The group stage's results where in each game the player higher in
    /// `finish` (seeds, best first, every group's players) beats the
    /// lower; `withdrawn` seeds marked so. Games carry event indexes.
    fn stage(groups: &Groups, finish: &[u32], withdrawn: &[u32]) -> EventResults {
        let rank = |seed: u32| finish.iter().position(|&s| s == seed).unwrap();
        let mut games = Vec::new();
        for group in 1..=groups.groups() {
            for (round, pairs) in groups.rounds(group).iter().enumerate() {
                for pair in pairs {
                    games.push(GameRecord {
                        round: round as u32 + 1,
                        white: pair.white as usize - 1,
                        black: pair.black as usize - 1,
                        board: None,
                        result: if rank(pair.white) < rank(pair.black) {
                            GameResult::WhiteWins
                        } else {
                            GameResult::BlackWins
                        },
                    });
                }
            }
        }
        EventResults {
            format: Format::RoundRobin {
                double: groups.double(),
            },
            entrants: (1..=groups.players())
                .map(|seed| Entrant {
                    name: format!("seed{seed}"),
                    rating: None,
                    withdrawn: withdrawn.contains(&seed),
                })
                .collect(),
            games,
            byes: Vec::new(),
            tiebreaks: Tiebreak::ROUND_ROBIN.to_vec(),
        }
    }

    /// Every group's crosstable, group 1 first.
    fn tables(groups: &Groups, stage: &EventResults) -> Vec<Crosstable> {
        (1..=groups.groups())
            .map(|group| Crosstable::compute(&groups.group_results(group, stage).unwrap()))
            .collect()
    }

    #[test]
    fn winners_first_then_runners_up_into_a_knockout_final() {
        let groups = Groups::new(8, 2, 2, false, KNOCKOUT_FINAL).unwrap();
        // Group 1 (1 4 5 8): 5 wins it, 1 second. Group 2 (2 3 6 7): 2
        // wins it, 7 second.
        let stage = stage(&groups, &[5, 2, 1, 7, 4, 3, 8, 6], &[]);
        let tables = tables(&groups, &stage);
        let group_one: Vec<&str> = tables[0].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(group_one, ["seed5", "seed1", "seed4", "seed8"]);
        assert_eq!(tables[1].rows[0].halves, 6, "seed 2 won all three");
        let advancers = groups.advancers(&tables).unwrap();
        let seeds: Vec<(u32, u32, u32)> = advancers
            .iter()
            .map(|a| (a.seed, a.group, a.place))
            .collect();
        assert_eq!(seeds, [(5, 1, 1), (2, 2, 1), (1, 1, 2), (7, 2, 2)]);
        // The final's seeds 1 to 4 are 5, 2, 1, 7: 1-4 is group 1's winner
        // against group 2's runner-up, 2-3 group 2's winner against group
        // 1's runner-up.
        let final_stage = groups
            .final_knockout(advancers.len() as u32)
            .unwrap()
            .unwrap();
        let bracket = final_stage.compute(&[]).unwrap();
        let firsts: Vec<(u32, u32)> = bracket.rounds[0]
            .matches
            .iter()
            .map(|m| {
                let seed = |s: u32| advancers[s as usize - 1].seed;
                (seed(m.upper), seed(m.lower.unwrap()))
            })
            .collect();
        assert_eq!(firsts, [(5, 7), (2, 1)]);
    }

    #[test]
    fn a_withdrawn_player_does_not_go_on() {
        let groups = Groups::new(9, 2, 2, false, FinalStage::RoundRobin { double: false }).unwrap();
        let stage = stage(&groups, &[9, 8, 5, 4, 1, 2, 3, 6, 7], &[8]);
        let tables = tables(&groups, &stage);
        let advancers = groups.advancers(&tables).unwrap();
        let seeds: Vec<u32> = advancers.iter().map(|a| a.seed).collect();
        assert_eq!(seeds, [9, 2, 5, 3]);
        assert_eq!(groups.final_knockout(4), Ok(None), "a round-robin final");
    }

    #[test]
    fn nobody_goes_on_before_every_group_is_over() {
        let groups = Groups::new(8, 2, 1, false, KNOCKOUT_FINAL).unwrap();
        let mut stage = stage(&groups, &[1, 2, 3, 4, 5, 6, 7, 8], &[]);
        // Two games of group 2 (seeds 2 3 6 7) still on.
        let mut on = 0;
        for game in &mut stage.games {
            if on < 2
                && [game.white, game.black]
                    .iter()
                    .all(|&i| [1, 2, 5, 6].contains(&i))
            {
                game.result = GameResult::Pending;
                on += 1;
            }
        }
        let tables = tables(&groups, &stage);
        let error = groups.advancers(&tables).unwrap_err();
        assert_eq!(
            error,
            GroupsError::GroupNotOver {
                group: 2,
                games_left: 2
            }
        );
        assert!(groups.advancers(&tables[..1]).is_err());
        assert!(groups.group_results(3, &stage).is_none());
    }
}
