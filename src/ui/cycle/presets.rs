//! The cycle presets as buttons, so the article's cycles are one click apart inside the view.

use leptos::prelude::*;

use super::{CYCLE_PRESETS, CycleState};

/// One button per cycle preset; the open one is pressed.
#[component]
pub fn CyclePresets() -> impl IntoView {
    let state = expect_context::<CycleState>();
    let buttons = CYCLE_PRESETS
        .iter()
        .map(|&(name, label, _)| {
            let pressed = state.shows_preset(name);
            view! {
                <button
                    type="button"
                    class="cycle-preset"
                    data-testid=format!("cycle-preset-{name}")
                    aria-pressed=move || pressed.get().to_string()
                    on:click=move |_| state.open_preset(name)
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="cycle-presets" role="group" aria-label="Example cycles">
            {buttons}
        </div>
    }
}
