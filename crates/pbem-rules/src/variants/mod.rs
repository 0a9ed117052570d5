//! The variants, one file per family, and the lookup from [`Variant`] to
//! their rules and help texts.

mod chess;
mod doublemove;
mod doublestep;
mod extramove;
mod marseillais;
mod twinmove;
mod twomove;

use doublestep::{Doublestep, SecondStep};
use twinmove::{PawnMove, Twinmove};

use super::variant::{Rules, Variant};

pub(super) fn rules(variant: Variant) -> &'static dyn Rules {
    match variant {
        Variant::Chess => &chess::Chess { chess960: false },
        Variant::Chess960 => &chess::Chess { chess960: true },
        Variant::Chess2 => &twomove::Chess2,
        Variant::TwoMove => &twomove::TwoMove,
        Variant::Marseillais => &marseillais::Marseillais { balanced: false },
        Variant::BalancedMarseillais => &marseillais::Marseillais { balanced: true },
        Variant::Doublemove => &doublemove::Doublemove { classic: false },
        Variant::DoublemoveClassic => &doublemove::Doublemove { classic: true },
        Variant::Extramove => &extramove::Extramove,
        Variant::Twinmove => &Twinmove {
            pawn_move: PawnMove::Compulsory,
        },
        Variant::TwinmoveFree => &Twinmove {
            pawn_move: PawnMove::Optional,
        },
        Variant::Doublestep => &Doublestep {
            second_step: SecondStep::Quiet,
        },
        Variant::Doubletime => &Doublestep {
            second_step: SecondStep::MayCapture,
        },
    }
}

pub(super) fn help(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => chess::HELP,
        Variant::Chess960 => chess::HELP_CHESS960,
        Variant::Chess2 => twomove::HELP_CHESS2,
        Variant::TwoMove => twomove::HELP_TWOMOVE,
        Variant::Marseillais => marseillais::HELP,
        Variant::BalancedMarseillais => marseillais::HELP_BALANCED,
        Variant::Doublemove => doublemove::HELP,
        Variant::DoublemoveClassic => doublemove::HELP_CLASSIC,
        Variant::Extramove => extramove::HELP,
        Variant::Twinmove => twinmove::HELP,
        Variant::TwinmoveFree => twinmove::HELP_FREE,
        Variant::Doublestep => doublestep::HELP,
        Variant::Doubletime => doublestep::HELP_DOUBLETIME,
    }
}
