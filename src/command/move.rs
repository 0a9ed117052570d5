//! `move <board> <userid> <password> <turn>[#<turn number>]`, or the turn
//! alone in a reply to a board mail.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_login_turn};

/// `move <board> <userid> <password> <turn>[#<turn number>]`, or a bare
/// turn in a reply to a board mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTurn {
    pub board: u32,
    pub speaker: Speaker,
    /// The turn as written (`Nf6,d5`).
    pub turn: String,
    /// The `#n` guard: the number of the turn being played.
    pub guard: Option<u32>,
}

const USAGE: &str = "move <board> <userid> <password> <turn>[#<turn number>]";

impl MailCommand for MoveTurn {
    const DEFINITION: Definition = Definition {
        words: &["move"],
        forms: &[Form::new(USAGE, &[3], "move 101 alice alice-pw e4#1")],
        in_reply: InReply::Turn,
        names_board: true,
        game_action: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<MoveTurn, CommandError> {
        let (board, speaker, written) = board_login_turn(args, keyword, USAGE)?;
        let (turn, guard) = split_guard(&written);
        Ok(MoveTurn {
            board,
            speaker,
            turn,
            guard,
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

/// Splits a `#n` turn-number guard off a written turn; a `#` without digits
/// is a mate sign and stays.
pub fn split_guard(written: &str) -> (String, Option<u32>) {
    if let Some((turn, number)) = written.rsplit_once('#')
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && let Ok(number) = number.parse()
    {
        return (turn.trim_end().to_string(), Some(number));
    }
    (written.trim().to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_is_split_from_the_turn_but_a_mate_sign_stays() {
        assert_eq!(
            split_guard("Nf3,Bb5+#12"),
            ("Nf3,Bb5+".to_string(), Some(12))
        );
        assert_eq!(split_guard("Qh4#"), ("Qh4#".to_string(), None));
        assert_eq!(split_guard("Qh4##7"), ("Qh4#".to_string(), Some(7)));
        assert_eq!(split_guard("e4"), ("e4".to_string(), None));
    }
}
