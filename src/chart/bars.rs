//! Horizontal bar charts: bar lengths, row positions, and ratios to a baseline.

use crate::core::traffic::trim_float;

/// The length of a bar for `value` when `max` fills `full` units.
///
/// Zero (and anything negative or not finite) draws nothing; any positive value is at least `min_visible`
/// long, so a small but real amount never vanishes next to a large one. A zero `max` draws nothing.
pub fn bar_length(value: f64, max: f64, full: f64, min_visible: f64) -> f64 {
    if !value.is_finite() || value <= 0.0 || !max.is_finite() || max <= 0.0 {
        return 0.0;
    }
    (value / max * full).clamp(min_visible.min(full), full)
}

/// Rows of a bar chart, top to bottom: each row `height` tall, `gap` apart, starting at `top`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rows {
    pub top: f64,
    pub height: f64,
    pub gap: f64,
}

impl Rows {
    pub const fn new(top: f64, height: f64, gap: f64) -> Rows {
        Rows { top, height, gap }
    }
    /// The top edge of row `index`.
    pub fn y(&self, index: usize) -> f64 {
        self.top + index as f64 * (self.height + self.gap)
    }
    /// The vertical centre of row `index` (where its label's baseline sits, with `dominant-baseline: middle`).
    pub fn middle(&self, index: usize) -> f64 {
        self.y(index) + self.height / 2.0
    }
    /// The height taken by `count` rows, without a gap after the last (0 for no rows).
    pub fn extent(&self, count: usize) -> f64 {
        if count == 0 { 0.0 } else { count as f64 * self.height + (count - 1) as f64 * self.gap }
    }
}

/// `value / base`, or `None` when the base is zero and the value is not (no meaningful ratio).
/// Two zeros compare as equal: ratio 1.
pub fn ratio(value: f64, base: f64) -> Option<f64> {
    if base == 0.0 {
        return (value == 0.0).then_some(1.0);
    }
    let r = value / base;
    r.is_finite().then_some(r)
}

/// A ratio as people write it: `1×`, `2×`, `1.33×`, `0.5×`; `—` when there is none.
pub fn ratio_text(value: f64, base: f64) -> String {
    match ratio(value, base) {
        Some(r) => format!("{}×", trim_float(r, 3)),
        None => "—".to_string(),
    }
}

/// Where a bar chart's names stand, and how wide its viewBox is, in units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NamePlace {
    /// Beside their bars.
    Beside(f64),
    /// Each on its own line above its bar, which then starts at the left edge.
    Above(f64),
}

impl NamePlace {
    pub fn width(self) -> f64 {
        match self {
            NamePlace::Beside(width) | NamePlace::Above(width) => width,
        }
    }
}

/// A bar chart in a box `px` pixels wide (0 or NaN while unknown), drawn at one viewBox unit a pixel and
/// `widest` units at most: its names beside the bars where the box holds `beside` units, above them in a
/// narrower box, never under `narrowest`. A phone drew 432 units in 320 px, its names and values 9 px
/// high. Rounded down to 20 units, so that a resize redraws the chart only now and then.
pub fn name_place(px: f64, widest: f64, beside: f64, narrowest: f64) -> NamePlace {
    if px.is_nan() || px <= 0.0 {
        return NamePlace::Beside(widest);
    }
    let units = ((px / 20.0).floor() * 20.0).min(widest);
    if units >= beside { NamePlace::Beside(units) } else { NamePlace::Above(units.max(narrowest)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_and_small_values_stay_visible() {
        assert_eq!(bar_length(144.0, 288.0, 200.0, 2.0), 100.0);
        assert_eq!(bar_length(288.0, 288.0, 200.0, 2.0), 200.0);
        assert_eq!(bar_length(1.0, 1e9, 200.0, 2.0), 2.0, "a tiny value is still drawn");
        assert_eq!(bar_length(0.0, 288.0, 200.0, 2.0), 0.0, "zero draws nothing");
    }

    #[test]
    fn degenerate_inputs_draw_nothing() {
        assert_eq!(bar_length(5.0, 0.0, 200.0, 2.0), 0.0);
        assert_eq!(bar_length(f64::NAN, 10.0, 200.0, 2.0), 0.0);
        assert_eq!(bar_length(-1.0, 10.0, 200.0, 2.0), 0.0);
        assert_eq!(bar_length(5.0, 10.0, 1.0, 2.0), 1.0, "the minimum never exceeds the full length");
    }

    #[test]
    fn rows_stack_with_gaps() {
        let rows = Rows::new(10.0, 12.0, 4.0);
        assert_eq!(rows.y(0), 10.0);
        assert_eq!(rows.y(2), 42.0);
        assert_eq!(rows.middle(1), 32.0);
        assert_eq!(rows.extent(3), 44.0);
        assert_eq!(rows.extent(0), 0.0);
    }

    #[test]
    fn ratios_read_as_multiples_of_the_baseline() {
        // The toy: whole shard receives 288 B where the intersection receives 144 B.
        assert_eq!(ratio_text(288.0, 144.0), "2×");
        assert_eq!(ratio_text(144.0, 144.0), "1×");
        assert_eq!(ratio_text(4.0, 3.0), "1.33×");
        assert_eq!(ratio_text(72.0, 144.0), "0.5×");
        assert_eq!(ratio_text(0.0, 0.0), "1×", "nothing versus nothing is the same");
        assert_eq!(ratio_text(5.0, 0.0), "—", "no ratio to a zero baseline");
    }

    #[test]
    fn names_stand_above_their_bars_only_in_a_narrow_box_and_text_keeps_its_size() {
        assert_eq!(name_place(0.0, 480.0, 360.0, 220.0), NamePlace::Beside(480.0), "unknown: the widest");
        assert_eq!(name_place(f64::NAN, 480.0, 360.0, 220.0), NamePlace::Beside(480.0));
        assert_eq!(name_place(1000.0, 480.0, 360.0, 220.0), NamePlace::Beside(480.0));
        assert_eq!(name_place(419.0, 480.0, 360.0, 220.0), NamePlace::Beside(400.0));
        assert_eq!(name_place(360.0, 480.0, 360.0, 220.0), NamePlace::Beside(360.0));
        // A 390 px phone's card: 320 px.
        assert_eq!(name_place(320.0, 480.0, 360.0, 220.0), NamePlace::Above(320.0));
        assert_eq!(name_place(100.0, 480.0, 360.0, 220.0), NamePlace::Above(220.0));
        for px in (1..1200).map(f64::from) {
            let width = name_place(px, 480.0, 360.0, 220.0).width();
            // Never more units than pixels (text drawn smaller than set) unless the chart cannot fit.
            assert!(width <= px.max(220.0) && px - width < 20.0 || width == 480.0 || width == 220.0, "{px}: {width}");
        }
    }
}
