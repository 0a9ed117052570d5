//! The act of every mail command, one file each (`commands/<name>.rs`,
//! beside its definition and parser in `command/<name>.rs`): each
//! implements [`Act`] for its command's type, and the dispatch below is
//! generated from the one list of commands (`command::for_each_command`),
//! so that the compiler asks for the act of every command on the list.
//!
//! What more than one act needs lives below the commands: the board
//! commands' common steps in `service::play`, the account commands' in
//! `service::account`, who speaks in `service::auth`.

// One module per command, declared from the one list.
for_each_command!(declare_homes, pub(super));

use super::{Failure, MailCtx, refuse};
use crate::command::{Command, Line, declare_homes, for_each_command};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::store::boards;

/// What a line asks besides its command: the variant written before the
/// command word, and the mail's verified reply token.
#[derive(Clone, Copy, Debug)]
pub(super) struct Asked {
    /// `chess2 challenge ...`: the variant the line names.
    pub(super) variant: Option<Variant>,
    /// The board and player the mail's reply token names, verified.
    pub(super) token: Option<(BoardNumber, PlayerId)>,
}

/// The act of a command: what it changes (in the mail's transaction, in
/// a savepoint of its own) and the mails it answers with. A refusal
/// changes nothing.
pub(super) trait Act {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure>;
}

/// The dispatch over every command of the list.
macro_rules! dispatch {
    ($($variant:ident($module:ident::$ty:ident)),* $(,)?) => {
        /// Runs `command` with what its line asked besides.
        fn act_on(
            command: &Command,
            ctx: &mut MailCtx<'_>,
            asked: Asked,
        ) -> Result<Vec<Outgoing>, Failure> {
            match command {
                $(Command::$variant(command) => command.act(ctx, asked)),*
            }
        }
    };
}

for_each_command!(dispatch);

/// Runs one command line: a variant written before the command must be
/// the board's, then the command acts.
pub(super) fn run(
    ctx: &mut MailCtx<'_>,
    line: &Line,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    if let (Some(variant), Some(number)) = (line.variant, line.command.board())
        && let Some(board) = boards::get(ctx.conn, BoardNumber(number))?
        && board.variant != variant
    {
        return Err(refuse(
            format!(
                "board {number} plays {}, not {}",
                board.variant.display_name(),
                variant.display_name()
            ),
            Some(BoardNumber(number)),
        ));
    }
    let asked = Asked {
        variant: line.variant,
        token,
    };
    act_on(&line.command, ctx, asked)
}
