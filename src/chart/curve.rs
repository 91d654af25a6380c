//! The chart of whole-cycle speedup against the transfer speedup `s` (log x): the current cycle's curve,
//! its bound as `s → ∞`, a family of curves for other refit shares, and the log slider for `s`.

use crate::core::cycle::{CURVE_MAX_SPEEDUP, CURVE_MIN_SPEEDUP, curve_speedups, speedup_curve};

use super::scale::{Linear, Log};

/// The other transfer shares drawn for comparison: the same `s` matters more when refit is a larger share.
pub const FAMILY: [f64; 4] = [0.05, 0.25, 0.5, 0.75];
/// Points per curve: smooth at any chart width, far below the element budget.
pub const CURVE_POINTS: usize = 121;
/// The tallest y axis drawn: a cycle that is all transfer reaches 100× at `s = 100`, and a bound past
/// 1000× (a refit of over 99.9 % of the cycle) is clipped there.
pub const MAX_Y: f64 = 1000.0;

/// Steps of the `s` slider: `0..=SLIDER_STEPS` maps onto `[0.1, 100]` logarithmically.
pub const SLIDER_STEPS: u32 = 600;

/// The speedup at a slider position (clamped to the slider's range).
pub fn slider_speedup(position: f64) -> f64 {
    let t = if position.is_finite() { (position / SLIDER_STEPS as f64).clamp(0.0, 1.0) } else { 0.0 };
    let (low, high) = (CURVE_MIN_SPEEDUP.ln(), CURVE_MAX_SPEEDUP.ln());
    (low + t * (high - low)).exp()
}

/// The slider position of a speedup, the inverse of [`slider_speedup`]; speedups off the axis sit at its
/// ends.
pub fn slider_position(speedup: f64) -> f64 {
    if !(speedup.is_finite() && speedup > 0.0) {
        return 0.0;
    }
    let (low, high) = (CURVE_MIN_SPEEDUP.ln(), CURVE_MAX_SPEEDUP.ln());
    ((speedup.ln() - low) / (high - low)).clamp(0.0, 1.0) * SLIDER_STEPS as f64
}

/// The speedup the slider sets at `position`: a two-digit value (`4`, `1.5`, `0.25`) where one lies within
/// half a step, else three significant digits (`4.05`, `0.126`). With 200 steps a decade, no step lands on
/// 4 itself: dragged back to it, s read 3.98 and the article's 112.5 s became 112.513 s. Each two-digit
/// value is now reached from the step nearest it, and every value set shows at the step that set it.
pub fn slider_speedup_at(position: f64) -> f64 {
    let step = if position.is_finite() { position.round() } else { 0.0 };
    let raw = slider_speedup(step);
    // Two significant digits, read back from their decimal text: exact where scaling by 10^k is not.
    let two_digits: f64 = format!("{raw:.1e}").parse().unwrap_or(raw);
    if (slider_position(two_digits) - step).abs() < 0.5 { two_digits } else { round_speedup(raw) }
}

/// Rounds a slider speedup to a readable value: three significant digits (`4`, `3.98`, `0.126`).
pub fn round_speedup(speedup: f64) -> f64 {
    if !(speedup.is_finite() && speedup > 0.0) {
        return speedup;
    }
    let magnitude = speedup.log10().floor();
    let unit = 10f64.powf(magnitude - 2.0);
    (speedup / unit).round() * unit
}

/// The top of the y axis for a cycle whose transfer share is `f` and whose bound as `s → ∞` is `bound`: a
/// round number that holds every family curve, the current one at `s = 100` and its bound, at most
/// [`MAX_Y`]. Stopping at 10×, a refit of 99 % of the cycle ran flat along the frame from `s = 11`, its
/// marker at 10× beside a label saying 50×, and its 100× bound was not drawn.
pub fn y_top(f: f64, bound: Option<f64>) -> f64 {
    let highest = FAMILY
        .iter()
        .chain(std::iter::once(&f))
        .filter_map(|&share| speedup_curve(share, &[CURVE_MAX_SPEEDUP]).first().map(|p| p.1))
        .chain(bound.filter(|b| b.is_finite()))
        .fold(1.0, f64::max)
        .min(MAX_Y);
    let step = y_step(highest);
    ((highest / step - 1e-9).ceil() * step).clamp(2.0, MAX_Y)
}

/// The step between the y axis's ticks up to `top`: 1, 2 or 5 times a power of ten, at most five steps.
fn y_step(top: f64) -> f64 {
    let mut step = 1.0;
    while top / step > 5.0 + 1e-9 && step < MAX_Y {
        step = if top / (step * 2.0) <= 5.0 + 1e-9 {
            step * 2.0
        } else if top / (step * 5.0) <= 5.0 + 1e-9 {
            step * 5.0
        } else {
            step * 10.0
        };
    }
    step
}

/// Ticks for the y axis `[0, top]`: at most six, 1, 2 or 5 times a power of ten apart.
pub fn y_ticks(top: f64) -> Vec<f64> {
    let step = y_step(top);
    (0..).map(|i| i as f64 * step).take_while(|v| *v <= top + 1e-9).collect()
}

/// The x axis's labelled ticks (decades) and its unlabelled ones (2× and 5× each decade).
pub fn x_ticks() -> (Vec<f64>, Vec<f64>) {
    let decades = vec![0.1, 1.0, 10.0, 100.0];
    let minor = [0.2, 0.5, 2.0, 5.0, 20.0, 50.0].to_vec();
    (decades, minor)
}

/// The SVG path of the whole-cycle speedup for share `f` over the slider's range, clipped to `[0, top]`
/// on y: points above the top are pulled down to it, so the line meets the frame instead of leaving it.
pub fn curve_path(f: f64, x: &Log, y: &Linear, top: f64) -> String {
    points_path(&speedup_curve(f, &curve_speedups(CURVE_POINTS)), x, y, top)
}

/// The SVG path through `(s, speedup)` points, clipped to `[0, top]` on y like [`curve_path`].
pub fn points_path(points: &[(f64, f64)], x: &Log, y: &Linear, top: f64) -> String {
    let mut path = String::with_capacity(points.len() * 16);
    for (i, (s, speedup)) in points.iter().enumerate() {
        let command = if i == 0 { 'M' } else { 'L' };
        path.push_str(&format!("{command}{:.1} {:.1}", x.map(*s), y.map(speedup.min(top))));
    }
    path
}

/// The label of a family curve: its share as a percent of the cycle (`f = 25 %`).
pub fn share_label(f: f64) -> String {
    format!("f = {} %", super::readout::decimal(f * 100.0, 1))
}

/// Places labels at the heights `ys` (each with its index), pushed apart so that none is closer than `gap`
/// to the next, in their order, and none lower than `lowest` (SVG y grows downwards): pushed down from the
/// highest, then, where that ran past `lowest`, up from there. Curves that end close together at the foot
/// of a tall axis pushed the last labels off the plot, onto the axis's tick labels.
pub fn separate_labels(mut ys: Vec<(f64, usize)>, gap: f64, lowest: f64) -> Vec<(f64, usize)> {
    // Ties keep their order (the labels come in index order).
    ys.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for i in 1..ys.len() {
        if ys[i].0 - ys[i - 1].0 < gap {
            ys[i].0 = ys[i - 1].0 + gap;
        }
    }
    if let Some(last) = ys.last_mut() {
        last.0 = last.0.min(lowest);
    }
    for i in (0..ys.len().saturating_sub(1)).rev() {
        ys[i].0 = ys[i].0.min(ys[i + 1].0 - gap);
    }
    ys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slider_is_logarithmic_and_round_trips() {
        assert!((slider_speedup(0.0) - 0.1).abs() < 1e-12);
        assert!((slider_speedup(SLIDER_STEPS as f64) - 100.0).abs() < 1e-9);
        assert!((slider_speedup(SLIDER_STEPS as f64 / 3.0) - 1.0).abs() < 1e-9, "one decade per third");
        assert!((slider_speedup(slider_position(4.0)) - 4.0).abs() < 1e-9);
        assert_eq!(slider_position(1000.0), SLIDER_STEPS as f64);
        assert_eq!(slider_position(-1.0), 0.0);
    }

    #[test]
    fn the_slider_reaches_two_digit_speedups_and_shows_every_value_where_it_was_set() {
        for s in [4.0, 1.0, 1.5, 2.0, 0.25, 0.1, 10.0, 12.0, 50.0, 100.0] {
            let step = slider_position(s).round();
            assert_eq!(slider_speedup_at(step), s, "the step nearest {s} sets it");
        }
        // The steps beside 4 set values of their own, so the arrow keys move off 4 and back onto it.
        let four = slider_position(4.0).round();
        assert_eq!(slider_speedup_at(four + 1.0), 4.03);
        assert_eq!(slider_speedup_at(four - 1.0), 3.94);
        let mut last = 0.0;
        for step in 0..=SLIDER_STEPS {
            let s = slider_speedup_at(step as f64);
            assert_eq!(slider_position(s).round(), step as f64, "s = {s} is drawn at the step that set it");
            assert!(s > last, "the slider's values rise with it: {s} after {last}");
            last = s;
        }
        assert_eq!(slider_speedup_at(f64::NAN), 0.1);
    }

    #[test]
    fn slider_speedups_round_to_three_digits() {
        assert_eq!(round_speedup(3.98107), 3.98);
        assert_eq!(round_speedup(0.125893), 0.126);
        assert_eq!(round_speedup(100.0), 100.0);
    }

    #[test]
    fn the_y_axis_holds_the_family_the_current_curve_and_its_bound() {
        assert_eq!(y_top(1.0 / 12.0, Some(1.0909)), 4.0, "f = 0.75 reaches 3.88 at s = 100");
        assert_eq!(y_top(0.9, Some(10.0)), 10.0, "1 / (0.1 + 0.009) ≈ 9.2, the bound 10");
        // A refit of 99 % of the cycle: 50× at s = 100 and a bound of 100×, both on the chart.
        assert_eq!(y_top(0.99, Some(100.0)), 100.0);
        assert_eq!(y_ticks(100.0), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        // All transfer: no finite bound, 100× at s = 100.
        assert_eq!(y_top(1.0, None), 100.0);
        assert_eq!(y_top(0.9999, Some(10_000.0)), MAX_Y, "clipped");
        assert_eq!(y_ticks(4.0), [0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(y_ticks(6.0), [0.0, 2.0, 4.0, 6.0]);
        assert_eq!(y_ticks(10.0), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(y_ticks(30.0), [0.0, 10.0, 20.0, 30.0]);
        assert_eq!(y_ticks(1000.0), [0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]);
    }

    proptest::proptest! {
        #[test]
        fn the_y_axis_is_a_round_top_over_at_most_six_ticks(f in 0.0f64..=1.0, bound in proptest::option::of(1.0f64..5000.0)) {
            let top = y_top(f, bound);
            let ticks = y_ticks(top);
            proptest::prop_assert!((2.0..=MAX_Y).contains(&top));
            proptest::prop_assert!(ticks.len() >= 3 && ticks.len() <= 6, "{top}: {ticks:?}");
            proptest::prop_assert_eq!(*ticks.last().unwrap(), top);
            if let Some(b) = bound {
                proptest::prop_assert!(b.min(MAX_Y) <= top);
            }
        }
    }

    #[test]
    fn labels_are_pushed_apart_and_kept_above_the_lowest_line() {
        // Apart and in order, where there is room below.
        assert_eq!(
            separate_labels(vec![(100.0, 1), (95.0, 0), (200.0, 2)], 20.0, 330.0),
            [(95.0, 0), (115.0, 1), (200.0, 2)]
        );
        // Five curves ending at the foot of the axis: pushed up from the lowest line, not below it.
        let foot = separate_labels((0..5).map(|i| (325.0 + i as f64, i)).collect(), 20.0, 326.0);
        assert_eq!(foot.iter().map(|p| p.0).collect::<Vec<_>>(), [246.0, 266.0, 286.0, 306.0, 326.0]);
        assert_eq!(foot.iter().map(|p| p.1).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert!(separate_labels(Vec::new(), 20.0, 0.0).is_empty());
    }

    #[test]
    fn the_path_stays_inside_the_frame() {
        let x = Log { domain: (0.1, 100.0), range: (0.0, 600.0) };
        let y = Linear::new((0.0, 4.0), (300.0, 0.0));
        let path = curve_path(1.0, &x, &y, 4.0);
        assert!(path.starts_with("M0.0 "));
        let lowest_y = path
            .split(['M', 'L'])
            .filter(|p| !p.is_empty())
            .filter_map(|p| p.split(' ').nth(1)?.parse::<f64>().ok())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(lowest_y, 0.0, "f = 1 reaches 100×, clipped at the top");
    }
}
