//! The per-stage spread of measured cycles (min, median, p90, max) on one shared seconds axis.

use crate::core::cycle::Distribution;

use super::scale::Linear;

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
    fn the_axis_has_headroom_and_is_never_empty() {
        let d = Distribution::of(&[70.0, 80.0]).expect("samples");
        assert!((axis_end([&d]) - 84.0).abs() < 1e-9);
        assert_eq!(axis_end([]), 1.0);
    }
}
