//! Whole-cycle speedup against the transfer speedup `s` (log x): this cycle's curve and its asymptote,
//! and thinner curves for other refit shares, so the same `s` is seen to matter more when refit is a
//! larger share of the cycle.

use leptos::prelude::*;

use super::CycleState;
use crate::chart::curve::{
    CURVE_POINTS, FAMILY, curve_path, points_path, separate_labels, share_label, x_ticks, y_ticks, y_top,
};
use crate::chart::readout::{decimal, times};
use crate::chart::scale::{Linear, Log};
use crate::core::cycle::{CURVE_MAX_SPEEDUP, CURVE_MIN_SPEEDUP, curve_speedups, speedup_curve};
use crate::core::traffic::grouped_digits;
use crate::ui::fit::fitted_viewbox_width;
use crate::ui::keyed::redraw_on;

/// The viewBox width where there is room, and the least a narrow box gets ([`fitted_viewbox_width`]): on a 375 px
/// phone, 560 units drew the text 8 px high; 400 keep it at 11.
const WIDTH: f64 = 900.0;
const NARROWEST: f64 = 400.0;
const HEIGHT: f64 = 380.0;
const LEFT: f64 = 64.0;
/// Right of the plot: the curves' labels ("f = 75 %", "this cycle", the longest, about 98 units).
const LABELS: f64 = 116.0;
/// Under this width the bound's label leaves out its formula: written out it ran across the whole plot,
/// into the curves' labels.
const BOUND_FORMULA_FROM: f64 = 560.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 330.0;
const FONT: f64 = 15.0;

/// The chart's section: heading, the SVG, its legend.
#[component]
pub fn SpeedupCurve(
    /// The id of the heading, for the section's `aria-labelledby`.
    title_id: &'static str,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    // The curves depend on the cycle without its s, the marker on s: typing s redraws the marker alone.
    let shown = Memo::new(move |_| state.report.with(Option::is_some));
    // This cycle's curve from its timeline (overlaps included), for the last valid cycle.
    let current = Memo::new(move |previous: Option<&Option<ThisCycle>>| {
        let fresh = state.checked.with(|checked| {
            checked.as_ref().ok().and_then(|report| {
                let points = state.spec.with(|spec| spec.timeline_curve(&curve_speedups(CURVE_POINTS)))?;
                Some(ThisCycle {
                    f: report.formula.f,
                    points,
                    bound: report.bound.max_speedup,
                    top: y_top(report.formula.f, report.bound.max_speedup),
                    sequential: report.sequential,
                })
            })
        });
        fresh.or_else(|| previous.cloned().flatten())
    });
    let marker =
        Memo::new(move |_| state.report.with(|r| r.as_ref().map_or((1.0, 1.0), |r| (r.speedup, r.cycle_speedup))));
    view! {
        <h2 class="cycle-section-title" id=title_id>"Whole-cycle speedup for every s"</h2>
        {move || shown.get().then(|| view! { <Chart current marker/> })}
        // With overlaps the curve is the timeline's, not the formula's: say what the formula would have said.
        {move || {
            state.report.with(|r| {
                r.as_ref().filter(|r| !r.sequential).map(|r| {
                    let bound = |b: Option<f64>| b.map_or_else(|| "none".to_string(), times);
                    view! {
                        <p class="muted cycle-curve-note" data-testid="curve-note">
                            {format!(
                                "This cycle's stages overlap, so its curve is read off its timeline: {} at s\u{a0}=\u{a0}{} and \
                                 a bound of {}, where the formula 1 / (1 − f + f/s), which counts the whole \
                                 transfer as time the cycle waits for, gives {} and {}. The other curves are the formula's.",
                                times(r.cycle_speedup),
                                decimal(r.speedup, 4),
                                bound(r.bound.max_speedup),
                                times(r.formula.speedup),
                                bound(r.formula.bound_speedup)
                            )}
                        </p>
                    }
                })
            })
        }}
        <ul class="cycle-legend-list" aria-label="Chart legend">
            <li>
                <svg class="legend-swatch" viewBox="0 0 24 14" aria-hidden="true">
                    <line x1="2" x2="22" y1="7" y2="7" class="curve-current"></line>
                </svg>
                "this cycle"
            </li>
            <li>
                <svg class="legend-swatch" viewBox="0 0 24 14" aria-hidden="true">
                    <line x1="2" x2="22" y1="7" y2="7" class="curve-asymptote"></line>
                </svg>
                "its bound as s → ∞"
            </li>
            <li>
                <svg class="legend-swatch" viewBox="0 0 24 14" aria-hidden="true">
                    <line x1="2" x2="22" y1="7" y2="7" class="curve-family"></line>
                </svg>
                "other transfer shares f (labelled at the right)"
            </li>
            <li>
                <svg class="legend-swatch" viewBox="0 0 24 14" aria-hidden="true">
                    <circle cx="12" cy="7" r="5" class="curve-marker"></circle>
                </svg>
                "the current s"
            </li>
        </ul>
    }
}

/// What the chart draws for this cycle: its transfer share, its curve from the timeline, its bound as
/// `s → ∞` (`None` for a cycle that is all transfer), and whether its stages run back to back.
#[derive(Clone, Debug, PartialEq)]
struct ThisCycle {
    f: f64,
    points: Vec<(f64, f64)>,
    bound: Option<f64>,
    /// The top of the y axis, which holds the curve, its bound and the family ([`y_top`]).
    top: f64,
    sequential: bool,
}

/// The chart's scales in a picture `width` units wide: log s across, whole-cycle speedup up to `top`.
fn scales(top: f64, width: f64) -> (Log, Linear, f64) {
    (
        Log { domain: (CURVE_MIN_SPEEDUP, CURVE_MAX_SPEEDUP), range: (LEFT, width - LABELS) },
        Linear::new((0.0, top), (BOTTOM, TOP)),
        top,
    )
}

/// Everything but the marker: grid, ticks, the family of curves and their labels, this cycle's bound and
/// its curve.
fn curves(this: &ThisCycle, width: f64) -> impl IntoView + use<> {
    let (x, y, top) = scales(this.top, width);
    let right = width - LABELS;
    let (decades, minor) = x_ticks();
    let x_grid = decades
        .iter()
        .map(|&t| {
            let at = x.map(t);
            view! {
                <line class="curve-grid" x1=at x2=at y1=TOP y2=BOTTOM></line>
                <text class="curve-tick" x=at y=BOTTOM + 22.0 text-anchor="middle">{format!("{}×", decimal(t, 1))}</text>
            }
        })
        .collect_view();
    let x_minor = minor
        .iter()
        .map(|&t| {
            let at = x.map(t);
            view! { <line class="curve-grid-minor" x1=at x2=at y1=TOP y2=BOTTOM></line> }
        })
        .collect_view();
    let ticks = y_ticks(top);
    // 1× (no change) is drawn where the ticks step past it too: below it the cycle got slower.
    let unity = (!ticks.contains(&1.0)).then(|| {
        let at = y.map(1.0);
        view! { <line class="curve-grid curve-unity" x1=LEFT x2=right y1=at y2=at></line> }
    });
    let y_grid = ticks
        .into_iter()
        .map(|t| {
            let at = y.map(t);
            let class = if t == 1.0 { "curve-grid curve-unity" } else { "curve-grid" };
            view! {
                <line class=class x1=LEFT x2=right y1=at y2=at></line>
                <text class="curve-tick" x=LEFT - 8.0 y=at + 5.0 text-anchor="end">{format!("{}×", decimal(t, 1))}</text>
            }
        })
        .collect_view();
    // Family labels sit at the right end of their curves, pushed apart so they never overlap.
    // The current curve's label takes index FAMILY.len().
    let mut ends: Vec<(f64, usize)> = FAMILY
        .iter()
        .enumerate()
        .filter_map(|(i, &share)| speedup_curve(share, &[CURVE_MAX_SPEEDUP]).first().map(|p| (y.map(p.1.min(top)), i)))
        .collect();
    ends.extend(this.points.last().map(|p| (y.map(p.1.min(top)), FAMILY.len())));
    let family = FAMILY
        .iter()
        .map(|&share| view! { <path class="curve-family" d=curve_path(share, &x, &y, top)></path> })
        .collect_view();
    // A line and a half apart: at one font size apart they read as one block.
    let family_labels = separate_labels(ends, FONT * 1.3, BOTTOM - 4.0)
        .into_iter()
        .map(|(at, i)| match FAMILY.get(i) {
            Some(&share) => {
                view! { <text class="curve-family-label" x=right + 12.0 y=at + 5.0>{share_label(share)}</text> }
                    .into_any()
            }
            None => view! {
                // Clear of the marker's ring (r 6) when s is at the right end: at +8 the two touched.
                <text class="curve-current-label" x=right + 11.0 y=at + 5.0>"this cycle"</text>
            }
            .into_any(),
        })
        .collect_view();
    let bound = this.bound.filter(|&b| b <= top).map(|b| {
        let at = y.map(b);
        let label = match (this.sequential, width >= BOUND_FORMULA_FROM) {
            (true, true) => "bound 1 / (1 − f)",
            (false, true) => "bound (instant transfer)",
            (_, false) => "bound",
        };
        let text = format!("{label} = {}", times(b));
        // On a ground of the panel's colour: the grey curves rise through it near s = 1, and a glyph's halo
        // left them running between the letters (a phone's "bound = 1.091×"). As wide as the text, measured
        // by its letters (a count of characters made a ground that hid a stretch of curve past its end).
        let ground = crate::chart::gantt::text_em(&text) * FONT + 8.0;
        // Above its line, or below it where the line runs along the top of the frame (a bound that sets the
        // axis's top had its label cut off by the picture's edge).
        let baseline = if at - 7.0 - FONT < 0.0 { at + FONT + 4.0 } else { at - 7.0 };
        view! {
            <line class="curve-asymptote" x1=LEFT x2=right y1=at y2=at></line>
            <rect class="curve-label-ground" x=LEFT + 4.0 y=baseline - FONT height=FONT + 4.0 width=ground rx="3"></rect>
            <text class="curve-asymptote-label" x=LEFT + 8.0 y=baseline>{text}</text>
        }
    });
    view! {
        {x_minor}
        {x_grid}
        {y_grid}
        {unity}
        {family}
        {family_labels}
        {bound}
        <path class="curve-current" d=points_path(&this.points, &x, &y, top) data-testid="curve-current"></path>
    }
}

/// The current s on this cycle's curve (`speedup`, the timeline's whole-cycle speedup), with its drop line
/// and label. The label sits low beside the drop line, where no curve runs: for s ≥ 1 every curve is at
/// or above 1×, and for s < 1 they fall toward 0 only near s = 0.1.
fn marker(top: f64, s: f64, speedup: f64, width: f64) -> impl IntoView {
    let (x, y, top) = scales(top, width);
    (CURVE_MIN_SPEEDUP..=CURVE_MAX_SPEEDUP).contains(&s).then(|| {
        let (cx, cy) = (x.map(s), y.map(speedup.min(top)));
        let label = format!("s = {} → {}", grouped_digits(&decimal(s, 4)), times(speedup));
        // Right of the drop line while it fits the picture: low down, the labels' column is empty (every
        // curve ends at or above 1×), and on the left the curves fall toward 0 near s = 0.1.
        let right = cx + 10.0 + label.chars().count() as f64 * FONT * 0.6 <= width - 4.0;
        let (anchor, x_at) = if right { ("start", cx + 8.0) } else { ("end", cx - 8.0) };
        // On an axis past 5× (a refit of most of the cycle) every other curve runs along the foot, through
        // that spot, and below s = 1 the curves fall toward 0 there: the label stands in the plot's top left
        // corner instead, under the bound's, where no curve runs (below s = 1 every curve is under 1×).
        let corner = top > 5.0 || s < 1.0;
        let (anchor, x_at, y_at) =
            if corner { ("start", LEFT + 8.0, TOP + 2.0 * FONT + 16.0) } else { (anchor, x_at, BOTTOM - 12.0) };
        view! {
            <line class="curve-drop" x1=cx x2=cx y1=cy y2=BOTTOM></line>
            <circle class="curve-marker" cx=cx cy=cy r="6"></circle>
            <text class="curve-marker-label" x=x_at y=y_at text-anchor=anchor data-testid="curve-marker-label">
                {label}
            </text>
        }
    })
}

/// The SVG: the curves redrawn when the cycle (without its s) changes, the marker when s does.
#[component]
fn Chart(current: Memo<Option<ThisCycle>>, marker: Memo<(f64, f64)>) -> impl IntoView {
    let f = move || current.with(|c| c.as_ref().map_or(0.0, |c| c.f));
    let top = move || current.with(|c| c.as_ref().map_or(2.0, |c| c.top));
    let description = move || {
        format!(
            "Whole-cycle speedup against the transfer speedup s from 0.1 to 100 for this cycle (f = {}), with its bound, \
             and for f = 5, 25, 50 and 75 %",
            decimal(f(), 4)
        )
    };
    // Narrower in a narrow box (a phone, a 480 px embed), so that the labels keep a readable size.
    let svg = NodeRef::new();
    let width = fitted_viewbox_width(svg, WIDTH, NARROWEST);
    view! {
        <svg
            node_ref=svg
            class="curve"
            viewBox=move || format!("0 0 {} {HEIGHT}", width.get())
            role="img"
            aria-label=description
            data-testid="cycle-curve"
        >
            {redraw_on(move || (current.get(), width.get()), move || {
                let width = width.get();
                current.with(|c| c.as_ref().map(|c| curves(c, width)))
            })}
            {redraw_on(move || (top(), marker.get(), width.get()), move || {
                let (s, speedup) = marker.get();
                self::marker(top(), s, speedup, width.get())
            })}
            <text class="curve-axis-label" x=move || (LEFT + width.get() - LABELS) / 2.0 y=HEIGHT - 6.0 text-anchor="middle">
                "transfer speedup s (log scale)"
            </text>
            <text class="curve-axis-label" x=14 y=(TOP + BOTTOM) / 2.0 text-anchor="middle"
                transform=format!("rotate(-90 14 {})", (TOP + BOTTOM) / 2.0)>
                "whole-cycle speedup"
            </text>
        </svg>
    }
}
