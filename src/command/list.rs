//! The one list of mail commands. Each line names a command's variant and
//! the type its home (`command/<name>.rs`) defines; [`Word`], [`Command`]
//! and every dispatch over them are generated from this list, here and in
//! the service (`service::commands`), so that adding a command is its two
//! homes and one line below. The order is the order `help` lists them in.

// The command modules (and the types the generated code names) by glob,
// so that a new command is one line of the list.
use super::*;

/// Calls `$callback!` with the list: `Variant(module::Type), ...`. The
/// modules are the commands' homes, declared from this list too
/// (`declare_homes!`), here and in `service::commands`.
macro_rules! for_each_command {
    ($callback:ident $(, $($before:tt)*)?) => {
        $callback! {
            $($($before)*,)?
            Signup(signup::Signup),
            Confirm(confirm::Confirm),
            Password(password::Password),
            Address(address::SetAddresses),
            Help(help::HelpTopic),
            Games(games::Games),
            Challenge(challenge::Challenge),
            Move(r#move::MoveTurn),
            Show(show::Show),
            History(history::History),
            Pgn(pgn::Pgn),
            Resign(resign::Resign),
            Draw(draw::Draw),
            Accept(accept::Accept),
            Reject(reject::Reject),
            Undo(undo::Undo),
            Decline(decline::Decline),
            Queue(queue::Queue),
            If(r#if::If),
            Note(note::Note),
            Subscribe(subscribe::Subscribe),
            Unsubscribe(unsubscribe::Unsubscribe),
            Chat(chat::Chat),
            Extend(extend::Extend),
            Vacation(vacation::Vacation),
            Ratings(ratings::Ratings),
            Openings(openings::Openings),
            Rating(rating::Rating),
            Set(set::SetPreference),
            Settings(settings::Settings),
            Tournament(tournament::Tournament),
            Tournaments(tournaments::Tournaments),
            Ladder(ladder::Ladder),
            Ladders(ladders::Ladders),
        }
    };
}
pub(crate) use for_each_command;

/// Declares the module of each command of the list, in the module that
/// calls it, with the visibility given first (`pub` for the commands'
/// types, `pub(super)` for their acts).
macro_rules! declare_homes {
    ($vis:vis, $($variant:ident($module:ident::$ty:ident)),* $(,)?) => {
        $($vis mod $module;)*
    };
}
pub(crate) use declare_homes;

/// Generates the word list, the command enum and their dispatch.
macro_rules! generate {
    ($($variant:ident($module:ident::$ty:ident)),* $(,)?) => {
        /// Every command word (aliases are spellings of one word).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Word {
            $($variant),*
        }

        /// One command of the mail language.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Command {
            $($variant($module::$ty)),*
        }

        /// How many commands there are.
        const COUNT: usize = [$(stringify!($variant)),*].len();

        impl Word {
            /// Every word, in the order `help` lists them.
            pub const ALL: [Word; COUNT] = [$(Word::$variant),*];

            /// The command's definition, as its home states it.
            pub const fn definition(self) -> Definition {
                match self {
                    $(Word::$variant => <$module::$ty as MailCommand>::DEFINITION),*
                }
            }

            /// The command of this word, read from the words after it
            /// (`keyword` as written); `None` when they are prose.
            pub(super) fn parse(
                self,
                keyword: &str,
                args: &[&str],
            ) -> Option<Result<Command, CommandError>> {
                match self {
                    $(Word::$variant => {
                        if self.is_prose(args) {
                            return None;
                        }
                        Some(<$module::$ty as MailCommand>::parse(keyword, args).map(Command::$variant))
                    })*
                }
            }

            /// Whether the words after this word are prose rather than
            /// the command (`If you agree, ...`, `Note that ...`).
            pub fn is_prose(self, args: &[&str]) -> bool {
                match self {
                    $(Word::$variant => <$module::$ty as MailCommand>::is_prose(args)),*
                }
            }

            /// The command of this word in its short reply form on `board`
            /// (the words after it are `rest`), if it has one.
            pub fn in_reply(self, rest: &str, board: u32) -> Option<Command> {
                match self {
                    $(Word::$variant => <$module::$ty as MailCommand>::in_reply(rest, board).map(Command::$variant)),*
                }
            }
        }

        impl Command {
            /// The command word of the command.
            pub fn word(&self) -> Word {
                match self {
                    $(Command::$variant(_) => Word::$variant),*
                }
            }

            /// The board the command is about, if any (0 in a reply form:
            /// the reply's board).
            pub fn board(&self) -> Option<u32> {
                match self {
                    $(Command::$variant(command) => command.board()),*
                }
            }

            /// Who speaks for the command, if it needs a speaker.
            pub fn speaker(&self) -> Option<&Speaker> {
                match self {
                    $(Command::$variant(command) => command.speaker()),*
                }
            }

            /// Passwords the command carries besides its login's.
            fn passwords_besides(&self) -> Vec<&str> {
                match self {
                    $(Command::$variant(command) => command.passwords_besides()),*
                }
            }
        }
    };
}

for_each_command!(generate);

impl Command {
    /// The userid and password the command logs in with, if any.
    pub fn credentials(&self) -> Option<(&str, &str)> {
        self.speaker().and_then(Speaker::credentials)
    }

    /// Passwords the line carries, to blank when quoting it back: the
    /// login's, and those a command carries besides (a signup's, a new
    /// password).
    pub fn passwords(&self) -> Vec<&str> {
        self.credentials()
            .map(|(_, password)| password)
            .into_iter()
            .chain(self.passwords_besides())
            .collect()
    }
}
