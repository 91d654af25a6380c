//! Editors for the change: the preset bar, a Tensor card, Source and Destination cards side by side (each
//! with its layout as text), and a Topology card. Every edit writes `AppState::input`; the core's check
//! runs in `AppState::checked`, and each of its messages is shown under the field it names while the
//! pictures keep the last valid change.

mod dim_rows;
pub(crate) mod field;
mod layout_text;
mod preset_bar;
mod side_card;
mod tensor_card;
mod topology_card;

use leptos::prelude::*;

pub use field::FieldDrafts;
pub use preset_bar::PresetBar;
pub(crate) use preset_bar::open as open_preset;

use super::AppState;
use crate::core::spec_edit::{SpecField, field_of, tensor_count};
use side_card::SideCard;
use tensor_card::TensorCard;
use topology_card::TopologyCard;

/// One problem of the current input, placed: the field it belongs to (if the form shows it), its path and
/// the core's message.
#[derive(Clone, Debug, PartialEq)]
struct PlacedProblem {
    field: Option<SpecField>,
    path: String,
    message: String,
}

/// What the cards share: which tensor they edit and the current problems, placed once per check.
#[derive(Clone, Copy)]
pub(crate) struct EditorContext {
    pub state: AppState,
    /// The tensor the cards edit: the viewed tensor of an inventory, else 0.
    pub index: Memo<usize>,
    problems: Memo<Vec<PlacedProblem>>,
}

impl EditorContext {
    fn new(state: AppState) -> EditorContext {
        let index = Memo::new(move |_| {
            let count = state.input.with(tensor_count);
            state.view.with(|v| v.tensor).min(count.saturating_sub(1))
        });
        let problems = Memo::new(move |_| {
            state.checked.with(|checked| match checked {
                Ok(_) => Vec::new(),
                Err(error) => {
                    let index = index.get();
                    state.input.with_untracked(|input| {
                        error
                            .problems
                            .iter()
                            .map(|p| PlacedProblem {
                                field: field_of(&p.path, input, index),
                                path: p.path.clone(),
                                message: p.message.clone(),
                            })
                            .collect()
                    })
                }
            })
        });
        EditorContext { state, index, problems }
    }

    /// Edits the spec as typed, given the edited tensor's index. The index is read before the spec is
    /// locked for writing: it is a memo of the spec, and after an earlier edit in the same task (a script
    /// that fires two events at once) reading it inside the update would recompute it against the locked
    /// spec, which panics and kills the page.
    pub fn edit(self, change: impl FnOnce(&mut crate::core::spec::SpecInput, usize)) {
        let index = self.index.get_untracked();
        self.state.input.update(|input| change(input, index));
    }

    /// The core's messages for the fields `matches` accepts.
    pub fn messages(self, matches: impl Fn(SpecField) -> bool + Send + Sync + 'static) -> Signal<Vec<String>> {
        let problems = self.problems;
        Signal::derive(move || {
            problems
                .with(|list| list.iter().filter(|p| p.field.is_some_and(&matches)).map(|p| p.message.clone()).collect())
        })
    }

    /// The core's messages for one field.
    pub fn messages_for(self, field: SpecField) -> Signal<Vec<String>> {
        self.messages(move |f| f == field)
    }
}

/// How many problems the editors hold (refused values and text that does not parse), published for the
/// results beside them: while there are any, the pictures and numbers are of the last valid change.
#[derive(Clone, Copy)]
pub struct EditorProblems(pub RwSignal<usize>);

/// The cards that describe the change, and a status line saying whether the pictures are current.
#[component]
pub fn Editors() -> impl IntoView {
    let state = expect_context::<AppState>();
    let editor = EditorContext::new(state);
    provide_context(editor);
    let unread = field::UnreadFields(RwSignal::new(0));
    provide_context(unread);
    let count = move || editor.problems.with(Vec::len) + unread.0.get();
    if let Some(published) = use_context::<EditorProblems>() {
        Effect::new(move |_| published.0.set(count()));
        on_cleanup(move || published.0.set(0));
    }
    let unplaced = move || {
        editor.problems.with(|list| {
            list.iter()
                .filter(|p| p.field.is_none())
                .map(|p| if p.path.is_empty() { p.message.clone() } else { format!("{}: {}", p.path, p.message) })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="editor-cards" data-testid="editors">
            <p
                class={move || if count() > 0 { "editor-status editor-status-invalid" } else { "editor-status" }}
                role="status"
                data-testid="editor-status"
            >
                {move || match count() {
                    0 => "Every edit re-plans at once.".to_string(),
                    1 => "1 problem: the pictures show the last valid change.".to_string(),
                    n => format!("{n} problems: the pictures show the last valid change."),
                }}
            </p>
            <ul class="field-problems" data-testid="problems-other" aria-live="polite">
                {move || unplaced().into_iter().map(|m| view! { <li class="field-problem">{m}</li> }).collect_view()}
            </ul>
            <TensorCard/>
            <div class="side-cards">
                <SideCard side=crate::core::spec_edit::SideName::Source/>
                <SideCard side=crate::core::spec_edit::SideName::Destination/>
            </div>
            <TopologyCard/>
        </div>
    }
}
