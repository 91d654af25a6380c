//! The stage editor: one row per stage of the cycle (name, seconds, overlap with the previous stage, which
//! one is the refit), with add, remove and reorder.

use leptos::prelude::*;

use wasm_bindgen::JsCast;

use super::CycleState;
use super::field::{FieldProblems, NumberField};
use crate::chart::palette::stage_colours;
use crate::core::cycle::{CycleSpec, MAX_STAGES, Stage};
use crate::core::spec::for_display;
use crate::ui::focus::{after_render, focus_test_id};

/// The stages as rows. The rows are redrawn from the spec only when the structure changes
/// ([`CycleState::revision`]); edits write straight into the spec.
#[component]
pub fn StageEditor() -> impl IntoView {
    let state = expect_context::<CycleState>();
    // What a move or a removal did, said: the focus follows the stage, but nothing said where it went.
    let moved = RwSignal::new(String::new());
    let rows = move || {
        state.revision.track();
        let stages = state.spec.with_untracked(|spec| spec.stages.clone());
        let count = stages.len();
        stages
            .into_iter()
            .enumerate()
            .map(|(index, stage)| view! { <StageRow index count stage moved/> })
            .collect_view()
    };
    let add = move |_| {
        state.restructure(
            |spec| {
                let number = spec.stages.len() + 1;
                spec.stages.push(Stage::new(format!("stage {number}"), 10.0));
            },
            Some,
        );
        let last = state.spec.with_untracked(|spec| spec.stages.len().saturating_sub(1));
        focus_in_row(last, &["stage-name"]);
    };
    view! {
        <fieldset class="cycle-fieldset" data-testid="stage-editor">
            <legend class="cycle-legend">"Stages of one cycle"</legend>
            <p class="cycle-hint muted">
                "In the order they run. Overlap: seconds a stage starts before the previous one ends, as \
                 measured. After a speedup, a stage overlapping the refit starts once the same share of its \
                 transfer has arrived; a refit overlapping the stage before it sends, meanwhile, the weights \
                 that stage makes as it makes them, so only its rest gets faster."
            </p>
            <div class="stage-head" aria-hidden="true">
                <span>"Stage"</span>
                <span>"Seconds"</span>
                <span>"Overlap"</span>
                <span>"Refit"</span>
                <span></span>
            </div>
            <ol class="stage-rows">{rows}</ol>
            <crate::ui::announce::Announcer text=moved.into() test_id="stage-announce"/>
            <FieldProblems path="stages".to_string()/>
            {move || state.spec.with(CycleSpec::shared_names).into_iter().map(|(name, at)| {
                let mut numbers: Vec<String> = at.iter().map(|i| (i + 1).to_string()).collect();
                let last = numbers.pop().unwrap_or_default();
                let (list, all) = (format!("{} and {last}", numbers.join(", ")), if at.len() == 2 { "both" } else { "all" });
                view! {
                    <p class="cycle-hint muted" data-testid="stage-names-shared">
                        {format!(
                            "Stages {list} are {all} named “{}”: measured times name a stage by its name, and would \
                             read them as one.",
                            for_display(&name)
                        )}
                    </p>
                }
            }).collect_view()}
            <button
                type="button"
                class="cycle-button"
                data-testid="stage-add"
                disabled=move || { state.spec.with(|s| s.stages.len() >= MAX_STAGES) }
                on:click=add
            >
                "+ Add a stage"
            </button>
        </fieldset>
    }
}

/// Puts the focus on the first enabled control of `test_ids` in row `row`, once the rows are redrawn.
///
/// A restructure (add, move, remove) redraws every row, which dropped the focus on the page: a second
/// Enter on "Move down" did nothing, or worse, moved the stage that took the row's place. The focus follows
/// the stage instead.
fn focus_in_row(row: usize, test_ids: &'static [&'static str]) {
    after_render(move |document| {
        let Ok(rows) = document.query_selector_all("[data-testid=stage-editor] [data-testid=stage-row]") else {
            return;
        };
        let Some(row) = rows.item(row as u32) else { return };
        let enabled = |id: &str| {
            row.dyn_ref::<web_sys::Element>()
                .and_then(|r| r.query_selector(&format!("[data-testid={id}]:not([disabled])")).ok().flatten())
                .is_some()
        };
        if let Some(id) = test_ids.iter().copied().find(|id| enabled(id)) {
            focus_test_id(&row, id);
        }
    });
}

/// A stage as the page reads it out: its name, or its place when it has none.
fn stage_name(spec: &CycleSpec, index: usize) -> String {
    match spec.stages.get(index).map(|s| s.name.trim()) {
        Some(name) if !name.is_empty() => for_display(name),
        _ => format!("stage {}", index + 1),
    }
}

/// Where stage `index` now stands, e.g. "refit moved: stage 3 of 4, after scoring.".
fn placed(spec: &CycleSpec, index: usize) -> String {
    let count = spec.stages.len();
    let after = match index {
        0 => "first".to_string(),
        _ => format!("after {}", stage_name(spec, index - 1)),
    };
    format!("{} moved: stage {} of {count}, {after}.", stage_name(spec, index), index + 1)
}

/// One stage: its fields, the problems under each, and the buttons that move or remove it.
#[component]
fn StageRow(
    /// Position in the cycle.
    index: usize,
    /// How many stages there are (the last cannot move down).
    count: usize,
    /// The stage as it was when the row was drawn.
    stage: Stage,
    /// Where the words saying what a move or a removal did go.
    moved: RwSignal<String>,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    let path = format!("stages[{index}]");
    let edit = move |change: Box<dyn Fn(&mut Stage)>| {
        state.spec.update(|spec| {
            if let Some(stage) = spec.stages.get_mut(index) {
                change(stage);
            }
        })
    };
    let invalid = move |field: &'static str| {
        let path = format!("stages[{index}].{field}");
        Signal::derive(move || !state.problems_at(&path).is_empty())
    };
    let is_refit = move || state.spec.with(|spec| spec.refit_index() == Some(index));
    let name = stage.name.clone();
    // The stage's name as typed since the row was drawn: the controls' accessible names follow a rename.
    // A stage with no name yet is read out by its place ("Remove stage 2", not "Remove ").
    let named = move |label: fn(&str) -> String| {
        // As the page shows a refused name: a direction control in it would reorder the words around it in
        // the control's name too.
        Signal::derive(move || state.spec.with(|spec| label(&stage_name(spec, index))))
    };
    // Follows renames and the refit mark, which edit the spec without redrawing the row.
    let colour = move || {
        state.spec.with(|spec| {
            let names: Vec<&str> = spec.stages.iter().map(|s| s.name.as_str()).collect();
            stage_colours(&names, spec.refit_index()).get(index).copied().unwrap_or("none")
        })
    };
    let swap = move |other: usize, keep: &'static [&'static str]| {
        let valid = state.spec.with_untracked(|spec| other < spec.stages.len() && index < spec.stages.len());
        state.restructure(
            |spec| {
                if valid {
                    spec.stages.swap(index, other);
                }
            },
            // The two stages trade places; the others stay.
            |i| {
                Some(if !valid {
                    i
                } else if i == index {
                    other
                } else if i == other {
                    index
                } else {
                    i
                })
            },
        );
        if valid {
            moved.set(state.spec.with_untracked(|spec| placed(spec, other)));
        }
        focus_in_row(other, keep);
    };
    view! {
        <li class="stage-row" data-testid="stage-row">
            <span class="stage-swatch">
                <svg viewBox="0 0 10 10" aria-hidden="true" class="swatch-svg">
                    <rect width="10" height="10" rx="2" fill=colour data-testid="stage-colour"></rect>
                </svg>
            </span>
            <input
                type="text"
                class="stage-name"
                prop:value=name
                // The field shows ~14 characters beside the numbers; a longer name is read whole on hover.
                title=named(str::to_string)
                aria-label=format!("Stage {} name", index + 1)
                aria-invalid=move || invalid("name").get().to_string()
                aria-describedby=super::field::described_by(&format!("{path}.name"), None)
                data-testid="stage-name"
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    state.spec.update(|spec| {
                        // The refit stays where its radio shows through any rename, marked: renamed ("weight
                        // sync"), the refit by its name left the cycle without one, and another stage renamed
                        // "refit" made two, un-marking the radio.
                        let refit = spec.refit_index();
                        if let Some(stage) = spec.stages.get_mut(index) {
                            stage.name = text;
                        }
                        if let Some(stage) = refit.and_then(|r| spec.stages.get_mut(r))
                            && stage.refit.is_none()
                        {
                            stage.refit = Some(true);
                        }
                    });
                }
            />
            <NumberField
                value=stage.seconds
                label=named(|name| format!("{name} seconds"))
                test_id="stage-seconds".to_string()
                invalid=invalid("seconds")
                path=format!("{path}.seconds")
                on_change=Callback::new(move |v| edit(Box::new(move |stage| stage.seconds = v)))
            />
            <NumberField
                value=stage.overlap
                label=named(|name| format!("{name} overlap with the previous stage, seconds"))
                test_id="stage-overlap".to_string()
                invalid=invalid("overlap")
                path=format!("{path}.overlap")
                // The first stage has none before it to overlap: any value there is an error, so the field
                // is locked at 0 (left open when a file gave it another value, to be put right).
                // A cycle repeats: overlapping the previous cycle's last stage is done by moving it to the top.
                locked=(index == 0 && stage.overlap == 0.0).then_some(
                    "The first stage has no stage before it to overlap. To start it while the previous cycle's last \
                     stage still runs (generation during the refit), move that stage to the top, as the \
                     “Generation overlaps refit” preset does.",
                )
                on_change=Callback::new(move |v| edit(Box::new(move |stage| stage.overlap = v)))
            />
            <input
                type="radio"
                name="cycle-refit-stage"
                class="stage-refit"
                aria-label=named(|name| format!("{name} is the refit"))
                data-testid="stage-refit"
                prop:checked=is_refit
                on:change=move |_| {
                    state.spec.update(|spec| {
                        for (i, stage) in spec.stages.iter_mut().enumerate() {
                            stage.refit = (i == index).then_some(true);
                        }
                    })
                }
            />
            <span class="stage-actions">
                <button
                    type="button"
                    class="icon-button"
                    aria-label=named(|name| format!("Move {name} up"))
                    title="Move up"
                    data-testid="stage-up"
                    disabled={index == 0}
                    on:click=move |_| swap(index.wrapping_sub(1), &["stage-up", "stage-down"])
                >
                    "↑"
                </button>
                <button
                    type="button"
                    class="icon-button"
                    aria-label=named(|name| format!("Move {name} down"))
                    title="Move down"
                    data-testid="stage-down"
                    disabled={index + 1 >= count}
                    on:click=move |_| swap(index + 1, &["stage-down", "stage-up"])
                >
                    "↓"
                </button>
                <button
                    type="button"
                    class="icon-button"
                    aria-label=named(|name| format!("Remove {name}"))
                    // Why it cannot, on the last stage (the disabled button said "Remove" and nothing else).
                    title=if count <= 1 { "A cycle keeps at least one stage" } else { "Remove" }
                    data-testid="stage-remove"
                    disabled={count <= 1}
                    on:click=move |_| {
                        let gone = state.spec.with_untracked(|spec| stage_name(spec, index));
                        state.restructure(
                            |spec| {
                                if index < spec.stages.len() {
                                    spec.stages.remove(index);
                                }
                            },
                            |i| match i.cmp(&index) {
                                std::cmp::Ordering::Less => Some(i),
                                std::cmp::Ordering::Equal => None,
                                std::cmp::Ordering::Greater => Some(i - 1),
                            },
                        );
                        // The stage that took its place, or the new last one; with one left, its name.
                        let left = state.spec.with_untracked(|spec| spec.stages.len());
                        moved.set(format!("{gone} removed: {left} stage{} left.", if left == 1 { "" } else { "s" }));
                        focus_in_row(index.min(left.saturating_sub(1)), &["stage-remove", "stage-name"]);
                    }
                >
                    "×"
                </button>
            </span>
            <div class="stage-problems">
                <FieldProblems path=format!("{path}.name")/>
                <FieldProblems path=format!("{path}.seconds")/>
                <FieldProblems path=format!("{path}.overlap")/>
                <FieldProblems path=format!("{path}.refit")/>
            </div>
        </li>
    }
}
