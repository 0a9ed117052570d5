//! Who a mail speaks for: its reply token, the userid and password of a
//! command (checked by Argon2, with the password throttle of `limits`),
//! and the player the whole mail proves, who pays for its answers. Every
//! command's speaker is checked here, and nowhere else.

use super::context::MailCtx;
use super::kernel::{Failure, ServiceConfig, ServiceError, refuse};
use super::limits;
use crate::command::reading::strip_reply_prefixes;
use crate::command::{self, Speaker};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::inbound::Inbound;
use crate::store::players::{self, Player};

impl MailCtx<'_> {
    /// The reply token in the mail's recipients: `None` when there is none,
    /// an error when it does not check out.
    pub(super) fn reply_token(&self) -> Option<Result<(BoardNumber, PlayerId), String>> {
        let token = self
            .mail
            .recipients
            .iter()
            .find_map(|r| self.config.address.token_of(r))?;
        // A reset mail's one-time address proves its player for setting
        // the password alone (`reset_token`), not as a reply.
        if self.key.verify_reset(token).is_some() {
            return None;
        }
        Some(
            self.key
                .verify(token)
                .map(|(board, player)| (BoardNumber(board), player))
                .ok_or_else(|| "the reply address of your mail is not one pbem gave out; please reply to a board mail or use a password".to_string()),
        )
    }

    /// The reset and player the one-time address of a password reset
    /// mail names (see `commands::password`), if the mail went to one.
    pub(super) fn reset_token(&self) -> Option<(i64, PlayerId)> {
        self.mail
            .recipients
            .iter()
            .filter_map(|r| self.config.address.token_of(r))
            .find_map(|token| self.key.verify_reset(token))
    }

    /// Authenticates the speaker of a command.
    pub(super) fn speaker(
        &mut self,
        speaker: &Speaker,
        token: Option<(BoardNumber, PlayerId)>,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let player = self.speaker_unrecorded(speaker, token, board)?;
        if !self.speakers.contains(&(player.id, board)) {
            self.speakers.push((player.id, board));
        }
        Ok(player)
    }

    pub(super) fn speaker_unrecorded(
        &mut self,
        speaker: &Speaker,
        token: Option<(BoardNumber, PlayerId)>,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        match speaker {
            Speaker::Password { userid, password } => self.login(userid, password, board),
            Speaker::Token => {
                let Some((token_board, player_id)) = token else {
                    return Err(refuse(
                        "a command without userid and password must be a reply to a mail pbem sent you: reply to one of pbem's mails from your registered address, or give your userid and password",
                        board,
                    ));
                };
                if board.is_some_and(|b| b != token_board) {
                    return Err(refuse(
                        format!(
                            "this reply belongs to board {token_board}; to act on another board use its own mail or a password"
                        ),
                        board,
                    ));
                }
                let player = players::by_id(self.conn, player_id)?;
                // A reply to an old board mail is stale for the board's
                // commands only: it still proves its player elsewhere.
                if board.is_some()
                    && let Some(refusal) = self.stale.clone()
                {
                    return Err(Failure::Refused(refusal));
                }
                if !player.owns_address(self.sender) {
                    return Err(refuse(
                        format!(
                            "this reply came from {}, which is not an address of {}; reply from your registered address or use your password",
                            self.sender, player.userid
                        ),
                        board,
                    ));
                }
                Ok(player)
            }
        }
    }

    /// Checks a userid and password. The answer is the same for an unknown
    /// userid and a wrong password; after repeated failures from one place
    /// the userid's password logins from there pause (see `limits`), except
    /// in a reply from the player's own address to a mail pbem sent them.
    /// A signup none of whose addresses has confirmed cannot log in: the
    /// right password is told to confirm first (a wrong one is only wrong).
    pub(super) fn login(
        &mut self,
        userid: &str,
        password: &str,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let player = self.login_even_unconfirmed(userid, password, board)?;
        if !player.is_confirmed() {
            return Err(refuse(
                format!(
                    "\"{userid}\" is not confirmed yet: an account exists once an address of it confirms. Reply to the confirmation mail pbem sent to that address (or send \"confirm <code>\" from it), then send this again"
                ),
                board,
            ));
        }
        Ok(player)
    }

    /// [`MailCtx::login`] that also lets in a signup not yet confirmed (for
    /// signing it up again).
    pub(super) fn login_even_unconfirmed(
        &mut self,
        userid: &str,
        password: &str,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let login = (userid.to_string(), password.to_string());
        if !self.logins.contains(&login) {
            if self.logins.len() >= LOGINS_PER_MAIL {
                return Err(refuse(
                    format!(
                        "a mail may log in with at most {LOGINS_PER_MAIL} different userid and password pairs; send the other commands in another mail"
                    ),
                    board,
                ));
            }
            self.logins.push(login);
        }
        let player = players::by_userid_or_reserved(self.conn, userid)?;
        let owner_replies = player
            .as_ref()
            .is_some_and(|player| self.token_speaks_for(player));
        let failed_here = self
            .login_outcomes
            .iter()
            .filter(|(u, good)| !good && u.eq_ignore_ascii_case(userid))
            .count() as u32;
        if !owner_replies
            && let Some(until) =
                limits::paused_until(self.conn, userid, self.sender, failed_here, self.now)?
        {
            return Err(refuse(
                format!(
                    "too many wrong passwords for \"{userid}\": password logins for it from {} pause until {}; the player's password from the player's own address, and a reply from there to a mail pbem sent the player, still work",
                    self.sender,
                    crate::render::readable_time(until)
                ),
                board,
            ));
        }
        let good = player
            .as_ref()
            .is_some_and(|player| self.passwords.verify(player, password));
        self.login_outcomes.push((userid.to_string(), good));
        match player {
            Some(player) if good => Ok(player),
            _ => Err(refuse(
                format!("wrong userid or password for \"{userid}\""),
                board,
            )),
        }
    }

    /// The player a reply speaks for: the one its verified reply token
    /// (`token`) names, when the mail comes from one of their addresses.
    /// A reply form that the parser read as a login (`note 101 the knight
    /// ...`, `tournament broadcast spring round two ...`) is read again as
    /// that player's words when it names another userid.
    pub(super) fn replying_player(
        &self,
        token: Option<(BoardNumber, PlayerId)>,
    ) -> Result<Option<Player>, ServiceError> {
        let Some((_, id)) = token else {
            return Ok(None);
        };
        let player = players::by_id(self.conn, id)?;
        Ok(player.owns_address(self.sender).then_some(player))
    }

    /// Whether the mail carries a reply token of `player` and comes from
    /// one of the player's addresses.
    pub(super) fn token_speaks_for(&self, player: &Player) -> bool {
        matches!(self.reply_token(), Some(Ok((_, id))) if id == player.id)
            && player.owns_address(self.sender)
    }

    /// The player the mail proves: a reply token from the player's own
    /// address, or else the first command with a right password (checked
    /// only for userids whose logins are not paused, and at most
    /// [`LOGINS_PER_MAIL`] of them) of a player whose address confirmed.
    pub(super) fn proven_player(&mut self) -> Result<Option<PlayerId>, ServiceError> {
        if let Some(Ok((_, id))) = self.reply_token() {
            let player = players::by_id(self.conn, id)?;
            if player.owns_address(self.sender) {
                return Ok(Some(player.id));
            }
        }
        let subject = strip_reply_prefixes(&self.mail.subject);
        let mut tried = 0;
        let lines = self.mail.command_lines();
        for line in std::iter::once(subject).chain(lines.iter().map(String::as_str)) {
            let Some(Ok(line)) = command::parse_line(line) else {
                continue;
            };
            let Some((userid, password)) = line.command.credentials() else {
                continue;
            };
            if tried >= LOGINS_PER_MAIL {
                break;
            }
            tried += 1;
            if limits::paused_until(self.conn, userid, self.sender, 0, self.now)?.is_some() {
                continue;
            }
            if let Some(player) = players::by_userid(self.conn, userid)?
                && self.passwords.verify(&player, password)
            {
                return Ok(Some(player.id));
            }
        }
        Ok(None)
    }
}

/// Different userid/password pairs one mail may log in with. A player's
/// mail names one or two; each new pair costs an Argon2 check (about 15 ms),
/// and a hostile mail of thousands would cost minutes of processor time.
pub(super) const LOGINS_PER_MAIL: usize = 8;

/// The board named by the (unverified) reply token of a mail, for showing
/// the board in an error mail.
pub(super) fn token_board(mail: &Inbound, config: &ServiceConfig) -> Option<u32> {
    mail.recipients
        .iter()
        .find_map(|r| config.address.token_of(r))
        .and_then(|token| token.split('.').next())
        .and_then(|board| board.parse().ok())
        .filter(|board| *board != crate::mail::token::NOT_A_BOARD)
}
