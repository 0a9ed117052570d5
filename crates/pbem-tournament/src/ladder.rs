//! Ladders: a standing order of players, each of whom may challenge those
//! a few places above; a challenger who wins takes the loser's place.
//!
//! The rules, as this module applies them:
//!
//! * **Joining and leaving.** A newcomer joins at the bottom. A player who
//!   leaves is taken out, those below move up one, and their open ladder
//!   games are handed back to the caller (pbem lets them play on as
//!   ordinary games; the ladder is no longer concerned).
//! * **Challenges.** A player may challenge anyone at most `reach` places
//!   above (default [`DEFAULT_REACH`]); never oneself, nobody below (a win
//!   there could only move the challenger down), and never a player they
//!   already have an open ladder game with, whoever challenged. Each player
//!   has at most `max_open` open ladder games (default [`DEFAULT_OPEN`]),
//!   as challenger or as challenged: joining is consent, so a challenge
//!   cannot be declined, and the limit keeps the top of the ladder from
//!   being swamped. Every refusal is a [`LadderError`] whose message says
//!   what to do, and changes nothing.
//! * **Results.** When the challenger wins (over the board, on time or by
//!   forfeit) they take the loser's place and everyone from that place down
//!   to the challenger's old one moves down one. Anything else (a draw, a
//!   loss, a cancelled game) changes nothing; nor does a win by a
//!   challenger who has meanwhile climbed above the loser.
//!
//! Places are counted from 1, the top. The ladder is generic over the
//! player `P` (an id, a userid) the caller keeps it by; errors name the
//! players with `P`'s `Display`.

use std::fmt;

/// The most players a ladder may have.
pub const MAX_LADDER: u32 = 1000;
/// Places above oneself one may challenge unless the ladder says otherwise.
pub const DEFAULT_REACH: u32 = 3;
/// The most places a ladder's reach may be.
pub const MAX_REACH: u32 = 20;
/// Open ladder games a player may have unless the ladder says otherwise.
pub const DEFAULT_OPEN: u32 = 2;
/// The most open games a ladder may allow each player.
pub const MAX_OPEN: u32 = 10;

/// An open ladder game: who challenged whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge<P> {
    pub challenger: P,
    pub defender: P,
}

/// What a result did to the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    /// Nothing changed.
    Unchanged,
    /// The challenger moved from place `from` up to place `to`; those in
    /// between (the loser first) moved down one.
    Moved { from: u32, to: u32 },
}

/// Why a ladder, a join, a challenge or a result is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderError<P> {
    /// A reach outside 1 to [`MAX_REACH`].
    Reach {
        reach: u32,
    },
    /// An open-game limit outside 1 to [`MAX_OPEN`].
    OpenLimit {
        open: u32,
    },
    AlreadyOn {
        player: P,
        place: u32,
    },
    Full,
    /// The player acting is not on the ladder.
    NotOn {
        player: P,
    },
    /// The player challenged is not on the ladder.
    OpponentNotOn {
        opponent: P,
    },
    OwnChallenge,
    /// The player challenged is below (or level with) the challenger.
    NotAbove {
        place: u32,
        opponent: P,
        their_place: u32,
    },
    OutOfReach {
        place: u32,
        opponent: P,
        their_place: u32,
        reach: u32,
    },
    /// The two already have an open ladder game.
    AlreadyPlaying {
        opponent: P,
    },
    /// The challenger has as many open ladder games as allowed.
    TooManyOpen {
        limit: u32,
    },
    /// The player challenged has as many open ladder games as allowed.
    OpponentBusy {
        opponent: P,
        limit: u32,
    },
    /// A result for a game the ladder does not have open.
    NoSuchGame {
        challenger: P,
        defender: P,
    },
}

impl<P: fmt::Display> fmt::Display for LadderError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LadderError::Reach { reach } => write!(
                f,
                "a reach of {reach} places cannot be; give --reach=N with N from 1 to {MAX_REACH}"
            ),
            LadderError::OpenLimit { open } => write!(
                f,
                "{open} open games a player cannot be; give --open=M with M from 1 to {MAX_OPEN}"
            ),
            LadderError::AlreadyOn { player, place } => {
                write!(f, "{player} is already on the ladder, in place {place}")
            }
            LadderError::Full => write!(
                f,
                "the ladder is full ({MAX_LADDER} players); wait until someone leaves"
            ),
            LadderError::NotOn { player } => write!(
                f,
                "{player} is not on the ladder; join it first (ladder join)"
            ),
            LadderError::OpponentNotOn { opponent } => write!(
                f,
                "{opponent} is not on the ladder; see who is (ladder show)"
            ),
            LadderError::OwnChallenge => {
                write!(f, "you cannot challenge yourself; name a player above you")
            }
            LadderError::NotAbove {
                place,
                opponent,
                their_place,
            } => write!(
                f,
                "{opponent} is in place {their_place}, not above you (place {place}); challenge a player above you"
            ),
            LadderError::OutOfReach {
                place,
                opponent,
                their_place,
                reach,
            } => {
                let highest = place.saturating_sub(*reach).max(1);
                write!(
                    f,
                    "{opponent} is in place {their_place}, more than {reach} places above you (place {place}); challenge a player in places {highest} to {} and climb",
                    place.saturating_sub(1)
                )
            }
            LadderError::AlreadyPlaying { opponent } => write!(
                f,
                "you already have a ladder game with {opponent}; finish it before challenging again"
            ),
            LadderError::TooManyOpen { limit } => write!(
                f,
                "you already have {limit} ladder game{} open, the most this ladder allows; finish one first",
                if *limit == 1 { "" } else { "s" }
            ),
            LadderError::OpponentBusy { opponent, limit } => write!(
                f,
                "{opponent} already has {limit} ladder game{} open, the most this ladder allows; challenge them when one is over, or someone else",
                if *limit == 1 { "" } else { "s" }
            ),
            LadderError::NoSuchGame {
                challenger,
                defender,
            } => write!(
                f,
                "the ladder has no open game of {challenger} against {defender}"
            ),
        }
    }
}

impl<P: fmt::Display + fmt::Debug> std::error::Error for LadderError<P> {}

/// A ladder: its players top first, its open games, and its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder<P> {
    players: Vec<P>,
    open: Vec<Challenge<P>>,
    reach: u32,
    max_open: u32,
}

impl<P: Clone + Eq> Ladder<P> {
    /// An empty ladder: challenges up to `reach` places above (1 to
    /// [`MAX_REACH`]), at most `max_open` open games a player (1 to
    /// [`MAX_OPEN`]).
    pub fn new(reach: u32, max_open: u32) -> Result<Ladder<P>, LadderError<P>> {
        if reach == 0 || reach > MAX_REACH {
            return Err(LadderError::Reach { reach });
        }
        if max_open == 0 || max_open > MAX_OPEN {
            return Err(LadderError::OpenLimit { open: max_open });
        }
        Ok(Ladder {
            players: Vec::new(),
            open: Vec::new(),
            reach,
            max_open,
        })
    }

    /// A ladder as stored: its players top first and its open games. The
    /// same checks as building it move by move: nobody twice, nobody past
    /// [`MAX_LADDER`], every open game between two players on it.
    pub fn restore(
        reach: u32,
        max_open: u32,
        players: Vec<P>,
        open: Vec<Challenge<P>>,
    ) -> Result<Ladder<P>, LadderError<P>> {
        let mut ladder = Ladder::new(reach, max_open)?;
        for player in players {
            ladder.join(player)?;
        }
        for game in open {
            if ladder.place(&game.challenger).is_none() {
                return Err(LadderError::NotOn {
                    player: game.challenger,
                });
            }
            if ladder.place(&game.defender).is_none() {
                return Err(LadderError::OpponentNotOn {
                    opponent: game.defender,
                });
            }
            ladder.open.push(game);
        }
        Ok(ladder)
    }

    /// The players, top first.
    pub fn players(&self) -> &[P] {
        &self.players
    }

    /// The open ladder games, oldest first.
    pub fn open(&self) -> &[Challenge<P>] {
        &self.open
    }

    pub fn reach(&self) -> u32 {
        self.reach
    }

    pub fn max_open(&self) -> u32 {
        self.max_open
    }

    /// A player's place (from 1), if on the ladder.
    pub fn place(&self, player: &P) -> Option<u32> {
        self.players
            .iter()
            .position(|p| p == player)
            .map(|index| index as u32 + 1)
    }

    /// How many open ladder games `player` has, as either side.
    pub fn open_games(&self, player: &P) -> u32 {
        self.open
            .iter()
            .filter(|g| &g.challenger == player || &g.defender == player)
            .count() as u32
    }

    /// Puts `player` at the bottom; gives their place.
    pub fn join(&mut self, player: P) -> Result<u32, LadderError<P>> {
        if let Some(place) = self.place(&player) {
            return Err(LadderError::AlreadyOn { player, place });
        }
        if self.players.len() as u32 >= MAX_LADDER {
            return Err(LadderError::Full);
        }
        self.players.push(player);
        Ok(self.players.len() as u32)
    }

    /// Takes `player` off the ladder (those below move up one) and hands
    /// back their open games, for the caller to end.
    pub fn leave(&mut self, player: &P) -> Result<Vec<Challenge<P>>, LadderError<P>> {
        let Some(place) = self.place(player) else {
            return Err(LadderError::NotOn {
                player: player.clone(),
            });
        };
        self.players.remove(place as usize - 1);
        let (theirs, others) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|g| &g.challenger == player || &g.defender == player);
        self.open = others;
        Ok(theirs)
    }

    /// Whether `challenger` may challenge `defender` now: the error says
    /// why not. Changes nothing.
    pub fn check_challenge(&self, challenger: &P, defender: &P) -> Result<(), LadderError<P>> {
        let Some(place) = self.place(challenger) else {
            return Err(LadderError::NotOn {
                player: challenger.clone(),
            });
        };
        if challenger == defender {
            return Err(LadderError::OwnChallenge);
        }
        let Some(their_place) = self.place(defender) else {
            return Err(LadderError::OpponentNotOn {
                opponent: defender.clone(),
            });
        };
        if their_place >= place {
            return Err(LadderError::NotAbove {
                place,
                opponent: defender.clone(),
                their_place,
            });
        }
        if place - their_place > self.reach {
            return Err(LadderError::OutOfReach {
                place,
                opponent: defender.clone(),
                their_place,
                reach: self.reach,
            });
        }
        if self.open.iter().any(|g| {
            (&g.challenger == challenger && &g.defender == defender)
                || (&g.challenger == defender && &g.defender == challenger)
        }) {
            return Err(LadderError::AlreadyPlaying {
                opponent: defender.clone(),
            });
        }
        if self.open_games(challenger) >= self.max_open {
            return Err(LadderError::TooManyOpen {
                limit: self.max_open,
            });
        }
        if self.open_games(defender) >= self.max_open {
            return Err(LadderError::OpponentBusy {
                opponent: defender.clone(),
                limit: self.max_open,
            });
        }
        Ok(())
    }

    /// Records the challenge as an open game, if [`Ladder::check_challenge`]
    /// allows it; otherwise changes nothing.
    pub fn challenge(&mut self, challenger: &P, defender: &P) -> Result<(), LadderError<P>> {
        self.check_challenge(challenger, defender)?;
        self.open.push(Challenge {
            challenger: challenger.clone(),
            defender: defender.clone(),
        });
        Ok(())
    }

    /// The open game of `challenger` against `defender` has ended; the
    /// challenger won it or not (a draw, a loss, a cancelled game). A win
    /// moves the challenger up to the loser's place.
    pub fn result(
        &mut self,
        challenger: &P,
        defender: &P,
        challenger_won: bool,
    ) -> Result<Shift, LadderError<P>> {
        let Some(index) = self
            .open
            .iter()
            .position(|g| &g.challenger == challenger && &g.defender == defender)
        else {
            return Err(LadderError::NoSuchGame {
                challenger: challenger.clone(),
                defender: defender.clone(),
            });
        };
        self.open.remove(index);
        let (Some(from), Some(to)) = (self.place(challenger), self.place(defender)) else {
            return Ok(Shift::Unchanged);
        };
        if !challenger_won || to >= from {
            return Ok(Shift::Unchanged);
        }
        let moving = self.players.remove(from as usize - 1);
        self.players.insert(to as usize - 1, moving);
        Ok(Shift::Moved { from, to })
    }
}

impl<P: Clone + Eq + fmt::Display> Ladder<P> {
    /// The ladder as text: one line a player, place and name, and whom
    /// they are playing (`> x` challenged x, `< y` challenged by y).
    pub fn text(&self) -> String {
        let width = self.players.len().to_string().len();
        let mut out = String::new();
        for (index, player) in self.players.iter().enumerate() {
            let mut line = format!("{:>width$}  {player}", index + 1);
            for game in &self.open {
                if &game.challenger == player {
                    line.push_str(&format!("  > {}", game.defender));
                } else if &game.defender == player {
                    line.push_str(&format!("  < {}", game.challenger));
                }
            }
            out.push_str(&line);
            out.push('\n');
        }
        if self.players.is_empty() {
            out.push_str("Nobody is on the ladder yet.\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn five() -> Ladder<&'static str> {
        let mut ladder = Ladder::new(DEFAULT_REACH, DEFAULT_OPEN).unwrap();
        for (place, player) in ["anna", "boris", "carla", "dmitri", "eva"]
            .into_iter()
            .enumerate()
        {
            assert_eq!(ladder.join(player), Ok(place as u32 + 1));
        }
        ladder
    }

    #[test]
    fn a_ladder_of_five_challenges_up_and_out_of_reach() {
        let mut ladder = five();
        // Eva (5th) reaches 3 places up: boris (2nd) but not anna (1st).
        let error = ladder.challenge(&"eva", &"anna").unwrap_err();
        assert_eq!(
            error,
            LadderError::OutOfReach {
                place: 5,
                opponent: "anna",
                their_place: 1,
                reach: 3
            }
        );
        assert!(error.to_string().contains("places 2 to 4"), "{error}");
        assert!(ladder.open().is_empty(), "a refusal changes nothing");
        ladder.challenge(&"eva", &"boris").unwrap();
        assert_eq!(
            ladder.challenge(&"eva", &"boris"),
            Err(LadderError::AlreadyPlaying { opponent: "boris" })
        );
        // Nor the other way round: boris is above eva anyway.
        assert!(matches!(
            ladder.challenge(&"boris", &"eva"),
            Err(LadderError::NotAbove { .. })
        ));
        assert_eq!(
            ladder.challenge(&"eva", &"eva"),
            Err(LadderError::OwnChallenge)
        );
        assert_eq!(
            ladder.challenge(&"zoe", &"anna"),
            Err(LadderError::NotOn { player: "zoe" })
        );
        assert_eq!(
            ladder.challenge(&"eva", &"zoe"),
            Err(LadderError::OpponentNotOn { opponent: "zoe" })
        );
        ladder.challenge(&"dmitri", &"anna").unwrap();
        assert_eq!(ladder.open().len(), 2);
        assert_eq!(
            ladder.text(),
            "1  anna  < dmitri\n2  boris  < eva\n3  carla\n4  dmitri  > anna\n5  eva  > boris\n"
        );
    }

    #[test]
    fn a_challengers_win_moves_the_order_and_a_draw_does_not() {
        let mut ladder = five();
        ladder.challenge(&"eva", &"boris").unwrap();
        ladder.challenge(&"dmitri", &"carla").unwrap();
        // A draw: nothing moves.
        assert_eq!(
            ladder.result(&"dmitri", &"carla", false),
            Ok(Shift::Unchanged)
        );
        assert_eq!(
            ladder.players(),
            ["anna", "boris", "carla", "dmitri", "eva"]
        );
        // Eva beats boris: eva takes place 2, boris, carla and dmitri move
        // down one.
        assert_eq!(
            ladder.result(&"eva", &"boris", true),
            Ok(Shift::Moved { from: 5, to: 2 })
        );
        assert_eq!(
            ladder.players(),
            ["anna", "eva", "boris", "carla", "dmitri"]
        );
        assert!(ladder.open().is_empty());
        // The game is over: a second result is refused.
        assert_eq!(
            ladder.result(&"eva", &"boris", true),
            Err(LadderError::NoSuchGame {
                challenger: "eva",
                defender: "boris"
            })
        );
        // A challenger's loss changes nothing.
        ladder.challenge(&"dmitri", &"eva").unwrap();
        assert_eq!(
            ladder.result(&"dmitri", &"eva", false),
            Ok(Shift::Unchanged)
        );
        assert_eq!(
            ladder.players(),
            ["anna", "eva", "boris", "carla", "dmitri"]
        );
    }

    #[test]
    fn a_win_by_a_challenger_who_has_climbed_above_changes_nothing() {
        let mut ladder = five();
        ladder.challenge(&"eva", &"carla").unwrap();
        ladder.challenge(&"eva", &"boris").unwrap();
        assert_eq!(
            ladder.result(&"eva", &"boris", true),
            Ok(Shift::Moved { from: 5, to: 2 })
        );
        // Eva is now above carla: beating her does not move eva down.
        assert_eq!(ladder.result(&"eva", &"carla", true), Ok(Shift::Unchanged));
        assert_eq!(
            ladder.players(),
            ["anna", "eva", "boris", "carla", "dmitri"]
        );
    }

    #[test]
    fn open_games_are_limited_on_both_sides() {
        let mut ladder = five();
        ladder.challenge(&"eva", &"carla").unwrap();
        ladder.challenge(&"eva", &"dmitri").unwrap();
        let error = ladder.challenge(&"eva", &"boris").unwrap_err();
        assert_eq!(error, LadderError::TooManyOpen { limit: 2 });
        assert!(error.to_string().contains("finish one first"));
        // Anna, challenged twice, is as busy as one may be.
        let mut ladder = five();
        ladder.challenge(&"carla", &"anna").unwrap();
        ladder.challenge(&"boris", &"anna").unwrap();
        let error = ladder.challenge(&"dmitri", &"anna").unwrap_err();
        assert_eq!(
            error,
            LadderError::OpponentBusy {
                opponent: "anna",
                limit: 2
            }
        );
        assert!(error.to_string().contains("someone else"));
    }

    #[test]
    fn joining_and_leaving() {
        let mut ladder = five();
        assert_eq!(
            ladder.join("carla"),
            Err(LadderError::AlreadyOn {
                player: "carla",
                place: 3
            })
        );
        assert_eq!(ladder.join("farid"), Ok(6));
        ladder.challenge(&"dmitri", &"carla").unwrap();
        ladder.challenge(&"eva", &"boris").unwrap();
        let ended = ladder.leave(&"carla").unwrap();
        assert_eq!(
            ended,
            vec![Challenge {
                challenger: "dmitri",
                defender: "carla"
            }]
        );
        assert_eq!(
            ladder.players(),
            ["anna", "boris", "dmitri", "eva", "farid"]
        );
        assert_eq!(ladder.open().len(), 1);
        assert_eq!(
            ladder.leave(&"carla"),
            Err(LadderError::NotOn { player: "carla" })
        );
    }

    #[test]
    fn rules_and_stored_ladders_are_checked() {
        assert_eq!(
            Ladder::<u32>::new(0, 2),
            Err(LadderError::Reach { reach: 0 })
        );
        assert!(Ladder::<u32>::new(MAX_REACH + 1, 2).is_err());
        assert_eq!(
            Ladder::<u32>::new(3, 0),
            Err(LadderError::OpenLimit { open: 0 })
        );
        assert!(Ladder::<u32>::new(3, MAX_OPEN + 1).is_err());
        let ladder = Ladder::restore(
            2,
            1,
            vec![10u32, 20, 30],
            vec![Challenge {
                challenger: 30,
                defender: 10,
            }],
        )
        .unwrap();
        assert_eq!(ladder.place(&30), Some(3));
        assert_eq!(ladder.open_games(&10), 1);
        assert!(Ladder::restore(2, 1, vec![10u32, 10], Vec::new()).is_err());
        assert!(
            Ladder::restore(
                2,
                1,
                vec![10u32],
                vec![Challenge {
                    challenger: 30,
                    defender: 10
                }]
            )
            .is_err()
        );
        let mut full = Ladder::new(3, 2).unwrap();
        for player in 0..MAX_LADDER {
            full.join(player).unwrap();
        }
        assert_eq!(full.join(MAX_LADDER), Err(LadderError::Full));
        assert_eq!(
            Ladder::<u32>::new(3, 2).unwrap().text(),
            "Nobody is on the ladder yet.\n"
        );
    }
}
