//! Numbers as people type them into the editors' fields: whole numbers (tensor dims, mesh dims, devices per
//! node) and decimals (bandwidths, latency).
//!
//! A field keeps its text while it does not parse, and shows the message returned here under it; so every
//! refusal says what was typed and what was expected. A comma is read only as a thousands separator
//! (`4,096`): anything else with one (`2,4`) is refused, since quietly dropping it made `2,4` read as 24.

use std::num::IntErrorKind;

/// Reads a whole number as typed: `4096`, `4,096`, `4_096`, `-3`, and `1e3` or `4096.0` where whole (as the
/// cycle's fields take them). Says what was wrong otherwise.
pub fn read_whole_number(text: &str) -> Result<i64, String> {
    let typed = text.trim();
    if typed.is_empty() {
        return Err("empty: expected a whole number".into());
    }
    if typed.contains(',') && !groups_thousands(typed) {
        return Err(format!("`{typed}` is not a whole number: a comma may only group thousands, as in 4,096"));
    }
    let digits = typed.replace([',', '_'], "");
    digits.parse::<i64>().or_else(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => Err(format!("`{typed}` is too large")),
        _ => match digits.parse::<f64>() {
            Ok(n) if underflows(typed, n) => Err(format!("`{typed}` is not a whole number")),
            Ok(n) if n.fract() == 0.0 && n.abs() < 9e15 => Ok(n as i64),
            Ok(n) if n.is_finite() && n.fract() == 0.0 => Err(format!("`{typed}` is too large")),
            _ => Err(format!("`{typed}` is not a whole number")),
        },
    })
}

/// Whether every comma in `typed` separates groups of thousands: one to three digits, then groups of
/// exactly three (`-1,024`, `12,345,678`), with no other character among them.
fn groups_thousands(typed: &str) -> bool {
    let unsigned = typed.strip_prefix(['-', '+']).unwrap_or(typed);
    let mut groups = unsigned.split(',');
    let first = groups.next().unwrap_or("");
    let digits = |group: &str| group.bytes().all(|b| b.is_ascii_digit());
    (1..=3).contains(&first.len()) && digits(first) && groups.all(|group| group.len() == 3 && digits(group))
}

/// Reads a decimal number as typed (`400`, `12.5`, `1e-6`), or says what was expected. Only finite numbers
/// come back; Rust's words `inf` and `NaN` are not numbers here.
pub fn read_decimal(text: &str) -> Result<f64, String> {
    let typed = text.trim();
    if typed.is_empty() {
        return Err("empty: expected a number".into());
    }
    match typed.parse::<f64>() {
        Ok(v) if underflows(typed, v) => Err(format!("`{typed}` is too small to tell from 0")),
        Ok(v) if v.is_finite() => Ok(v),
        // `1e400` reads as infinity: a number, only too large for any range (as `1e308` is told).
        Ok(v) if v.is_infinite() && !typed.to_ascii_lowercase().contains("inf") => {
            Err(format!("`{typed}` is too large"))
        }
        _ => Err(format!("`{typed}` is not a number")),
    }
}

/// Whether `value`, read from `typed`, is 0 only because it is too small for a float (`1e-400`): the field
/// then quoted "0" for what was typed, and measured seconds took it as 0 s.
pub fn underflows(typed: &str, value: f64) -> bool {
    value == 0.0
        && typed.split(['e', 'E']).next().is_some_and(|mantissa| mantissa.bytes().any(|b| matches!(b, b'1'..=b'9')))
}

/// What ↑ (`delta` 1) or ↓ (-1) makes of a whole-number field holding `text`, within `min..=max`: its number
/// stepped; for a number the field cannot hold (past the range, too large to read, a fraction) the next
/// whole number that way, kept inside the range (stepping from the last valid value had made
/// `99999999999999999999` into `1002`); `None` for text that is no number (`11x`), which the field steps
/// from its last valid value.
pub fn stepped(text: &str, delta: i64, min: i64, max: i64) -> Option<i64> {
    if let Ok(value) = read_whole_number(text) {
        return Some(value.saturating_add(delta).clamp(min, max));
    }
    let number = text.trim().replace([',', '_'], "").parse::<f64>().ok().filter(|n| n.is_finite())?;
    let next = if delta > 0 { number.floor() } else { number.ceil() } + delta as f64;
    Some(next.clamp(min as f64, max as f64) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_keeps_to_the_range_and_leaves_text_that_is_no_number() {
        assert_eq!(stepped("4", 1, 1, 8), Some(5));
        assert_eq!(stepped("8", 1, 1, 8), Some(8));
        assert_eq!(stepped("4,096", -1, 1, 65_536), Some(4_095));
        assert_eq!(stepped("99999999999999999999", 1, 1, 65_536), Some(65_536), "too large to read");
        assert_eq!(stepped("99999999999999999999", -1, 1, 65_536), Some(65_536));
        assert_eq!(stepped("-5", 1, 1, 8), Some(1));
        assert_eq!(stepped("2.5", 1, 1, 8), Some(3));
        assert_eq!(stepped("2.5", -1, 1, 8), Some(2));
        assert_eq!(stepped("abc", 1, 1, 8), None);
        assert_eq!(stepped("", 1, 1, 8), None);
    }
    use proptest::prelude::*;

    #[test]
    fn a_number_too_small_for_a_float_is_not_read_as_0() {
        assert_eq!(read_whole_number("1e-400"), Err("`1e-400` is not a whole number".to_string()));
        assert_eq!(read_decimal("1e-400"), Err("`1e-400` is too small to tell from 0".to_string()));
        assert_eq!(read_decimal("0e5"), Ok(0.0));
        assert_eq!(read_decimal("-0.000"), Ok(-0.0));
        assert_eq!(read_whole_number("0"), Ok(0));
    }

    #[test]
    fn a_comma_groups_thousands_and_nothing_else() {
        // "2,4" typed into a mesh dim read as 24 devices, with no word.
        assert_eq!(read_whole_number("4,096"), Ok(4096));
        assert_eq!(read_whole_number(" -1,024 "), Ok(-1024));
        assert_eq!(read_whole_number("12,345,678"), Ok(12_345_678));
        for typed in ["2,4", "1,5", "4096,", ",4096", "1,00", "1234,567", "4,096,0", "1,2.5", "4,0_96"] {
            let why = read_whole_number(typed).unwrap_err();
            assert!(why.contains(typed) && why.contains("thousands"), "{typed}: {why}");
        }
    }

    #[test]
    fn whole_numbers_in_the_forms_people_type_them() {
        assert_eq!(read_whole_number("4_096"), Ok(4096));
        assert_eq!(read_whole_number("1e3"), Ok(1000));
        assert_eq!(read_whole_number("4096.0"), Ok(4096));
        assert_eq!(read_whole_number(""), Err("empty: expected a whole number".into()));
        assert_eq!(read_whole_number("2.5"), Err("`2.5` is not a whole number".into()));
        assert_eq!(read_whole_number("99999999999999999999"), Err("`99999999999999999999` is too large".into()));
        assert_eq!(read_whole_number("1e300"), Err("`1e300` is too large".into()));
        assert!(read_whole_number("NaN").is_err() && read_whole_number("inf").is_err());
    }

    #[test]
    fn decimals_are_finite_or_refused_with_what_was_typed() {
        assert_eq!(read_decimal(" 12.5 "), Ok(12.5));
        assert_eq!(read_decimal("1e-6"), Ok(1e-6));
        assert_eq!(read_decimal("1e400"), Err("`1e400` is too large".into()));
        assert_eq!(read_decimal("inf"), Err("`inf` is not a number".into()));
        assert_eq!(read_decimal("NaN"), Err("`NaN` is not a number".into()));
        assert_eq!(read_decimal(""), Err("empty: expected a number".into()));
    }

    proptest! {
        #[test]
        fn a_number_written_with_thousands_commas_reads_as_itself(n in any::<i64>()) {
            let plain = n.unsigned_abs().to_string();
            let mut grouped = String::new();
            for (i, digit) in plain.chars().enumerate() {
                if i > 0 && (plain.len() - i) % 3 == 0 {
                    grouped.push(',');
                }
                grouped.push(digit);
            }
            let typed = if n < 0 { format!("-{grouped}") } else { grouped };
            prop_assert_eq!(read_whole_number(&typed), Ok(n));
            prop_assert_eq!(read_whole_number(&n.to_string()), Ok(n));
        }

        #[test]
        fn any_text_is_read_or_refused_never_a_panic(typed in "\\PC{0,24}") {
            let _ = read_whole_number(&typed);
            let _ = read_decimal(&typed);
        }
    }
}
