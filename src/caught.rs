//! What a caught panic says. pbem catches a panic where one mail, one
//! reply or one board of the sweep is handled (a bug must cost that item,
//! never the server); this turns the panic's payload into text for the log
//! and the answer.

use std::any::Any;

/// What a panic said: its message when it has one.
pub fn panic_text(payload: &(dyn Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "a panic without a message"
    }
}
