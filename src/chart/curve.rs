//! The chart of whole-cycle speedup against the transfer speedup `s` (log x): the current cycle's curve,
//! its bound as `s → ∞`, a family of curves for other refit shares, and the log slider for `s`.

use crate::core::cycle::{CURVE_MAX_SPEEDUP, CURVE_MIN_SPEEDUP, curve_speedups, speedup_curve};

use super::scale::{Linear, Log};

/// The other transfer shares drawn for comparison: the same `s` matters more when refit is a larger share.
pub const FAMILY: [f64; 4] = [0.05, 0.25, 0.5, 0.75];
/// Points per curve: smooth at any chart width, far below the element budget.
pub const CURVE_POINTS: usize = 121;
/// The tallest y axis drawn; curves for shares near 1 are clipped there.
pub const MAX_Y: f64 = 10.0;

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

/// Rounds a slider speedup to a readable value: three significant digits (`4`, `3.98`, `0.126`).
pub fn round_speedup(speedup: f64) -> f64 {
    if !(speedup.is_finite() && speedup > 0.0) {
        return speedup;
    }
    let magnitude = speedup.log10().floor();
    let unit = 10f64.powf(magnitude - 2.0);
    (speedup / unit).round() * unit
}

/// The top of the y axis for a cycle whose transfer share is `f`: a whole number that holds every family
/// curve and the current one at `s = 100`, at most [`MAX_Y`].
pub fn y_top(f: f64) -> f64 {
    let highest = FAMILY
        .iter()
        .chain(std::iter::once(&f))
        .filter_map(|&share| speedup_curve(share, &[CURVE_MAX_SPEEDUP]).first().map(|p| p.1))
        .fold(1.0, f64::max);
    highest.ceil().clamp(2.0, MAX_Y)
}

/// Ticks for the y axis `[0, top]`: every whole number up to 5, every other one above.
pub fn y_ticks(top: f64) -> Vec<f64> {
    let step = if top > 5.0 { 2.0 } else { 1.0 };
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
    fn slider_speedups_round_to_three_digits() {
        assert_eq!(round_speedup(3.98107), 3.98);
        assert_eq!(round_speedup(0.125893), 0.126);
        assert_eq!(round_speedup(100.0), 100.0);
    }

    #[test]
    fn the_y_axis_holds_the_family_and_the_current_curve() {
        assert_eq!(y_top(1.0 / 12.0), 4.0, "f = 0.75 reaches 3.88 at s = 100");
        assert_eq!(y_top(0.9), 10.0, "1 / (0.1 + 0.009) ≈ 9.2");
        assert_eq!(y_top(1.0), MAX_Y, "clipped");
        assert_eq!(y_ticks(4.0), [0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(y_ticks(10.0), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
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
