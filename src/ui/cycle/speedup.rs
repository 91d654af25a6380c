//! The transfer speedup `s`: a log slider and a field, or the ratio of two strategies' estimated transfer
//! times for the layout open in the visualizer.

use leptos::prelude::*;

use super::field::{FieldProblems, parse_number, problems_id};
use super::{CycleState, SpeedupSource};
use crate::chart::curve::{SLIDER_STEPS, slider_position, slider_speedup_at};
use crate::chart::readout::decimal;
use crate::core::cycle::{CURVE_MAX_SPEEDUP, CURVE_MIN_SPEEDUP, MAX_SPEEDUP, MIN_SPEEDUP};
use crate::core::plan::Strategy;
use crate::core::traffic::{Estimate, format_seconds, grouped_digits};
use crate::ui::{AppState, describe_change};

/// The speedup's path in the cycle JSON, where its messages are filed.
const SPEEDUP: &str = "speedup";

/// `s` from the layout: `time(from) / time(to)` with both strategies' estimates, or why there is none.
#[derive(Clone, Debug, PartialEq)]
struct LayoutSpeedup {
    speedup: Option<f64>,
    /// Why "to" is estimated slower than "from", when it is and latency is the reason, or that latency is
    /// most of both estimates (a small layout's s is not a large tensor's).
    slower: Option<String>,
    from_seconds: Option<f64>,
    to_seconds: Option<f64>,
    layout: String,
    /// The layout's editors hold a problem (refused or unread): this is the last valid layout.
    stale: bool,
}

/// Provided where the cycle stands alone, with no layout of its own (a docs widget's cycle block).
#[derive(Clone, Copy, Debug)]
pub struct NoLayout;

/// Chooses how `s` is set and sets it.
#[component]
pub fn SpeedupControl() -> impl IntoView {
    let state = expect_context::<CycleState>();
    let app = expect_context::<AppState>();
    let text = RwSignal::new(
        state.unread_text(SPEEDUP).unwrap_or_else(|| decimal(state.spec.with_untracked(|s| s.speedup), 4)),
    );
    // Keep the field in step with s when something else sets it (the slider, a preset, the layout), but
    // never overwrite what the user is typing: only a change of s does, or a new revision, which redraws
    // every field of the cycle from it. Text that is not a number leaves s as it was, and an edit of
    // another field must not replace that text.
    let speedup = Memo::new(move |_| state.spec.with(|spec| spec.speedup));
    Effect::new(move |first: Option<()>| {
        state.revision.track();
        let speedup = speedup.get();
        // A NaN only comes from a link saved by an older version; the field then keeps its text. When the
        // field is drawn, its text is s or text kept while the view was away: nothing changed yet.
        // Text kept through a restructuring (a stage moved) stays too, and an undo step's comes back.
        if first.is_none() {
            return;
        }
        match state.unread_text(SPEEDUP) {
            Some(kept) if kept != text.get_untracked() => text.set(kept),
            Some(_) => {}
            None if speedup.is_finite() && parse_number(&text.get_untracked()) != speedup => {
                text.set(decimal(speedup, 4))
            }
            None => {}
        }
    });
    // A docs widget's cycle block without layout lines: there is no layout to take s from (its stand-in toy
    // gave s = 0.67 from a layout the author never wrote). An embed's link may say s came from the layout:
    // s is the link's number then.
    let no_layout = use_context::<NoLayout>().is_some();
    let layout = Memo::new(move |_| {
        let SpeedupSource::Layout { from, to } = state.speedup_source.get() else { return None };
        if no_layout {
            return None;
        }
        let rows = app.comparison.get();
        let estimate = |strategy: Strategy| rows.iter().find(|row| row.strategy == strategy).map(|row| &row.estimate);
        let (from_seconds, to_seconds) = (estimate(from).map(|e| e.seconds), estimate(to).map(|e| e.seconds));
        // The toy is a few hundred bytes: the model's time is all message latency, and the intersection,
        // which sends each receiver one message per source, comes out slower than a ring.
        // What s would be if bytes bounded both: the ratio of the busiest links' times.
        let by_bytes = |a: &Estimate, b: &Estimate| {
            (b.bandwidth_seconds > 0.0).then(|| a.bandwidth_seconds / b.bandwidth_seconds).map_or_else(
                || "the ratio of the busiest links' loads".to_string(),
                |r| format!("{}× (the ratio of the busiest links' times)", decimal(r, 3)),
            )
        };
        let slower = match (estimate(from), estimate(to)) {
            // Only when latency is why: more of the gap in messages than in bytes (intersection → gather on the
            // large preset is slower by its bytes, with fewer messages).
            (Some(a), Some(b))
                if b.seconds > a.seconds
                    && b.latency_seconds - a.latency_seconds > b.bandwidth_seconds - a.bandwidth_seconds =>
            {
                // A newcomer read "the intersection makes the cycle slower" as the tool's verdict (review 39):
                // what bytes alone would give is said too.
                Some(format!(
                    "Here “{}” is the slower one: this layout moves so few bytes that the estimate is mostly \
                     per-message latency ({} µs × {} messages on the busiest device, against {} for “{}”). If \
                     bytes, not messages, bounded both, as at a model's size, s would be {}.",
                    to.label(),
                    b.latency_us,
                    b.max_messages,
                    a.max_messages,
                    from.label(),
                    by_bytes(a, b),
                ))
            }
            // Faster, but much of either estimate is per-message latency (a small tensor, or many messages
            // per device): s then says little about moving a model's bytes.
            (Some(a), Some(b)) if a.latency_seconds.max(b.latency_seconds) * 4.0 > a.seconds.min(b.seconds) => {
                Some(format!(
                    "Much of each estimate is per-message latency: {} of {} for “{}”, {} of {} for “{}”. If bytes, \
                     not messages, bounded both, s would be {}.",
                    format_seconds(a.latency_seconds),
                    format_seconds(a.seconds),
                    from.label(),
                    format_seconds(b.latency_seconds),
                    format_seconds(b.seconds),
                    to.label(),
                    by_bytes(a, b),
                ))
            }
            _ => None,
        };
        let speedup = match (from_seconds, to_seconds) {
            (Some(a), Some(b)) if a > 0.0 && b > 0.0 && (a / b).is_finite() => Some(a / b),
            _ => None,
        };
        let stale = app.checked.with(Result::is_err) || app.holds_unread_text();
        Some(LayoutSpeedup {
            speedup,
            slower,
            from_seconds,
            to_seconds,
            layout: app.reshard.with(describe_change),
            stale,
        })
    });
    Effect::new(move |_| {
        if let Some(LayoutSpeedup { speedup: Some(s), .. }) = layout.get() {
            state.spec.update(|spec| spec.speedup = s);
        }
    });
    let manual = move || state.speedup_source.get() == SpeedupSource::Manual;
    // Taking s from the layout disables the field: it shows the s in use, not text it can no longer fix.
    Effect::new(move |_| {
        if !manual() && speedup.get_untracked().is_finite() {
            text.set(decimal(speedup.get_untracked(), 4));
            state.set_unread(SPEEDUP, None);
        }
    });
    // The slider shows the s in use: the field's while it holds a speedup the calculator takes, else (0, -2,
    // 1e9) the one the answer still uses, instead of jumping to the slider's end (`abc` never reaches the
    // spec).
    let shown = move || {
        let typed = state.spec.with(|spec| spec.speedup);
        // A number the calculator refuses (1e9) is no s in use either: the slider jumped to its end.
        if (MIN_SPEEDUP..=MAX_SPEEDUP).contains(&typed) {
            typed
        } else {
            state.report.with(|r| r.as_ref().map_or(1.0, |r| r.speedup))
        }
    };
    let set_speedup = move |s: f64| state.spec.update(|spec| spec.speedup = s);
    // The s set by hand while the layout's is in use: back to "Set s", it is the user's again (it stayed at
    // the layout's 0.6667, and the answer read "Refit got 1.5× slower").
    let set_by_hand = StoredValue::new(None::<f64>);
    let take_from_layout = move |_| {
        if manual() {
            set_by_hand.set_value(Some(state.spec.with_untracked(|spec| spec.speedup)));
        }
        state.speedup_source.set(SpeedupSource::Layout { from: Strategy::Gather, to: Strategy::Intersection });
    };
    let set_s = move |_| {
        state.speedup_source.set(SpeedupSource::Manual);
        if let Some(s) = set_by_hand.get_value().filter(|s| s.is_finite() && *s > 0.0) {
            set_speedup(s);
            text.set(decimal(s, 4));
        }
    };
    view! {
        <fieldset class="cycle-fieldset" data-testid="speedup-control">
            <legend class="cycle-legend">"Transfer speedup s"</legend>
            <div class="speedup-source" role="radiogroup" aria-label="Where s comes from" hidden=no_layout>
                <label>
                    <input
                        type="radio"
                        name="cycle-speedup-source"
                        prop:checked=manual
                        data-testid="speedup-manual"
                        on:change=set_s
                    />
                    " Set s"
                </label>
                <label>
                    <input
                        type="radio"
                        name="cycle-speedup-source"
                        prop:checked=move || !manual()
                        data-testid="speedup-from-layout"
                        on:change=take_from_layout
                    />
                    " Take s from the layout"
                </label>
            </div>
            <div class="speedup-manual">
                <input
                    type="range"
                    class="speedup-slider"
                    min="0"
                    max=SLIDER_STEPS.to_string()
                    step="1"
                    aria-label="Transfer speedup s, logarithmic from 0.1 to 100"
                    aria-valuetext=move || format!("s = {}", decimal(shown(), 4))
                    data-testid="speedup-slider"
                    disabled=move || !manual()
                    prop:value=move || slider_position(shown()).round().to_string()
                    on:input=move |ev| {
                        let s = slider_speedup_at(parse_number(&event_target_value(&ev)));
                        text.set(decimal(s, 4));
                        state.set_unread(SPEEDUP, None);
                        set_speedup(s);
                    }
                />
                <label class="speedup-field">
                    <span>"s ="</span>
                    <input
                        type="text"
                        inputmode="decimal"
                        class="cycle-number"
                        aria-label="Transfer speedup s"
                        aria-invalid=move || (!state.problems_at(SPEEDUP).is_empty()).to_string()
                        aria-describedby=problems_id(SPEEDUP)
                        data-testid="speedup-input"
                        disabled=move || !manual()
                        prop:value=move || text.get()
                        on:input=move |ev| {
                            let typed = event_target_value(&ev);
                            text.set(typed.clone());
                            state.read_field(SPEEDUP, &typed, ("a speedup such as 4", &['x', '×']), set_speedup);
                        }
                    />
                </label>
                <div class="slider-ticks" aria-hidden="true">
                    <span>"0.1×"</span>
                    <span>"1×"</span>
                    <span>"10×"</span>
                    <span>"100×"</span>
                </div>
            </div>
            <FieldProblems path=SPEEDUP.to_string()/>
            // Taken, but past the slider's ends: the slider stood at its end beside an answer for 0.001 with
            // nothing to say the two differ (review 50).
            {move || {
                let s = state.spec.with(|spec| spec.speedup);
                (manual() && (MIN_SPEEDUP..=MAX_SPEEDUP).contains(&s) && !(CURVE_MIN_SPEEDUP..=CURVE_MAX_SPEEDUP).contains(&s))
                    .then(|| view! {
                        <p class="cycle-hint" data-testid="speedup-beyond">
                            {format!("s = {} is past the slider's and the curve's 0.1× to 100×: they stop at their end; the answer takes it as typed.", decimal(s, 4))}
                        </p>
                    })
            }}
            {move || layout.get().map(|found| view! { <LayoutSource found/> })}
        </fieldset>
    }
}

/// The two strategies compared and the ratio taken from them, with the layout it came from.
#[component]
fn LayoutSource(found: LayoutSpeedup) -> impl IntoView {
    let state = expect_context::<CycleState>();
    let SpeedupSource::Layout { from, to } = state.speedup_source.get_untracked() else {
        return ().into_any();
    };
    let choose = move |is_from: bool| {
        move |ev: leptos::ev::Event| {
            let Some(strategy) = Strategy::parse(&event_target_value(&ev)) else { return };
            state.speedup_source.update(|source| {
                if let SpeedupSource::Layout { from, to } = source {
                    if is_from { *from = strategy } else { *to = strategy }
                }
            });
        }
    };
    let options = move |selected: Strategy| {
        Strategy::ALL
            .into_iter()
            .map(|s| view! { <option value=s.name() selected=s == selected>{s.label()}</option> })
            .collect_view()
    };
    let time = |seconds: Option<f64>| seconds.map_or_else(|| "no estimate".to_string(), format_seconds);
    let explanation = match found.speedup {
        // As many digits as the s field shows (0.6667 there, 0.667× here read as two numbers).
        Some(s) => {
            format!(
                "s\u{a0}=\u{a0}{} / {} = {}×",
                time(found.from_seconds),
                time(found.to_seconds),
                grouped_digits(&decimal(s, 4))
            )
        }
        None => "These two strategies give no usable ratio for this layout; s keeps its last value.".into(),
    };
    view! {
        <div class="layout-source" data-testid="speedup-layout-source">
            <label class="layout-pick">
                <span>"From"</span>
                <select aria-label="Strategy before" data-testid="speedup-from" on:change=choose(true)>
                    {options(from)}
                </select>
            </label>
            <label class="layout-pick">
                <span>"to"</span>
                <select aria-label="Strategy after" data-testid="speedup-to" on:change=choose(false)>
                    {options(to)}
                </select>
            </label>
            <p class="layout-ratio" data-testid="speedup-layout-ratio">{explanation}</p>
            {found.slower.map(|why| {
                // Two notes, told apart: s below 1 because of latency, or latency only weighing on s.
                let id = if why.starts_with("Much of") { "speedup-layout-latency" } else { "speedup-layout-slower" };
                view! { <p class="cycle-hint" data-testid=id>{why}</p> }
            })}
            <p class="cycle-hint muted">
                "Estimated transfer times of the layout open in the visualizer: " {found.layout}
            </p>
            // Said when the layout's editors hold a problem: s is of the last valid change (review 34).
            {found.stale.then(|| view! {
                <p class="cycle-hint cycle-stale" data-testid="speedup-layout-stale">
                    "The layout's editors hold a problem: this is the last valid layout, not what is typed there."
                </p>
            })}
        </div>
    }
    .into_any()
}
