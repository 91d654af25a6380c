//! Numbers as the cycle view writes them: seconds, multipliers and percents with fixed decimals and no
//! trailing zeros, so the article's `112.5 s`, `1.067×` and `6.25 %` read exactly as printed.

/// `value` with at most `decimals` decimals and no trailing zeros (`112.5`, `10`, `0.0833`). A value that
/// is not 0 but would round to 0 keeps two significant digits in scientific notation, so it never reads as
/// nothing; a non-finite value is written as `—`.
pub fn decimal(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = format!("{:.decimals$}", half_away(value, decimals));
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    match text.as_str() {
        "0" | "-0" if value != 0.0 => format!("{value:.1e}"),
        "-0" => "0".into(),
        _ => text,
    }
}

/// `value` rounded to `decimals` decimals with halves away from zero, as people round (3.125 % reads
/// 3.13 %; the formatter alone rounds a half to even, 3.12 %); unchanged where scaling it would lose digits.
pub fn half_away(value: f64, decimals: usize) -> f64 {
    let scale = 10f64.powi(decimals.min(15) as i32);
    if (value * scale).abs() < 1e15 { (value * scale).round() / scale } else { value }
}

/// Seconds to the millisecond: `112.5 s`, `10,110 s` (grouped as the answer's sentence groups them: a card
/// read "10110 s" beside it, review 50).
pub fn seconds(value: f64) -> String {
    format!("{} s", crate::core::traffic::grouped_digits(&decimal(value, 3)))
}

/// A multiplier to three decimals (`1.067×`), with more when three would round a value that is not 1 to
/// `1×`: a 1.0004× speedup must not read as no change.
pub fn times(value: f64) -> String {
    format!("{}×", crate::core::traffic::grouped_digits(&decimal_short_of(value, 3, 1.0)))
}

/// A percent to two decimals (`6.25 %`, `23.44 %`), with more when two would round a value that is not 100
/// to 100: a refit 10⁶× faster is 99.9999 % shorter, and "100 % less" said it took no time at all.
pub fn percent(value: f64) -> String {
    format!("{} %", crate::core::traffic::grouped_digits(&decimal_short_of(value, 2, 100.0)))
}

/// `value` to `decimals` decimals, or to more (up to nine) while those would write a value that is not
/// `landmark` as `landmark` itself.
fn decimal_short_of(value: f64, decimals: usize, landmark: f64) -> String {
    let shown = decimal(landmark, 0);
    (decimals..=9)
        .map(|d| decimal(value, d))
        .find(|text| *text != shown || value == landmark)
        .unwrap_or_else(|| decimal(value, 9))
}

/// `text` as a sentence starts it: the core's messages begin in lower case ("the check would hold …"), and
/// "link copied" is "Link copied" on its own. ASCII only: Unicode's case tables cost the web build some
/// kilobytes for our own words.
pub fn sentence_case(text: &str) -> String {
    let mut letters = text.chars();
    letters.next().map_or(String::new(), |first| format!("{}{}", first.to_ascii_uppercase(), letters.as_str()))
}

/// `text` with its spaces made no-break, for a number and its unit on a page: a narrow column broke
/// "112.5 / s" and "(15 / % less)". Only for the page: the CLI and exported text keep plain spaces.
pub fn unbroken(text: String) -> String {
    text.replace(' ', "\u{a0}")
}

/// `text` with the space between a number and its unit made no-break (`6.25 %`, `256 B`, `1.28 ns`, and
/// both sides of the `×` in `4 × 2`), the other spaces left to wrap: a sentence on the page broke "(6.25 /
/// % less time)" at 1,024 px. Units are the ones the app writes; a word after a number ("6 pieces") may
/// still wrap. Only for the page: the CLI and exported text keep plain spaces.
pub fn units_kept(text: &str) -> String {
    const UNITS: [&str; 14] = ["B", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "s", "ms", "µs", "ns", "%", "×"];
    let mut out = String::with_capacity(text.len() + 8);
    let mut previous: Option<char> = None;
    for (at, c) in text.char_indices() {
        let rest = &text[at + c.len_utf8()..];
        let unit_follows = || {
            UNITS.iter().any(|unit| {
                rest.strip_prefix(unit).is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric()))
            })
        };
        let keep = c == ' '
            && (previous.is_some_and(|p| p.is_ascii_digit()) && unit_follows()
                || previous == Some('×') && rest.starts_with(|c: char| c.is_ascii_digit()));
        out.push(if keep { '\u{a0}' } else { c });
        previous = Some(c);
    }
    out
}

/// `share` as a unit fraction when it is one (`1/12` for 10 s of a 120 s cycle, the article's "one
/// twelfth"), else `None`. Denominators up to 100.
pub fn unit_fraction(share: f64) -> Option<String> {
    if !(share > 0.0 && share <= 0.5) {
        return None;
    }
    let n = (1.0 / share).round();
    (n <= 100.0 && (share * n - 1.0).abs() < 1e-9).then(|| format!("1/{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_starts_with_a_capital_and_keeps_the_rest() {
        assert_eq!(sentence_case("the check would hold 2 entries"), "The check would hold 2 entries");
        assert_eq!(sentence_case("link"), "Link");
        assert_eq!(sentence_case(""), "");
        assert_eq!(sentence_case("µs first"), "µs first", "no Unicode case tables");
    }

    #[test]
    fn halves_round_away_from_zero() {
        assert_eq!(percent(3.125), "3.13 %");
        assert_eq!(percent(23.4375), "23.44 %");
        assert_eq!(decimal(-0.125, 2), "-0.13");
        assert_eq!(seconds(116.25), "116.25 s");
        assert_eq!(decimal(1e300, 2), format!("{:.0}", 1e300), "unscaled, and its zero decimals trimmed");
    }

    #[test]
    fn long_seconds_and_percents_are_grouped_as_the_sentences_group_them() {
        assert_eq!(seconds(10110.0), "10,110 s");
        assert_eq!(seconds(1234.5678), "1,234.568 s");
        assert_eq!(percent(8325.0), "8,325 %");
        assert_eq!(percent(-8325.5), "-8,325.5 %");
        assert_eq!(seconds(999.0), "999 s");
        assert_eq!(seconds(3e-5), "3.0e-5 s", "scientific notation as it was");
    }

    #[test]
    fn a_percent_short_of_a_hundred_never_reads_as_a_hundred() {
        assert_eq!(percent(100.0), "100 %");
        assert_eq!(percent(99.9999), "99.9999 %");
        assert_eq!(percent(99.996), "99.996 %");
        assert_eq!(percent(100.004), "100.004 %", "nor one just past it");
        assert_eq!(percent(100.0 - 1e-12), "100 %", "at nine decimals it stops");
    }

    #[test]
    fn a_number_keeps_its_unit_on_the_page_only() {
        assert_eq!(unbroken(seconds(112.5)), "112.5\u{a0}s");
        assert_eq!(unbroken(format!("({} less)", percent(15.0))), "(15\u{a0}%\u{a0}less)");
        assert_eq!(seconds(112.5), "112.5 s", "the CLI's and exports' text keeps plain spaces");
    }

    #[test]
    fn a_sentence_keeps_its_numbers_with_their_units_and_wraps_elsewhere() {
        assert_eq!(
            units_kept(
                "the cycle got 1.067× faster (6.25 % less time). Even an instant refit would save at most 10 s."
            ),
            "the cycle got 1.067× faster (6.25\u{a0}% less time). Even an instant refit would save at most 10\u{a0}s."
        );
        assert_eq!(
            units_kept("mesh 4 × 2 (dp, tp), 256 B, 1.28 ns, 3 MiB: 2 KB"),
            "mesh 4\u{a0}×\u{a0}2 (dp, tp), 256\u{a0}B, 1.28\u{a0}ns, 3\u{a0}MiB: 2\u{a0}KB"
        );
        // A word that starts like a unit is no unit; nor is a unit after a word.
        assert_eq!(
            units_kept("6 pieces, 2 Bytes, 3 sends, mesh ×, gives s"),
            "6 pieces, 2 Bytes, 3 sends, mesh ×, gives s"
        );
        assert_eq!(units_kept("10 s"), "10\u{a0}s", "a unit at the end of the text");
        assert_eq!(units_kept(""), "");
    }

    proptest::proptest! {
        /// Any text (stage names are the user's) comes back with only some spaces made no-break.
        #[test]
        fn keeping_units_only_turns_spaces_no_break(text in "[0-9 a-zµ×%BsK.é\\u{a0}]{0,24}|\\PC{0,24}") {
            let kept = units_kept(&text);
            proptest::prop_assert_eq!(kept.chars().count(), text.chars().count());
            for (a, b) in text.chars().zip(kept.chars()) {
                let no_break = '\u{a0}';
                proptest::prop_assert!(a == b || (a == ' ' && b == no_break), "{:?} became {:?}", a, b);
            }
        }
    }

    #[test]
    fn unit_fractions_are_named_only_when_exact() {
        assert_eq!(unit_fraction(10.0 / 120.0).as_deref(), Some("1/12"));
        assert_eq!(unit_fraction(50.0 / 160.0), None, "5/16 is no unit fraction");
        assert_eq!(unit_fraction(0.5).as_deref(), Some("1/2"));
        assert_eq!(unit_fraction(1.0), None);
        assert_eq!(unit_fraction(0.0), None);
        assert_eq!(unit_fraction(f64::NAN), None);
        assert_eq!(unit_fraction(1.0 / 1000.0), None);
    }

    #[test]
    fn the_articles_numbers_read_as_printed() {
        assert_eq!(seconds(112.5), "112.5 s");
        assert_eq!(seconds(110.0), "110 s");
        assert_eq!(times(120.0 / 112.5), "1.067×");
        assert_eq!(times(160.0 / 122.5), "1.306×");
        assert_eq!(percent(6.25), "6.25 %");
        assert_eq!(percent(23.4375), "23.44 %");
    }

    #[test]
    fn tiny_and_odd_values_never_read_as_nothing() {
        assert_eq!(times(1.0), "1×");
        assert_eq!(times(1.0004), "1.0004×");
        assert_eq!(decimal(0.00001, 3), "1.0e-5");
        assert_eq!(decimal(-0.0, 3), "0");
        assert_eq!(decimal(f64::NAN, 3), "—");
        assert_eq!(decimal(1.0 / 12.0, 4), "0.0833");
    }
}
