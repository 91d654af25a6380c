//! Linear scales and "nice" axis ticks.

/// Maps a domain `[d0, d1]` onto a range `[r0, r1]` linearly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear {
    pub domain: (f64, f64),
    pub range: (f64, f64),
}

impl Linear {
    pub const fn new(domain: (f64, f64), range: (f64, f64)) -> Linear {
        Linear { domain, range }
    }
    /// The position of `value`; a zero-width domain maps everything to the range's start.
    pub fn map(&self, value: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if d1 == d0 { r0 } else { r0 + (value - d0) / (d1 - d0) * (r1 - r0) }
    }
}

/// Maps `[d0, d1]` (both > 0) onto a range logarithmically.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Log {
    pub domain: (f64, f64),
    pub range: (f64, f64),
}

impl Log {
    pub fn map(&self, value: f64) -> f64 {
        let (d0, d1) = (self.domain.0.max(f64::MIN_POSITIVE).ln(), self.domain.1.max(f64::MIN_POSITIVE).ln());
        Linear::new((d0, d1), self.range).map(value.max(f64::MIN_POSITIVE).ln())
    }
    /// The value at a position (the inverse of `map`).
    pub fn invert(&self, position: f64) -> f64 {
        let (d0, d1) = (self.domain.0.ln(), self.domain.1.ln());
        Linear::new(self.range, (d0, d1)).map(position).exp()
    }
}

/// The viewBox width for a chart drawn `wide` units wide where there is room, shown in a box `px` pixels
/// wide. Its text is set in viewBox units, so a narrow box shrinks it: at 480 px a 900-unit chart drew its
/// 21-unit labels 10 px high and its 14-unit ticks 7 px. Narrower here keeps about three quarters of a pixel
/// per unit (labels ~15 px, ticks ~10 px), never under `narrowest` (what the chart's layout needs); `wide`
/// while the width is not known. Rounded down to 20 units, so that a resize redraws the chart only now and
/// then.
pub fn fitted_width(px: f64, wide: f64, narrowest: f64) -> f64 {
    const UNITS_PER_PX: f64 = 1.35;
    if px.is_nan() || px <= 0.0 || px * UNITS_PER_PX >= wide {
        return wide;
    }
    ((px * UNITS_PER_PX / 20.0).floor() * 20.0).max(narrowest).min(wide)
}

/// The round step (1, 2 or 5 × 10ⁿ) at or just above `raw`: the spacing of every chart's "nice" ticks.
pub fn nice_step(raw: f64) -> f64 {
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&s| s >= raw).unwrap_or(10.0 * magnitude)
}

/// Integer ticks for an axis over `[0, extent]`: about `target` of them, at 1, 2 or 5 × 10ⁿ steps, always
/// including 0 and never past `extent`. The end itself is added when it is not too close to the last tick.
pub fn integer_ticks(extent: u64, target: usize) -> Vec<u64> {
    if extent == 0 {
        return vec![0];
    }
    let raw = (extent as f64 / target.max(1) as f64).max(1.0);
    let step = nice_step(raw);
    let step = (step as u64).max(1);
    let mut ticks: Vec<u64> = (0..=extent / step).map(|i| i * step).collect();
    let last = *ticks.last().unwrap_or(&0);
    if last != extent && (extent - last) * 2 >= step {
        ticks.push(extent);
    } else if last != extent {
        // Too close to the previous tick to label both: the end wins.
        if let Some(l) = ticks.last_mut() {
            *l = extent;
        }
    }
    ticks
}

/// Ticks at the shard boundaries (`boundaries`, inside `(0, extent)`), with 0 and the end: where a reader
/// wants numbers on a layout picture, since every boundary is an offset. `None` when there are none, or
/// when two ticks would be closer than `min_gap` pixels at `pixels_per_unit` (then round ticks serve
/// better; see [`integer_ticks`]).
pub fn boundary_ticks(boundaries: &[u64], extent: u64, pixels_per_unit: f64, min_gap: f64) -> Option<Vec<u64>> {
    let mut ticks: Vec<u64> = Vec::with_capacity(boundaries.len() + 2);
    ticks.push(0);
    ticks.extend(boundaries.iter().copied().filter(|&b| b > 0 && b < extent));
    ticks.push(extent);
    ticks.sort_unstable();
    ticks.dedup();
    let spaced = ticks.windows(2).all(|w| (w[1] - w[0]) as f64 * pixels_per_unit >= min_gap);
    (ticks.len() > 2 && spaced).then_some(ticks)
}

/// `1234567` → `1,234,567`.
pub fn group_thousands(n: u64) -> String {
    crate::core::traffic::format_count(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_narrow_their_view_box_in_a_narrow_box_only() {
        assert_eq!(fitted_width(0.0, 900.0, 560.0), 900.0, "not measured yet");
        assert_eq!(fitted_width(f64::NAN, 900.0, 560.0), 900.0);
        assert_eq!(fitted_width(1200.0, 900.0, 560.0), 900.0, "room enough: as drawn on the page");
        assert_eq!(fitted_width(600.0, 900.0, 560.0), 800.0);
        assert_eq!(fitted_width(670.0, 900.0, 560.0), 900.0);
        assert_eq!(fitted_width(432.0, 900.0, 560.0), 580.0, "a 480 px embed's card: ~0.74 px per unit");
        assert_eq!(fitted_width(300.0, 900.0, 560.0), 560.0, "never under what the layout needs");
        // Text keeps three quarters of a pixel per unit wherever the chart is not at its narrowest.
        for px in (415..700).map(f64::from) {
            let width = fitted_width(px, 900.0, 560.0);
            assert!(px / width >= 0.74, "{px} px: {width} units");
        }
    }

    #[test]
    fn linear_maps_ends_and_middle() {
        let s = Linear::new((0.0, 12.0), (10.0, 250.0));
        assert_eq!(s.map(0.0), 10.0);
        assert_eq!(s.map(12.0), 250.0);
        assert_eq!(s.map(6.0), 130.0);
        assert_eq!(Linear::new((3.0, 3.0), (1.0, 2.0)).map(3.0), 1.0);
    }

    #[test]
    fn log_scale_round_trips() {
        let s = Log { domain: (0.1, 100.0), range: (0.0, 300.0) };
        assert_eq!(s.map(0.1), 0.0);
        assert!((s.map(100.0) - 300.0).abs() < 1e-9);
        assert!((s.invert(s.map(4.0)) - 4.0).abs() < 1e-9);
    }

    #[test]
    fn ticks_are_round_and_end_at_the_extent() {
        assert_eq!(integer_ticks(12, 4), [0, 5, 12], "10 is too close to 12 to label both");
        assert_eq!(integer_ticks(12, 6), [0, 2, 4, 6, 8, 10, 12]);
        assert_eq!(integer_ticks(6, 6), [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(integer_ticks(128256, 5), [0, 50000, 100000, 128256]);
        assert_eq!(integer_ticks(0, 5), [0]);
        assert_eq!(integer_ticks(1, 5), [0, 1]);
    }

    #[test]
    fn ticks_sit_on_shard_boundaries_when_they_have_room() {
        // 8 columns cut at 2, 4, 6, 25 px a column: every boundary gets its number.
        assert_eq!(boundary_ticks(&[2, 4, 6], 8, 25.0, 24.0), Some(vec![0, 2, 4, 6, 8]));
        // Unsorted, repeated and out-of-range boundaries are tolerated.
        assert_eq!(boundary_ticks(&[12, 4, 0, 4], 10, 30.0, 24.0), Some(vec![0, 4, 10]));
        // Too close to label each: round ticks instead.
        assert_eq!(boundary_ticks(&[1, 2, 3], 8, 10.0, 24.0), None);
        // No boundary: nothing to say beyond the ends.
        assert_eq!(boundary_ticks(&[], 8, 25.0, 24.0), None);
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(262144), "262,144");
        assert_eq!(group_thousands(72), "72");
        assert_eq!(group_thousands(1000), "1,000");
    }
}
