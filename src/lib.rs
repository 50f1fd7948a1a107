//! subdual: a Monte Carlo balance simulator for non-lethal combat house rules (AD&D 2nd Edition).
//!
//! The crate is a pure rules core ([`rules`], on top of [`dice`]) that turns one trial into one outcome.
//!
//! ```
//! use rand_xoshiro::Xoshiro256PlusPlus;
//! use rand_xoshiro::rand_core::SeedableRng;
//! use subdual::rules::{Matchup, RuleOptions, mugging::Mugging};
//! use subdual::scenario::CombatantSpec;
//!
//! let thief: CombatantSpec = toml::from_str(
//!     "class = \"thief\"\nlevel = 9\nweapon = \"club\"\nposition = \"behind\"",
//! ).unwrap();
//! let ogre: CombatantSpec = toml::from_str("monster = \"ogre\"\naware = false").unwrap();
//! let matchup = Matchup {
//!     attacker: thief.resolve().unwrap(),
//!     victim: ogre.resolve().unwrap(),
//! };
//! let mugging = Mugging::prepare(&matchup, &RuleOptions::default()).unwrap();
//! assert_eq!(mugging.save.needed, 17); // the text's worked example
//!
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(7376);
//! let knockouts = (0..10_000).filter(|_| mugging.resolve(&mut rng).ko_rounds.is_some()).count();
//! assert!(knockouts > 0);
//! ```

pub mod cli;
pub mod dice;
pub mod digest;
pub mod engine;
pub mod explain;
pub mod export;
pub mod reference;
pub mod rules;
pub mod run;
pub mod scenario;
pub mod stats;
pub mod study;
pub mod suggest;
