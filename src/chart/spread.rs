//! The per-stage spread of measured cycles (min, median, p90, max), on a shared seconds axis or as the
//! change from each stage's steady-state median.

use crate::core::cycle::Distribution;

use super::scale::{Linear, nice_step};

/// One stage's spread in x positions: a whisker `min..max`, a box `median..p90`, and the median's mark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpreadMarks {
    pub min: f64,
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

impl SpreadMarks {
    pub fn of(distribution: &Distribution, scale: &Linear) -> SpreadMarks {
        SpreadMarks {
            min: scale.map(distribution.min),
            median: scale.map(distribution.median),
            p90: scale.map(distribution.p90),
            max: scale.map(distribution.max),
        }
    }

    /// The marks of `distribution` as percent changes from `reference` (a stage's steady-state median), on
    /// `scale` in percent; `None` when there is no positive reference to compare with.
    pub fn relative(distribution: &Distribution, reference: f64, scale: &Linear) -> Option<SpreadMarks> {
        let change = |value: f64| change_from(value, reference).map(|c| scale.map(c));
        Some(SpreadMarks {
            min: change(distribution.min)?,
            median: change(distribution.median)?,
            p90: change(distribution.p90)?,
            max: change(distribution.max)?,
        })
    }
}

/// How to draw the spreads. Seconds on one axis show which stage is long; but a stage's cycles differ by
/// a few percent of its length, so on that axis every box was a sliver. As changes from each stage's
/// steady-state median (the numbers `f` is made of) the spread of every stage is drawn to one scale, and a
/// startup cycle reads as how much slower than steady state it was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpreadScale {
    /// Percent change from the steady-state median of the same stage.
    #[default]
    ChangeFromMedian,
    /// Seconds from 0, one axis for both groups.
    Seconds,
}

/// `value` as a percent change from `reference`: `+25` for 12.5 s against 10 s; `None` without a positive,
/// finite reference (a stage that only startup cycles have, or measured as 0 s).
pub fn change_from(value: f64, reference: f64) -> Option<f64> {
    (reference.is_finite() && reference > 0.0 && value.is_finite()).then(|| (value / reference - 1.0) * 100.0)
}

/// The percent axis for some changes: from the least to the greatest, always with 0 (the median itself), and
/// 5 % of the span beyond each end so that no whisker ends on the frame; ±5 when all changes are 0 (a
/// single cycle is its own median).
pub fn change_axis(changes: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (low, high) =
        changes.into_iter().filter(|c| c.is_finite()).fold((0.0f64, 0.0f64), |(lo, hi), c| (lo.min(c), hi.max(c)));
    let span = high - low;
    if span <= 0.0 {
        return (-5.0, 5.0);
    }
    (low - span * 0.05, high + span * 0.05)
}

/// Round ticks inside `[low, high]` (which holds 0): about `target` of them at 1, 2 or 5 × 10ⁿ steps,
/// always with 0.
pub fn change_ticks((low, high): (f64, f64), target: usize) -> Vec<f64> {
    let span = high - low;
    if !(span.is_finite() && span > 0.0) {
        return vec![0.0];
    }
    let raw = span / target.max(1) as f64;
    let step = nice_step(raw);
    let first = (low / step - 1e-9).ceil() as i64;
    let last = (high / step + 1e-9).floor() as i64;
    (first..=last.min(first + 1000)).map(|k| k as f64 * step).collect()
}

/// A change as an axis label or a reading: `+20 %`, `0`, `−2.5 %` (a true minus sign), to whole percents
/// from 10 % on (`+37 %`, not `+37.143 %`: a startup cycle's change is read as a size, not to a decimal).
pub fn change_label(change: f64) -> String {
    let size = change.abs();
    let decimals = if size >= 10.0 {
        0
    } else if size >= 1.0 {
        1
    } else {
        2
    };
    let rounded = super::readout::decimal(size, decimals);
    if rounded == "0" {
        "0".into()
    } else if change > 0.0 {
        format!("+{rounded} %")
    } else {
        format!("\u{2212}{rounded} %")
    }
}

/// The end of the shared axis: the largest maximum, with 5 % headroom, never 0.
pub fn axis_end<'a>(distributions: impl IntoIterator<Item = &'a Distribution>) -> f64 {
    let largest = distributions.into_iter().map(|d| d.max).filter(|m| m.is_finite()).fold(0.0, f64::max);
    if largest > 0.0 { largest * 1.05 } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_distribution() {
        let d = Distribution::of(&[1.0, 2.0, 3.0, 4.0, 10.0]).expect("samples");
        let marks = SpreadMarks::of(&d, &Linear::new((0.0, 10.0), (0.0, 100.0)));
        assert_eq!(marks, SpreadMarks { min: 10.0, median: 30.0, p90: 100.0, max: 100.0 });
    }

    #[test]
    fn relative_marks_are_changes_from_the_reference() {
        let d = Distribution::of(&[9.0, 10.0, 12.5]).expect("samples");
        let scale = Linear::new((-10.0, 30.0), (0.0, 400.0));
        let marks = SpreadMarks::relative(&d, 10.0, &scale).expect("a reference");
        // −10 %, 0 %, +25 %, +25 % on a −10..30 axis of 400 units.
        let expected = [0.0, 100.0, 350.0, 350.0];
        let got = [marks.min, marks.median, marks.p90, marks.max];
        assert!(got.iter().zip(expected).all(|(g, e)| (g - e).abs() < 1e-9), "{marks:?}");
        assert_eq!(SpreadMarks::relative(&d, 0.0, &scale), None, "no change from 0 s");
        assert_eq!(change_from(24.0, 10.0), Some(140.0));
        assert_eq!(change_from(1.0, f64::NAN), None);
    }

    #[test]
    fn the_change_axis_holds_zero_and_every_change() {
        let (low, high) = change_axis([-2.0, 25.0, 1.0]);
        assert!((low - (-2.0 - 1.35)).abs() < 1e-9 && (high - (25.0 + 1.35)).abs() < 1e-9, "{low} {high}");
        let (low, high) = change_axis([37.0, 140.0]);
        assert!(low < 0.0 && low > -10.0 && high > 140.0, "0 is on the axis: {low} {high}");
        assert_eq!(change_axis([0.0, 0.0]), (-5.0, 5.0));
        assert_eq!(change_axis([]), (-5.0, 5.0));
    }

    #[test]
    fn change_ticks_are_round_and_hold_zero() {
        assert_eq!(change_ticks((-3.35, 26.35), 5), vec![0.0, 10.0, 20.0]);
        assert_eq!(change_ticks((-7.15, 147.15), 5), vec![0.0, 50.0, 100.0]);
        assert_eq!(change_ticks((-5.0, 5.0), 5), vec![-4.0, -2.0, 0.0, 2.0, 4.0]);
        assert_eq!(change_ticks((0.0, 0.0), 5), vec![0.0]);
        assert_eq!(change_label(20.0), "+20 %");
        assert_eq!(change_label(0.0), "0");
        assert_eq!(change_label(-2.5), "\u{2212}2.5 %");
        assert_eq!(change_label(37.143), "+37 %");
        assert_eq!(change_label(1.3), "+1.3 %");
        assert_eq!(change_label(-0.04), "\u{2212}0.04 %");
    }

    proptest::proptest! {
        /// Every change lies on its axis, strictly inside, and every tick is on the axis.
        #[test]
        fn every_change_is_on_its_axis(changes in proptest::collection::vec(-99.0f64..1000.0, 1..12)) {
            let axis = change_axis(changes.iter().copied());
            for &c in &changes {
                proptest::prop_assert!(c > axis.0 && c < axis.1);
            }
            let ticks = change_ticks(axis, 5);
            proptest::prop_assert!(ticks.contains(&0.0));
            proptest::prop_assert!(ticks.iter().all(|&t| t >= axis.0 && t <= axis.1));
            proptest::prop_assert!(ticks.len() <= 12, "{ticks:?}");
        }
    }

    #[test]
    fn the_axis_has_headroom_and_is_never_empty() {
        let d = Distribution::of(&[70.0, 80.0]).expect("samples");
        assert!((axis_end([&d]) - 84.0).abs() < 1e-9);
        assert_eq!(axis_end([]), 1.0);
    }
}
