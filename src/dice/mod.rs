//! Dice: the one source of chance in the simulator.
//!
//! Every random draw of a simulated fight goes through the [`Roller`] trait, one fair die at a time.
//! Funnelling all chance through a single narrow door is what makes the rest of the crate testable
//! and analysable:
//!
//! * a real run uses any `rand_core` generator (the crate uses `Xoshiro256PlusPlus`), which is a
//!   [`Roller`] through an unbiased, allocation-free blanket implementation;
//! * a unit test uses [`Scripted`] to choose every face, so each branch of a combat resolver can be
//!   driven exactly and the dice it asked for can be checked;
//! * an exact enumerator can walk every face of every die with its probability instead of sampling.
//!
//! [`Dice`] is the validated `NdS+B` notation of the rules ("1d8", "2d4+2", "1d6-1"). It parses
//! from text with errors that tell a user what was expected, prints back in canonical form, travels
//! through serde as that same string, and knows its exact distribution so that Monte Carlo results
//! can be checked against the truth.
//!
//! One file per concept: `notation` is the expression itself (bounds, parse, print, serde),
//! `distribution` its exact distribution, `roller` the trait and the generators behind it,
//! `enumerator` the exact walk, `narration` the recording roller of `subdual explain`, and `scripted` the
//! test roller. Everything is re-exported here, so
//! the crate names `crate::dice::X` whatever file `X` lives in.

mod distribution;
mod enumerator;
mod narration;
mod notation;
mod roller;
mod scripted;

pub use enumerator::{Enumerator, Paths, Walk};
pub use narration::{Event, Narrator, Recording, Who};
pub(crate) use narration::{narrate, narrate_state};
pub use notation::{Dice, DiceError, MAX_BONUS, MAX_COUNT, MAX_SIDES};
pub use roller::{Pooled, Roller};
pub use scripted::Scripted;

#[cfg(test)]
mod tests {
    use super::Dice;

    /// Dice a test knows to be good notation.
    pub(super) fn dice(text: &str) -> Dice {
        match text.parse() {
            Ok(dice) => dice,
            Err(error) => panic!("{text:?} should parse: {error}"),
        }
    }
}
