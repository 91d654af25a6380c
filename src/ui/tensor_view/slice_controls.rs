//! For tensors of rank > 2: which two dims are drawn, and the index shown along every other dim.

use leptos::prelude::*;

use crate::ui::{AppState, format_count};

/// Two selects (rows, columns) and a slider per remaining dim; nothing for rank ≤ 2.
#[component]
pub fn SliceControls() -> impl IntoView {
    let state = expect_context::<AppState>();
    let shape = Memo::new(move |_| {
        let tensor = state.view.with(|v| v.tensor);
        state.reshard.with(|r| r.tensors.get(tensor).or(r.tensors.first()).map(|t| t.shape.clone()).unwrap_or_default())
    });
    let dims = Memo::new(move |_| state.view.with(|v| (v.row_dim, v.col_dim)));
    move || {
        let shape = shape.get();
        (shape.len() > 2).then(|| {
            let rank = shape.len();
            let pick = move |row: bool, value: usize| {
                state.view.update(|v| {
                    let (mine, other) = if row { (&mut v.row_dim, v.col_dim) } else { (&mut v.col_dim, v.row_dim) };
                    let previous = *mine;
                    *mine = value;
                    // Picking the other axis's dim swaps the two.
                    if value == other {
                        if row { v.col_dim = previous } else { v.row_dim = previous }
                    }
                });
            };
            let options = move |selected: usize| {
                (0..rank)
                    .map(|d| view! { <option value=d.to_string() selected=d == selected>{format!("dim {d}")}</option> })
                    .collect::<Vec<_>>()
            };
            let (row_dim, col_dim) = dims.get();
            let sliders = (0..rank)
                .filter(|&d| d != row_dim && d != col_dim)
                .map(|d| {
                    let extent = shape[d];
                    let value = move || state.view.with(|v| v.slice.get(d).copied().unwrap_or(0));
                    view! {
                        <label class="slice-slider">
                            <span>{format!("dim {d} at")}</span>
                            <input
                                type="range"
                                min="0"
                                max=extent.saturating_sub(1).to_string()
                                prop:value=move || value().to_string()
                                aria-label=format!("index along dim {d}")
                                data-testid=format!("slice-dim-{d}")
                                on:input=move |ev| {
                                    let index = event_target_value(&ev).parse().unwrap_or(0);
                                    state.view.update(|v| if let Some(s) = v.slice.get_mut(d) { *s = index });
                                }
                            />
                            <output class="mono">{move || format!("{} of {}", format_count(value()), format_count(extent))}</output>
                        </label>
                    }
                })
                .collect::<Vec<_>>();
            view! {
                // Knobs, not picture: out of an export, where they left a blank band; the
                // subtitle says the slice.
                <div class="slice-controls" data-testid="slice-controls" data-export="skip">
                    <label>
                        "Rows: "
                        <select on:change=move |ev| pick(true, event_target_value(&ev).parse().unwrap_or(0)) data-testid="row-dim">
                            {options(row_dim)}
                        </select>
                    </label>
                    <label>
                        "Columns: "
                        <select on:change=move |ev| pick(false, event_target_value(&ev).parse().unwrap_or(0)) data-testid="col-dim">
                            {options(col_dim)}
                        </select>
                    </label>
                    {sliders}
                </div>
            }
        })
    }
}
