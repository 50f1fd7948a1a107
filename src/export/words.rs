//! How numbers are written for people, so a chart's caption and the report beside it say a count or a
//! confidence the same way.

/// A count with its thousands separated: `200,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A confidence level as a percentage: `95%`, `99.5%`.
pub fn confidence(level: f64) -> String {
    format!("{}%", trim((level * 100.0 * 1000.0).round() / 1000.0))
}

/// A number without a needless fraction, at most three decimals: `3`, `2.5`, `0.125`.
pub fn trim(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_people_write_them() {
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(0), "0");
        assert_eq!(confidence(0.95), "95%");
        assert_eq!(confidence(0.995), "99.5%");
        assert_eq!(confidence(0.9995), "99.95%");
        assert_eq!(trim(3.0), "3");
        assert_eq!(trim(2.5), "2.5");
        assert_eq!(trim(0.1254), "0.125");
        assert_eq!(trim(-1.10), "-1.1");
    }
}
