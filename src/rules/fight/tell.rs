//! The words of a narrated fight (`subdual explain`): what each side is called, a fighter's state, a blow's
//! modifiers and what a face of the folded tables did.
//!
//! Why a file of phrases: the round says what happens with `narrate!` at the very line it happens, so the
//! story cannot drift from the rules; the phrases those steps share (a fighter's state, points in the fight's
//! unit, an ending) are said here once, for one on one and for sides alike. Nothing here is called unless a
//! roller narrates.

use crate::rules::attack::AttackRoll;
use crate::rules::fight::decide::{
    ARMED_BONUS, BlowKind, HELD, HELD_PENALTY, STUNNED_OR_PRONE_BONUS, Stand, TARGET_PRONE,
    TARGET_STUNNED,
};
use crate::rules::fight::fighter::{Fighter, KNOCKOUT_PENDING, PINNED};
use crate::rules::fight::fold::Face;
use crate::rules::fight::{Ending, FightOutcome, FightPlan};
use crate::rules::section::Terms;

/// `x` in the fight's `unit` as hit points: "7", or "3.25" in quarter points.
pub(super) fn points(x: i32, unit: i32) -> String {
    if x % unit == 0 {
        (x / unit).to_string()
    } else {
        format!("{}", f64::from(x) / f64::from(unit))
    }
}

/// `name` to begin a sentence.
pub(super) fn cap(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A fighter's state after a turn: hit points (and the temporary part of his damage), then down, knocked
/// out, stunned, prone, held or holding, as applies.
pub(super) fn state(name: &str, f: &Fighter, unit: i32, death_at: i32, round: u32) -> String {
    let hp = f.left + f.real + f.temporary;
    let mut words = format!("{name} {}/{} hp", points(f.left, unit), points(hp, unit));
    if f.temporary > 0 {
        words += &format!(" ({} temporary damage)", points(f.temporary, unit));
    }
    if f.dead(death_at) {
        words += ", dead";
    } else if f.down_at == PINNED && f.out_through == KNOCKOUT_PENDING {
        words += ", knocked out (for rounds rolled when the fight ends)";
    } else if f.down_at == PINNED && f.out_through != 0 {
        words += &format!(", knocked out through round {}", f.out_through);
    } else if f.down_at == PINNED {
        words += ", pinned";
    } else if f.down() {
        words += ", unconscious";
    } else if f.prone_since.is_some() {
        words += ", knocked down";
    }
    if f.stunned_through != 0 && f.stunned(round) && !f.down() {
        words += &format!(", stunned through round {}", f.stunned_through);
    }
    if f.held {
        words += ", held";
    }
    if f.holding > 0 {
        words += &format!(", holding his foe (round {} of the hold)", f.holding);
    }
    words
}

/// What a blow of `kind` does, as a verb: "punches", "swings at".
pub(super) fn verb(kind: BlowKind) -> &'static str {
    match kind {
        BlowKind::Idle => "stands idle against",
        BlowKind::Weapon { held_back: false } => "swings at",
        BlowKind::Weapon { held_back: true } => "swings, holding the blow back, at",
        BlowKind::Natural { held_back: false } => "attacks",
        BlowKind::Natural { held_back: true } => "attacks, holding back,",
        BlowKind::Punch => "punches",
        BlowKind::Wrestle => "wrestles",
        BlowKind::Overbear => "tries to overbear",
        BlowKind::MartialArts { .. } => "strikes (martial arts) at",
        BlowKind::Sap => "saps",
        BlowKind::Disarm => "grabs for the weapon of",
    }
}

/// The modifier of an attack roll struck with `kind` in `situation` from `stand` (its place and bonus), in
/// named terms: the blow's `own` (Strength, magic, the rule's penalty: [`crate::rules::fight::fold::own_terms`]),
/// then the armed man's bonus, a stunned or prone target, a hold and the place, from the rule's own
/// constants. A test holds their total to the folded roll's modifier.
pub(super) fn terms(
    kind: BlowKind,
    own: &Terms,
    situation: usize,
    armed_bonus: i32,
    stand: (Stand, i32),
) -> Terms {
    let armed = if situation & ARMED_BONUS != 0 {
        armed_bonus
    } else {
        0
    };
    let prone = situation & TARGET_PRONE != 0 && kind != BlowKind::Overbear;
    let open = if situation & TARGET_STUNNED != 0 || prone {
        STUNNED_OR_PRONE_BONUS
    } else {
        0
    };
    let held = if situation & HELD != 0 && kind != BlowKind::Wrestle {
        HELD_PENALTY
    } else {
        0
    };
    let place = match stand.0 {
        Stand::Front => "in front",
        Stand::Flank => "from the flank",
        Stand::Rear => "from the rear",
    };
    own.clone()
        .with("the armed man", armed)
        .with("a stunned or prone target", open)
        .with("held", held)
        .with(place, stand.1)
}

/// What a face of the folded tables did: a miss, or a hit and the row's damage, knockout chance and hold.
pub(super) fn face(
    kind: BlowKind,
    natural: usize,
    roll: &AttackRoll,
    face: &Face,
    unit: i32,
) -> String {
    if !face.hit {
        return format!("Natural {natural}: a miss");
    }
    let [real, temporary] = face.damage();
    let row = format!(
        "{} real and {} temporary damage",
        points(real, unit),
        points(temporary, unit)
    );
    let modified = natural as i32 + roll.modifier;
    match kind {
        BlowKind::Punch | BlowKind::MartialArts { .. } => format!(
            "Natural {natural}: a hit; the row of {modified} does {row}, with a {} % chance of a knockout",
            face.ko_percent
        ),
        BlowKind::Wrestle => format!(
            "Natural {natural}: a hit; the wrestling row of {modified} does {row}{}",
            if face.hold { " and is a hold" } else { "" }
        ),
        BlowKind::Idle
        | BlowKind::Weapon { .. }
        | BlowKind::Natural { .. }
        | BlowKind::Overbear
        | BlowKind::Sap
        | BlowKind::Disarm => format!("Natural {natural}: a hit"),
    }
}

impl FightPlan {
    /// What a narrated fight calls side `s`.
    pub(super) fn name(&self, s: usize) -> &str {
        &self.names[s]
    }

    /// The plan with its sides called `names` (a member's pair plan in a narrated fight of several).
    pub(super) fn named(&self, names: [String; 2]) -> FightPlan {
        FightPlan {
            names,
            ..self.clone()
        }
    }

    /// Both fighters' state after a turn of `round`.
    pub(super) fn tell_state(&self, f: &[Fighter; 2], round: u32) -> String {
        format!(
            "{}; {}.",
            state(self.name(0), &f[0], self.unit, self.death_at, round),
            state(self.name(1), &f[1], self.unit, self.death_at, round)
        )
    }

    /// How the fight ended, in words.
    pub(super) fn ending_words(&self, over: &FightOutcome) -> String {
        let fate = |s: usize| {
            if over.killed[s] {
                "dead".to_string()
            } else {
                match over.rounds_out {
                    Some(n) => format!("alive, down for {n} more rounds"),
                    None => "alive".to_string(),
                }
            }
        };
        let rounds = over.rounds;
        let mut words = match over.ending {
            Ending::AttackerWins if over.won_by_opening && rounds == 0 => format!(
                "{} wins by the opening, before the first round: {} is {}.",
                cap(self.name(0)),
                self.name(1),
                fate(1)
            ),
            Ending::AttackerWins => format!(
                "{} wins in round {rounds}: {} is {}.",
                cap(self.name(0)),
                self.name(1),
                fate(1)
            ),
            Ending::VictimWins => format!(
                "{} wins in round {rounds}: {} is {}.",
                cap(self.name(1)),
                self.name(0),
                fate(0)
            ),
            Ending::BothDown => format!("Both fall in round {rounds}."),
            Ending::Timeout => format!("Nobody falls within {rounds} rounds: a timeout."),
        };
        if over.ending == Ending::AttackerWins && self.bind_rounds > 0 && !over.killed[1] {
            words += &format!(
                " Tying him takes {} rounds: {}.",
                self.bind_rounds,
                if over.woke_before_bound {
                    "he wakes first"
                } else {
                    "he is taken alive"
                }
            );
        } else if over.taken_alive() {
            words += " He is taken alive.";
        }
        words
    }
}
