//! The sections of docs/rules.md a narrated trial cites (`subdual explain`), one variant per section, so a
//! step names the rule behind it in words a reader can look up, and a test holds every citation to a heading
//! of the document.

/// A section of docs/rules.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// §1: attack rolls, saves, Strength, armor class, hit points, initiative.
    Core,
    /// §2: the mugging.
    Mugging,
    /// §3: a blow held back (`strike`).
    HoldingBack,
    /// §3: the armed defender's free blows.
    ArmedDefender,
    /// §4: the sap.
    Sap,
    /// §5: the grab.
    Grab,
    /// §6: punching, wrestling, overbearing and the round of a fight.
    Fights,
    /// §6: several combatants a side.
    Sides,
}

impl Section {
    /// Every section.
    pub const ALL: [Section; 8] = [
        Section::Core,
        Section::Mugging,
        Section::HoldingBack,
        Section::ArmedDefender,
        Section::Sap,
        Section::Grab,
        Section::Fights,
        Section::Sides,
    ];

    /// How a narration cites it: the section's number and its heading.
    pub const fn cite(self) -> &'static str {
        match self {
            Section::Core => "§1 Core procedures",
            Section::Mugging => "§2 Mugging",
            Section::HoldingBack => "§3 Holding a blow back",
            Section::ArmedDefender => "§3 The armed defender",
            Section::Sap => "§4 Sap",
            Section::Grab => "§5 Grab",
            Section::Fights => "§6 Punching, wrestling, overbearing and fights",
            Section::Sides => "§6 Several combatants a side",
        }
    }
}

/// The named terms of a number (a to-hit modifier, a save's target), so a narration can say where each
/// part came from. The rule sums the same terms it names: there is no second account of a modifier.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Terms(Vec<(&'static str, i32)>);

impl Terms {
    /// No term yet.
    pub fn new() -> Terms {
        Terms::default()
    }

    /// Adds a term.
    pub fn with(mut self, name: &'static str, value: i32) -> Terms {
        self.0.push((name, value));
        self
    }

    /// The sum of the terms.
    pub fn total(&self) -> i32 {
        self.0.iter().map(|&(_, v)| v).sum()
    }

    /// The terms in words, signed, leaving out the zeros: "+4 mugging, -1 Strength" ("none" when all are 0).
    pub fn words(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .filter(|&&(_, v)| v != 0)
            .map(|&(name, v)| format!("{v:+} {name}"))
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_citation_is_a_heading_of_the_rules_document() {
        let rules = include_str!("../../docs/rules.md");
        let headings: Vec<String> = rules
            .lines()
            .filter(|l| l.starts_with("## ") || l.starts_with("### "))
            .map(|l| l.trim_start_matches('#').trim().to_string())
            .collect();
        for section in Section::ALL {
            let (number, title) = section.cite()[2..].split_once(' ').unwrap();
            let top = format!("{number}. {title}");
            let found = headings
                .iter()
                .any(|h| *h == top || h.starts_with(&format!("{title} ")) || *h == title);
            assert!(
                found,
                "{} is not a heading of docs/rules.md",
                section.cite()
            );
        }
    }

    #[test]
    fn terms_sum_and_name_their_parts() {
        let t = Terms::new()
            .with("mugging", 4)
            .with("Strength", -1)
            .with("magic", 0);
        assert_eq!(t.total(), 3);
        assert_eq!(t.words(), "+4 mugging, -1 Strength");
        assert_eq!(Terms::new().with("magic", 0).words(), "none");
    }
}
