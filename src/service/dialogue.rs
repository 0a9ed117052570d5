//! Running one mail: find the sender's own words (`mail::reply`), read
//! them (`reading`), check that a reply answers the board's current
//! position, run each command in a savepoint of its own, keep the comment
//! only when nothing was refused and it may be forwarded, and hand the
//! outcomes to `answer`, which sends one answer per mail.

use super::answer::{self, Outcome};
use super::auth::token_board;
use super::board_mail::{self, Occasion};
use super::journal;
use super::{Failure, MailCtx, Refusal, ServiceError};
use crate::command::blank::Blanking;
use crate::command::reading::strip_reply_prefixes;
use crate::command::reading::{self, COMMENT_CHARS, Item, Reading};
use crate::command::{self, Word};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::reply::{self, Known};
use crate::mail::token::NOT_A_BOARD;
use crate::rules::notation::parse_turn;
use crate::store::players;
use crate::store::sent::{self, SentMail};
use crate::store::{CachedStatements, boards};

impl MailCtx<'_> {
    /// Reads and runs every command of the mail, and answers it.
    pub(super) fn run_mail(&mut self) -> Result<(), ServiceError> {
        let token = match self.reply_token() {
            Some(Err(message)) => {
                // A reply token that does not check out speaks for nobody.
                let board = token_board(self.mail, self.config);
                let refusal = Refusal {
                    message,
                    board: board.map(BoardNumber),
                };
                return answer::finish(self, vec![Outcome::refused("", refusal)], Vec::new());
            }
            Some(Ok(token)) => Some(token),
            None => None,
        };
        // The token of a mail about no board (a tournament's) proves its
        // player, but names no board to play on or comment on.
        let board_token = token.filter(|(board, _)| *board != BoardNumber(NOT_A_BOARD));
        let answered = self.answered_mail()?;
        // The lines pbem sent: of the mail answered, or for a reply that
        // names none of pbem's mails, of the newest one to its player.
        let shown = match (&answered, token) {
            (Some(_), _) | (None, None) => None,
            (None, Some((board, player))) => sent::latest_to_player(self.conn, board, player)?,
        };
        let mut known = Known::none();
        if let Some(mail) = answered.as_ref().or(shown.as_ref()) {
            known.extend(Known::from_bytes(&mail.lines));
        }
        let lines = reply::own_words(&self.mail.body, self.mail.html.as_deref(), &known);
        let subject = strip_reply_prefixes(&self.mail.subject);
        let reading = reading::read(subject, &lines, board_token.map(|(board, _)| board.0));
        // Which position a reply answers is known from its In-Reply-To or
        // References; a client that sends neither is not judged stale.
        if let (Some((board, _)), Some(answered)) = (board_token, &answered)
            && answered.board == board
        {
            self.stale = self.moved_on(board, answered.turn_seq)?;
        }
        let mut notes = Vec::new();
        if reading.unread_commands > 0 {
            notes.push(format!(
                "Your mail held {} than the {} pbem reads in one mail; they were not read. Send them in another mail.",
                crate::render::count(reading.unread_commands, "more command"),
                reading::COMMANDS_PER_MAIL
            ));
        }
        if reading.items.is_empty() {
            return self.comment_alone(reading, board_token, notes);
        }
        self.replies = reply_forms(&reading);
        self.game_actions_only = game_actions_only(&reading);
        let mut outcomes = Vec::new();
        let mut blanking = board_mail::blanking_of(
            self,
            std::iter::once(subject).chain(lines.iter().map(String::as_str)),
        )?;
        for (written, item) in reading.items.iter() {
            // A mail with no reply token whose `confirm` gave its sender's
            // address to a player speaks for that player from then on, as
            // a reply to a notice does (see `MailAccounts::confirmed_for`).
            let token = token.or(self
                .accounts
                .confirmed_for
                .map(|player| (BoardNumber(NOT_A_BOARD), player)));
            let outcome = self.run_item(written, item, token)?;
            // Quoted back with its passwords blanked, by what the logins
            // of the mail proved so far.
            blanking.set_logged_in(board_mail::logged_in(self));
            outcomes.push(blanked(&blanking, outcome));
        }
        if !reading.comment.is_empty() {
            let refused = outcomes.iter().any(|o| o.refusal.is_some());
            if refused {
                notes.push(
                    "Your comment was not passed on, since a command of your mail was refused; send it again with the corrected command.".into(),
                );
            } else if let Some(why) = &reading.withheld {
                notes.push(withheld_note(why));
            } else if let Some((board, author)) = self.comment_author(board_token)? {
                self.store_comment(board, author, &reading.comment.join("\n"))?;
            } else if outcomes.iter().any(|o| o.board.is_some()) {
                notes.push(
                    "Your comment was not passed on: a comment goes with a reply to a board mail or with a command that gives your password.".into(),
                );
            }
        }
        answer::finish(self, outcomes, notes)
    }

    /// A mail of words and no command: chat on the reply's board when the
    /// sender is not to move there; otherwise an error that says how to
    /// write what pbem expected.
    fn comment_alone(
        &mut self,
        reading: Reading,
        token: Option<(BoardNumber, PlayerId)>,
        notes: Vec<String>,
    ) -> Result<(), ServiceError> {
        let refuse = |message: String, board| {
            Ok::<_, ServiceError>(vec![Outcome::refused("", Refusal { message, board })])
        };
        // A reply says which command its lines look like where it refuses
        // them (`not_understood`, the withheld comment).
        let misspelled = reading.misspelled.as_ref().filter(|_| token.is_none());
        let outcomes = match (token, misspelled) {
            (None, Some((written, word))) => refuse(did_you_mean(written, *word), None)?,
            _ if reading.comment.is_empty() => refuse(
                "pbem found no command in your mail. Send \"help\" for the list of commands.".into(),
                None,
            )?,
            (None, None) => refuse(
                "pbem found no command in your mail, and passes text on to the other players only in a reply to a board mail or with a command that gives your password. Send \"help\" for the list of commands.".into(),
                None,
            )?,
            (Some((board, player)), _) => {
                if let Some(refusal) = self.stale.clone() {
                    vec![Outcome::refused("", refusal)]
                } else if let Some(why) = &reading.withheld {
                    refuse(
                        format!(
                            "{}; nothing was played and nothing was passed on. Reply with just your turn (for example Nf6, or two moves as e5,Nf6) or a command such as draw, accept or resign; a comment may follow on the next lines.",
                            why_sentence(why)
                        ),
                        Some(board),
                    )?
                } else if self.to_move(board)? == Some(player) {
                    refuse(
                        format!(
                            "it is your turn on board {board}, and your reply does not begin with a turn; nothing was played and nothing was passed on. Reply with your turn first (for example Nf6), then your comment on the next lines."
                        ),
                        Some(board),
                    )?
                } else {
                    let author = players::by_id(self.conn, player)?;
                    if !author.owns_address(self.sender) {
                        refuse(
                            format!(
                                "this reply came from {}, which is not an address of {}; reply from your registered address",
                                self.sender, author.userid
                            ),
                            Some(board),
                        )?
                    } else {
                        self.store_comment(board, player, &reading.comment.join("\n"))?;
                        Vec::new()
                    }
                }
            }
        };
        answer::finish(self, outcomes, notes)
    }

    /// Runs one command in a savepoint: a refused command changes nothing.
    fn run_item(
        &mut self,
        written: &str,
        item: &Item,
        token: Option<(BoardNumber, PlayerId)>,
    ) -> Result<Outcome, ServiceError> {
        // What the turn before left is kept for one command's end only.
        self.forget_after_turn();
        let line = match item {
            Item::Command(line) => line,
            Item::Malformed(error) => {
                self.journal.push(journal::NOT_A_COMMAND.to_string());
                let refusal = Refusal {
                    message: error.to_string(),
                    board: None,
                };
                return Ok(Outcome::refused(written, refusal));
            }
            Item::NotUnderstood(text) => {
                self.journal.push(journal::NOT_A_COMMAND.to_string());
                let refusal = Refusal {
                    message: not_understood(text),
                    board: token.map(|(board, _)| board),
                };
                return Ok(Outcome::refused(written, refusal));
            }
        };
        let board = line.command.board();
        // A reply form's board is 0: the board of the mail it answers.
        let logged = board
            .filter(|board| *board != 0)
            .or(token.map(|(board, _)| board.0));
        self.journal
            .push(journal::command_entry(&line.command, logged));
        let pending = self.later_mails_len();
        self.conn.execute_cached("SAVEPOINT command", [])?;
        match super::commands::run(self, line, token) {
            Ok(mails) => {
                self.conn.execute_cached("RELEASE command", [])?;
                Ok(Outcome::done(written, board.map(BoardNumber), mails))
            }
            Err(Failure::Refused(refusal)) => {
                self.conn
                    .execute_batch("ROLLBACK TO command; RELEASE command")?;
                // What the command's game ends would have sent goes too.
                self.truncate_later_mails(pending);
                Ok(Outcome::refused(written, refusal))
            }
            Err(Failure::Fatal(error)) => Err(error),
        }
    }

    /// The mail pbem sent that this mail replies to, if it is one of the
    /// recorded ones: its In-Reply-To first, then its References.
    fn answered_mail(&self) -> Result<Option<SentMail>, ServiceError> {
        for id in &self.mail.answers {
            if let Some(mail) = sent::by_message_id(self.conn, id)? {
                return Ok(Some(mail));
            }
        }
        Ok(None)
    }

    /// The refusal for a reply to a mail that showed turn #`shown` when
    /// the board has moved on since.
    fn moved_on(&self, board: BoardNumber, shown: u32) -> Result<Option<Refusal>, ServiceError> {
        let due = boards::turns(self.conn, board)?.len() as u32 + 1;
        Ok((due != shown).then(|| Refusal {
            message: format!(
                "your reply answers the board mail of board {board} at turn #{shown}, but the board has moved on to turn #{due}; nothing was changed. Look at the board below and reply to this mail."
            ),
            board: Some(board),
        }))
    }

    /// The player to move on `board`, if the game is on.
    fn to_move(&self, board: BoardNumber) -> Result<Option<PlayerId>, ServiceError> {
        let Some(row) = boards::get(self.conn, board)? else {
            return Ok(None);
        };
        if row.result.is_some() {
            return Ok(None);
        }
        let turns = boards::turns(self.conn, board)?.len();
        let white_to_move = turns % 2 == 0;
        Ok(Some(if white_to_move { row.white } else { row.black }))
    }

    /// Who may comment, and on which board: the reply token's player on
    /// its board, or a player who gave a password for a command on a board
    /// they play on. A From address alone never speaks (it is forgeable).
    fn comment_author(
        &self,
        token: Option<(BoardNumber, PlayerId)>,
    ) -> Result<Option<(BoardNumber, PlayerId)>, ServiceError> {
        if let Some((board, player)) = token
            && players::by_id(self.conn, player)?.owns_address(self.sender)
        {
            return Ok(Some((board, player)));
        }
        for (player, board) in &self.speakers {
            if let Some(board) = board
                && boards::get(self.conn, *board)?.is_some_and(|b| b.color_of(*player).is_some())
            {
                return Ok(Some((*board, *player)));
            }
        }
        Ok(None)
    }

    /// Stores a comment under the board, for its next board mail.
    fn store_comment(
        &mut self,
        board: BoardNumber,
        author: PlayerId,
        text: &str,
    ) -> Result<(), ServiceError> {
        let after_seq = boards::turns(self.conn, board)?.len() as u32;
        let text: String = text.chars().take(COMMENT_CHARS).collect();
        boards::add_comment(self.conn, board, Some(author), after_seq, &text, self.now)?;
        self.touch(board, Occasion::Comment);
        // The challenged player reads nothing but the challenge and its
        // first turn until accepting: the comment waits, and its author is
        // told so rather than left to think it was read.
        if let Some(waiting) = boards::unaccepted(self.conn, board)?
            && waiting.challenged != author
        {
            let who = players::by_id(self.conn, waiting.challenged)?.userid;
            self.tell_player(
                board,
                author,
                format!("Your comment reaches {who} with the first board mail after {who} accepts the challenge."),
            );
        }
        Ok(())
    }
}

/// An outcome as the answer quotes it: its line and the reason it was
/// refused, with every password blanked.
fn blanked(blanking: &Blanking, mut outcome: Outcome) -> Outcome {
    if let Some(refusal) = &mut outcome.refusal {
        refusal.message = blanking.message(&outcome.written, &refusal.message);
    }
    outcome.written = blanking.line(&outcome.written);
    outcome
}

/// Whether the commands `reading` found are all game actions (and there
/// is one): lines not understood only add a refusal to the answer, and do
/// not make the mail another kind.
fn game_actions_only(reading: &Reading) -> bool {
    let mut commands = reading
        .items
        .iter()
        .filter_map(|(_, item)| match item {
            Item::Command(line) => Some(line.command.word()),
            _ => None,
        })
        .peekable();
    commands.peek().is_some() && commands.all(|word| word.definition().game_action)
}

/// The lines of `reading` read as reply forms (a bare `draw`, `if d6
/// Nc4`, a turn): read as commands, though no full form parses them.
fn reply_forms(reading: &Reading) -> Vec<String> {
    reading
        .items
        .iter()
        .filter(|(written, item)| {
            matches!(item, Item::Command(_)) && !matches!(command::parse_line(written), Some(Ok(_)))
        })
        .map(|(written, _)| written.clone())
        .collect()
}

/// The error for a mail that holds no command but a misspelled one.
fn did_you_mean(written: &str, word: Word) -> String {
    format!(
        "pbem found no command in your mail: \"{written}\" is not a command; did you mean \"{}\"? Nothing was done. Send \"help\" for the list of commands.",
        word.name()
    )
}

/// The error for a reply whose first words pbem did not understand.
fn not_understood(text: &str) -> String {
    let turn = text.trim().trim_end_matches(['.', ';', ',']);
    // The command it misspells, or the notation's own complaint, for one
    // word only: a longer line may hold a password the error would repeat.
    let (reason, suggestion) = match (reading::misspelled(text), parse_turn(turn)) {
        (Some((_, word)), _) => (String::new(), format!(" Did you mean \"{}\"?", word.name())),
        (None, Err(error)) if !turn.contains(char::is_whitespace) => {
            (format!(" ({error})"), String::new())
        }
        _ => (String::new(), String::new()),
    };
    format!(
        "pbem did not understand \"{text}\" as a turn or a command{reason}; nothing was played and nothing was passed on.{suggestion} Reply with just your turn in SAN (for example Nf6, or a two-move turn as e5,Nf6) or a command such as draw, accept or resign; a comment may follow on the next lines."
    )
}

fn why_sentence(why: &str) -> String {
    format!("the line {why}")
}

fn withheld_note(why: &str) -> String {
    format!(
        "Your comment was not passed on: the line {why}, and pbem never passes on what may be a move, a command or a password. Write moves only as your turn, on the first line."
    )
}
