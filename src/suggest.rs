//! "Did you mean ...?" for misspelt keys and catalog names: the closest candidate by edit distance, when it
//! is close enough to be a plausible typo rather than a different word.

/// The candidate closest to `word` by Levenshtein distance (ignoring case), if the distance is at most a
/// third of the word's length (and at least 1 edit is allowed for short words).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let allowed = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (distance(&word, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance over characters, counting a swap of two neighbours as one edit (optimal string
/// alignment): "orge" is one typo away from "ogre".
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (i, row) in d.chunks_mut(width).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_word() {
        let keys = ["strength", "dexterity", "level", "weapon"];
        assert_eq!(closest("strenght", keys), Some("strength"));
        assert_eq!(closest("levle", keys), Some("level"));
        assert_eq!(closest("Weapon", keys), Some("weapon"));
    }

    #[test]
    fn an_unrelated_word_finds_nothing() {
        assert_eq!(closest("banana", ["strength", "level"]), None);
        assert_eq!(closest("", ["level"]), None);
    }

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("same", "same"), 0);
        assert_eq!(distance("orge", "ogre"), 1);
    }
}
