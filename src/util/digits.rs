//! Numbers written for people: `1234567` → `1,234,567` (Python's `{:,}`, which Hermes's
//! messages use, so texts that must match Hermes's come out the same).

/// `n` with a comma between each group of three digits.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn groups_of_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(15_000), "15,000");
        assert_eq!(thousands(2_000_000), "2,000,000");
    }
}
