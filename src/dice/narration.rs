//! A trial told die by die: the [`Recording`] roller and the [`Narrator`] it writes to.
//!
//! `subdual explain` re-rolls one trial through the very resolvers a run uses, with this roller in place of
//! the engine's. It hands out the same faces as the roller it wraps and writes each one down; the rules,
//! which ask every roller whether it narrates ([`Roller::narrator`]), add in words what each die was for and
//! which rule they applied. Every other roller answers `None`, a constant the compiler folds away, so a run
//! pays nothing for the words it never writes. Why not a second, readable implementation of the rules for
//! the narration: it would drift from the one that makes the numbers; this way the story is the trial.
//!
//! A narrator is shared (an `Rc`), because a fight of several a side rolls each member's dice from his own
//! stream and all of them tell one story.

use std::cell::RefCell;
use std::rc::Rc;

use super::Roller;

/// Whose stream a die came from in a fight of several a side: (side, index on it), 0 the attackers.
pub type Who = (usize, usize);

/// One thing a narrated trial did, in the order it did it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A rule applied: what it did or is about to roll for, in words, and the section of docs/rules.md that
    /// states it.
    Step {
        /// The section, such as "§2 Mugging".
        rule: &'static str,
        /// What happened.
        text: String,
    },
    /// A die rolled.
    Die {
        /// Its sides.
        sides: u32,
        /// The face it showed.
        face: u32,
        /// The member whose stream rolled it (fights of several a side).
        #[serde(skip_serializing_if = "Option::is_none")]
        who: Option<Who>,
    },
    /// Where things stand after a side's turn (fights).
    State {
        /// The state, in words.
        text: String,
    },
}

/// Where a narrated trial writes its events; cloned, it writes to the same story.
#[derive(Debug, Clone, Default)]
pub struct Narrator(Rc<RefCell<Vec<Event>>>);

impl Narrator {
    /// A new, empty story.
    pub fn new() -> Narrator {
        Narrator::default()
    }

    /// Adds a step under a rule.
    pub fn step(&self, rule: &'static str, text: String) {
        self.0.borrow_mut().push(Event::Step { rule, text });
    }

    /// Adds a state line.
    pub fn state(&self, text: String) {
        self.0.borrow_mut().push(Event::State { text });
    }

    fn die(&self, sides: u32, face: u32, who: Option<Who>) {
        self.0.borrow_mut().push(Event::Die { sides, face, who });
    }

    /// The events so far.
    pub fn events(&self) -> Vec<Event> {
        self.0.borrow().clone()
    }
}

/// A roller that hands out the faces of the roller it wraps and writes each one down.
#[derive(Debug, Clone)]
pub struct Recording<R> {
    inner: R,
    narrator: Narrator,
    who: Option<Who>,
}

impl<R: Roller> Recording<R> {
    /// Records the dice of `inner` into `narrator`.
    pub fn new(inner: R, narrator: Narrator) -> Recording<R> {
        Recording {
            inner,
            narrator,
            who: None,
        }
    }

    /// Records the dice of member `who`'s stream.
    pub fn member(inner: R, narrator: Narrator, who: Who) -> Recording<R> {
        Recording {
            inner,
            narrator,
            who: Some(who),
        }
    }
}

impl<R: Roller> Roller for Recording<R> {
    fn die(&mut self, sides: u32) -> u32 {
        let face = self.inner.die(sides);
        self.narrator.die(sides, face, self.who);
        face
    }

    fn repeat_tie(&mut self) -> bool {
        self.inner.repeat_tie()
    }

    fn contest(&mut self, ties: &dyn Fn() -> u32) {
        self.inner.contest(ties)
    }

    fn seed_word(&mut self) -> u32 {
        self.inner.seed_word()
    }

    fn narrator(&self) -> Option<&Narrator> {
        Some(&self.narrator)
    }
}

/// Adds a step to the story when `$rng` narrates, and costs nothing otherwise: the words are formatted only
/// for a narrating roller.
///
/// ```text
/// narrate!(rng, Section::Mugging, "the save needs {}", needed);
/// ```
macro_rules! narrate {
    ($rng:expr, $section:expr, $($words:tt)+) => {
        if let Some(narrator) = $crate::dice::Roller::narrator(&*$rng) {
            narrator.step($section.cite(), format!($($words)+));
        }
    };
}
pub(crate) use narrate;

/// Adds a state line to the story when `$rng` narrates.
macro_rules! narrate_state {
    ($rng:expr, $($words:tt)+) => {
        if let Some(narrator) = $crate::dice::Roller::narrator(&*$rng) {
            narrator.state(format!($($words)+));
        }
    };
}
pub(crate) use narrate_state;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Pooled, Scripted};
    use rand_xoshiro::SplitMix64;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn a_recording_hands_out_the_faces_of_the_roller_it_wraps() {
        let plain: Vec<u32> = {
            let mut r = Pooled::new(SplitMix64::seed_from_u64(7));
            (0..50).map(|i| r.die(2 + i % 30)).collect()
        };
        let narrator = Narrator::new();
        let mut recording =
            Recording::new(Pooled::new(SplitMix64::seed_from_u64(7)), narrator.clone());
        let recorded: Vec<u32> = (0..50).map(|i| recording.die(2 + i % 30)).collect();
        assert_eq!(plain, recorded);
        let faces: Vec<u32> = narrator
            .events()
            .iter()
            .map(|e| match e {
                Event::Die { face, .. } => *face,
                Event::Step { .. } | Event::State { .. } => 0,
            })
            .collect();
        assert_eq!(faces, plain);
    }

    #[test]
    fn a_seed_word_is_the_same_draw_and_no_die_of_the_story() {
        let plain = Pooled::new(SplitMix64::seed_from_u64(9)).die(u32::MAX);
        let narrator = Narrator::new();
        let mut recording =
            Recording::new(Pooled::new(SplitMix64::seed_from_u64(9)), narrator.clone());
        assert_eq!(recording.seed_word(), plain);
        assert_eq!(narrator.events(), vec![]);
    }

    #[test]
    fn only_a_recording_narrates() {
        let script = Scripted::new([1]);
        assert!(script.narrator().is_none());
        let recording = Recording::new(Scripted::new([1]), Narrator::new());
        assert!(recording.narrator().is_some());
    }

    #[test]
    fn members_share_one_story() {
        let narrator = Narrator::new();
        let mut a = Recording::member(Scripted::new([3]), narrator.clone(), (0, 1));
        let mut b = Recording::member(Scripted::new([5]), narrator.clone(), (1, 0));
        narrator.step("§1 Core procedures", "first".into());
        a.die(6);
        b.die(8);
        narrator.state("both rolled".into());
        assert_eq!(
            narrator.events(),
            vec![
                Event::Step {
                    rule: "§1 Core procedures",
                    text: "first".into()
                },
                Event::Die {
                    sides: 6,
                    face: 3,
                    who: Some((0, 1))
                },
                Event::Die {
                    sides: 8,
                    face: 5,
                    who: Some((1, 0))
                },
                Event::State {
                    text: "both rolled".into()
                },
            ]
        );
    }
}
