//! `[action_options]` as a scenario writes it, every option optional, and its resolution into the rules'
//! [`ActionOptions`]. Which action reads which option is the rules' ([`Action::options_used`]); the ranges are
//! checked where each value is written (the file and its sweeps).

use serde::Deserialize;

#[cfg(doc)]
use crate::rules::action::Action;
use crate::rules::action::ActionOptions;
use crate::rules::fight::{Intent, Opening, Style, Then};
use crate::rules::grab::Hands;
use crate::rules::{Key, Unit, keys};

/// `[action_options]` as a scenario writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionOptionsSpec {
    /// Hands on the victim in a grab of a person or monster: 1 (a called shot at −4, Strength three less) or
    /// 2 (default).
    #[schemars(range(min = 1, max = 2))]
    pub hands: Option<u32>,
    /// What the brawler does every round (default punch); in `subdue`, only a bare-handed subduer uses it.
    pub style: Option<Style>,
    /// Rounds before a fight is a timeout (default 100).
    #[schemars(range(min = 1, max = 10_000))]
    pub max_rounds: Option<u32>,
    /// How the victim of a fight answers: at full force (default) or holding back too.
    pub victim_intent: Option<Intent>,
    /// A mugging or a sap before round 1, while the victim is unaware (default none).
    pub opening: Option<Opening>,
    /// With `style = "disarm"`: what the attacker fights with once he holds the victim's weapon (default
    /// punch).
    pub then: Option<Then>,
    /// Rounds the winner of a fight needs to tie up his downed victim, who may wake meanwhile (default 0).
    #[schemars(range(min = 0, max = 10_000))]
    pub bind_rounds: Option<u32>,
}

impl ActionOptionsSpec {
    /// Every key with its name on charts.
    pub const KEYS: [Key; 7] = [
        Key::new("hands", "hands on the victim", Unit::None),
        Key::new("style", "fighting style", Unit::None),
        Key::new("max_rounds", "round limit", Unit::Rounds),
        Key::new("victim_intent", "the victim's intent", Unit::None),
        Key::new("opening", "opening", Unit::None),
        Key::new("then", "style once disarmed", Unit::None),
        Key::new("bind_rounds", "rounds to tie him up", Unit::Rounds),
    ];

    /// Every key, for suggestions.
    pub const FIELDS: [&'static str; 7] = keys(&ActionOptionsSpec::KEYS);

    /// The options with their defaults filled in (hands 2, punch, 100 rounds, lethal). Ranges are checked
    /// by the scenario layer where each value is written.
    pub fn resolve(&self) -> ActionOptions {
        let defaults = ActionOptions::default();
        ActionOptions {
            hands: if self.hands == Some(1) {
                Hands::One
            } else {
                Hands::Two
            },
            style: self.style.unwrap_or(defaults.style),
            max_rounds: self.max_rounds.unwrap_or(defaults.max_rounds),
            victim_intent: self.victim_intent.unwrap_or(defaults.victim_intent),
            opening: self.opening,
            then: self.then.unwrap_or_default(),
            bind_rounds: self.bind_rounds.unwrap_or(defaults.bind_rounds),
        }
    }
}
