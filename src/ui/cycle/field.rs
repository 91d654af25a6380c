//! A number field that keeps exactly what was typed, and the core's messages under a field.

use leptos::prelude::*;

use super::CycleState;
use crate::core::spec::for_display;

/// The number in `text`, or NaN when there is none: for comparing a field's text with a number and for the
/// slider's position, never for a value that goes into the spec (see [`CycleState::read_field`]).
pub fn parse_number(text: &str) -> f64 {
    text.trim().parse::<f64>().unwrap_or(f64::NAN)
}

/// A text field for seconds. It is not bound back to the spec: what the user types stays on screen even
/// when it is not a number (the spec then keeps the last number and the field says why, see
/// [`CycleState::read_field`]), and comes back when the view does; the editors redraw it from the spec
/// only when the cycle is replaced or restructured. It sets the `value` property, not the attribute: a
/// field once typed into ignores its attribute, and kept showing the old number after a move or a preset.
#[component]
pub fn NumberField(
    /// The value shown when the field is drawn.
    value: f64,
    /// The accessible name, e.g. "generation seconds" (it follows a renamed stage).
    #[prop(into)]
    label: Signal<String>,
    /// The field's `data-testid`.
    test_id: String,
    /// Called with every edit that is a number, with that number (finite).
    on_change: Callback<f64>,
    /// Marks the field invalid for assistive technology.
    #[prop(into)]
    invalid: Signal<bool>,
    /// The field's path in the cycle JSON: its messages ([`FieldProblems`] of the same path) describe it.
    path: String,
    /// Why the field cannot be edited, when it cannot (shown as its tooltip; the field is disabled).
    #[prop(default = None)]
    locked: Option<&'static str>,
    /// The path of a problem of several fields together (the refit's parts must add up to it), whose
    /// messages describe this field too.
    #[prop(optional)]
    group: Option<&'static str>,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    // Text that was not a number when the field was last drawn (before a visit to another view) comes back.
    let text = state
        .unread_text(&path)
        .unwrap_or_else(|| if value.is_finite() { crate::chart::readout::decimal(value, 6) } else { String::new() });
    let read_path = path.clone();
    view! {
        <input
            type="text"
            inputmode="decimal"
            class="cycle-number"
            prop:value=text
            aria-label=label
            aria-describedby=described_by(&path, group)
            aria-invalid=move || invalid.get().to_string()
            data-testid=test_id
            disabled=locked.is_some()
            title=locked
            on:input=move |ev| {
                state.read_field(&read_path, &event_target_value(&ev), SECONDS, |seconds| on_change.run(seconds))
            }
        />
    }
}

/// What a seconds field takes, for the end of its message when its text is not a number.
pub const SECONDS: (&str, &[char]) = ("a number of seconds", &['s']);

/// The id of the messages about the field at `path`, for its `aria-describedby`.
pub fn problems_id(path: &str) -> String {
    format!("cycle-problems-{}", crate::ui::editor::field::slug(path))
}

/// The ids of the messages about the field at `path` and, after them, about its `group`.
pub fn described_by(path: &str, group: Option<&str>) -> String {
    match group {
        Some(group) => format!("{} {}", problems_id(path), problems_id(group)),
        None => problems_id(path),
    }
}

/// The messages for the field at `path` ([`CycleState::problems_at`]), under it (nothing when it is fine),
/// in an element the field names with `aria-describedby` (laid out as if it were not there:
/// `display: contents`).
#[component]
pub fn FieldProblems(
    /// The field's path in the cycle JSON, e.g. `stages[1].overlap`.
    path: String,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    let for_path = path.clone();
    let problems = Memo::new(move |_| state.problems_at(&for_path));
    let id = problems_id(&path);
    let messages = move || {
        let path = path.clone();
        problems
            .get()
            .into_iter()
            .map(|message| {
                view! {
                    <p class="field-problem" data-testid="field-problem" data-path=path.clone()>
                        {for_display(&message)}
                    </p>
                }
            })
            .collect_view()
    };
    // Polite, as the layout editor's: an alert interrupted the reader at each key of "0.25" ("s must be
    // greater than 0, not 0").
    view! { <div class="field-problems-of" id=id aria-live="polite">{messages}</div> }
}
