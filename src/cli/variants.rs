//! `pbem variants`: one line per variant, `<id>  <one-line description>`.

use super::CliError;
use crate::rules::Variant;

pub fn run() -> Result<(), CliError> {
    for variant in Variant::ALL {
        println!("{}  {}", variant.id(), variant.description());
    }
    Ok(())
}
