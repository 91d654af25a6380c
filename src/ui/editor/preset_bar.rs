//! The named presets as real links (`?preset=NAME`, stable for tests, docs and reviews) that also open in
//! place, with the current one marked.

use leptos::prelude::*;

use crate::core::model::Reshard;
use crate::core::presets::{PRESETS, Preset, build, find};
use crate::core::spec::parse_input;
use crate::ui::{AppState, url_state};

/// Opens `preset` in place: the spec becomes the preset's (the core re-plans). Also what Back or Forward
/// to a preset's address does (`url_state`).
pub(crate) fn open(state: AppState, preset: &Preset) {
    if let Ok(input) = parse_input(preset.spec) {
        state.replace_input(input);
    }
}

/// The named presets, as links that open `?preset=NAME` (in place when clicked).
#[component]
pub fn PresetBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Presets are fixed text; build each once to recognise the current change.
    let built: Vec<(&'static str, Reshard)> = PRESETS.iter().map(|p| (p.name, build(p))).collect();
    let current = Memo::new(move |_| {
        state.checked.with(|checked| {
            checked.as_ref().ok().and_then(|r| built.iter().find(|(_, b)| b == r).map(|(name, _)| *name))
        })
    });
    view! {
        <nav class="preset-bar" aria-label="Presets" data-testid="preset-bar">
            <span class="preset-bar-label" aria-hidden="true">"Presets"</span>
            <ul class="preset-list">
                {PRESETS
                    .iter()
                    .map(|preset| {
                        let name = preset.name;
                        let is_current = move || current.get() == Some(name);
                        view! {
                            <li>
                                <a
                                    class="preset-link"
                                    class:preset-current=is_current
                                    href=format!("?preset={name}")
                                    title=preset.title
                                    aria-current=move || is_current().then_some("true")
                                    data-testid=format!("preset-{name}")
                                    on:click=move |ev| {
                                        // A modified click opens a new tab as any link would.
                                        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
                                            return;
                                        }
                                        ev.prevent_default();
                                        if let Some(preset) = find(name) {
                                            // The address first: an edit still settling is written before it.
                                            url_state::push_address(&format!("?preset={name}"));
                                            open(state, preset);
                                        }
                                    }
                                >
                                    {name}
                                </a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <p class="preset-title" data-testid="preset-title">
                {move || current.get().and_then(find).map_or("Edited: not a preset", |p| p.title)}
            </p>
        </nav>
    }
}
