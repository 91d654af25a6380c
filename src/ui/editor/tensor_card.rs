//! The Tensor card: name, shape (rank 1–8, a stepper per dim) and split rule; for an inventory, which
//! tensor the cards edit.

use leptos::prelude::*;

use super::EditorContext;
use super::dim_rows::{DimRows, RemoveDimButton};
use super::field::{FieldProblems, IntegerField};
use crate::core::spec_edit::{
    MAX_DIMS, SpecField, add_tensor_dim, remove_tensor_dim, set_tensor_dim, set_tensor_name, tensor, tensor_count,
};
use crate::ui::ViewChoice;

/// The largest size a stepper reaches (typing may go further; the core checks the bytes fit).
const MAX_STEP: i64 = 1 << 40;

/// The shared tensor of the change.
#[component]
pub fn TensorCard() -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let index = editor.index;
    let rank = Memo::new(move |_| state.input.with(|input| tensor(input, index.get()).map_or(0, |t| t.shape.len())));
    let name = Memo::new(move |_| {
        state.input.with(|input| tensor(input, index.get()).and_then(|t| t.name.clone()).unwrap_or_default())
    });
    let split = Memo::new(move |_| {
        state.input.with(|input| match input.split.as_deref().map(str::trim) {
            Some("balanced") | Some("array_split") => "balanced",
            _ => "chunk",
        })
    });
    let name_messages = editor.messages_for(SpecField::TensorName);
    let rows = DimRows::new(rank);
    let card_messages = editor.messages(|f| {
        matches!(f, SpecField::Tensor | SpecField::TensorShape | SpecField::TensorDtype | SpecField::ConvertAt)
    });
    let removed = removal_note(editor);
    provide_context(removed);

    view! {
        <section class="editor-card tensor-card" aria-labelledby="tensor-card-title" data-testid="tensor-card">
            <h2 class="card-title" id="tensor-card-title">"Tensor"</h2>
            <InventoryPicker/>
            <div class="labelled-field">
                <label class="field-label" for="field-tensor-name">"Name"</label>
                <input
                    id="field-tensor-name"
                    type="text"
                    class="text-input mono"
                    spellcheck="false"
                    data-testid="field-tensor-name"
                    aria-invalid=move || (!name_messages.with(Vec::is_empty)).to_string()
                    aria-describedby="problems-tensor-name"
                    prop:value=move || name.get()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        editor.edit(|input, index| set_tensor_name(input, index, &text));
                    }
                />
                <FieldProblems id="problems-tensor-name".to_string() messages=name_messages/>
            </div>
            <fieldset class="dims">
                <legend class="field-label">"Shape " <span class="muted">"(one size per tensor dim)"</span></legend>
                <div class="dim-list">
                    // Keyed by the edited tensor too: another tensor of an inventory gets fresh fields (text
                    // typed for one tensor's dim, not yet a number, followed every tensor of the same size).
                    <For
                        each=move || {
                            let tensor = index.get();
                            rows.ids().into_iter().map(move |id| (tensor, id)).collect::<Vec<_>>()
                        }
                        key=|row| *row
                        let((_, id))
                    >
                        <TensorDimBlock dim=rows.dim(id) rows=rows rank=rank/>
                    </For>
                </div>
                <button
                    type="button"
                    class="add"
                    data-testid="add-tensor-dim"
                    disabled={move || rank.get() >= MAX_DIMS}
                    // A greyed button says why (a user at rank 8 saw it stop with no word).
                    title=move || (rank.get() >= MAX_DIMS).then(|| format!("A tensor has at most {MAX_DIMS} dims"))
                    on:click=move |_| editor.edit(add_tensor_dim)
                >
                    "+ tensor dim"
                </button>
                {move || removed.text.get().map(|text| view! {
                    <p class="field-note" role="status" data-testid="removed-dim-note">{text}</p>
                })}
            </fieldset>
            <div class="labelled-field">
                <label class="field-label" for="field-split">"Split rule"</label>
                <select
                    id="field-split"
                    class="select"
                    aria-describedby="problems-split"
                    data-testid="field-split"
                    prop:value=move || split.get()
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        state.input.update(|input| input.split = (value == "balanced").then(|| value.clone()));
                    }
                >
                    <option value="chunk" selected=move || split.get() == "chunk">"torch.chunk (DTensor)"</option>
                    <option value="balanced" selected=move || split.get() == "balanced">"balanced (numpy array_split)"</option>
                </select>
                <FieldProblems id="problems-split".to_string() messages=editor.messages_for(SpecField::Split)/>
            </div>
            <FieldProblems id="problems-tensor".to_string() messages=card_messages/>
        </section>
    }
}

/// One tensor dim: its size (a stepper) and a button that removes it. `dim` follows the row when a dim
/// before it is removed.
#[component]
fn TensorDimBlock(dim: Signal<usize>, rows: DimRows, rank: Memo<usize>) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let removed = expect_context::<RemovalNote>();
    let state = editor.state;
    let index = editor.index;
    view! {
        <div class="dim-block" data-testid=move || format!("tensor-dim-{}", dim.get())>
            <span class="dim-caption">{move || format!("dim {}", dim.get())}</span>
            <IntegerField
                label=Signal::derive(move || format!("tensor dim {} size", dim.get()))
                value=Signal::derive(move || {
                    let dim = dim.get();
                    state.input.with(|input| tensor(input, index.get()).and_then(|t| t.shape.get(dim).copied()))
                })
                on_set=Callback::new(move |size| {
                    let dim = dim.get_untracked();
                    editor.edit(|input, index| set_tensor_dim(input, index, dim, size))
                })
                problems=editor.messages(move |f| f == SpecField::TensorDim(dim.get()))
                min=1
                max=MAX_STEP
                key=Signal::derive(move || format!("tensor-shape-{}", dim.get()))
            />
            <RemoveDimButton
                dim=dim
                rows=rows
                name="tensor dim".to_string()
                test_id="remove-tensor-dim".to_string()
                add_test_id="add-tensor-dim".to_string()
                title="Remove this dim"
                disabled=Signal::derive(move || rank.get() <= 1)
                remove=Callback::new(move |dim| {
                    let mut said = Vec::new();
                    editor.edit(|input, index| said = remove_tensor_dim(input, index, dim));
                    removed.say(said);
                })
            />
        </div>
    }
}

/// What removing a tensor dim did to a layout that sharded it (a shard became a replica), said under the
/// shape until the next edit: the layouts followed with nothing to say so (review 48).
#[derive(Clone, Copy)]
struct RemovalNote {
    /// The sentences, one after another: a signal of a type the app has (a list, a new type, cost the bundle
    /// 0.44 KB more).
    text: RwSignal<Option<String>>,
    /// Set by the removal: the first change of the spec seen after it is the removal's own.
    fresh: StoredValue<bool>,
}

impl RemovalNote {
    fn say(self, lines: Vec<String>) {
        self.fresh.set_value(!lines.is_empty());
        self.text.set((!lines.is_empty()).then(|| lines.join(" ")));
    }
}

/// The tensor card's removal note, cleared by any change of the spec after the removal's own.
fn removal_note(editor: EditorContext) -> RemovalNote {
    let note = RemovalNote { text: RwSignal::new(None), fresh: StoredValue::new(false) };
    Effect::new(move |_| {
        editor.state.input.track();
        if note.fresh.get_value() {
            note.fresh.set_value(false);
        } else if note.text.with_untracked(Option::is_some) {
            note.text.set(None);
        }
    });
    note
}

/// Where a dtype change happens (domain §5): at the sender, the destination's dtype crosses the links; at the
/// receiver, the source's. Shown when the viewed tensor changes dtype, or when the receiver is chosen (so it
/// can be undone after the dtypes become equal).
#[component]
pub(super) fn ConversionPoint() -> impl IntoView {
    let state = expect_context::<EditorContext>().state;
    let at_receiver =
        Memo::new(move |_| state.input.with(|input| input.convert_at.as_deref().map(str::trim) == Some("receiver")));
    let dtypes = Memo::new(move |_| {
        let tensor = state.view.with(|v| v.tensor);
        state.reshard.with(|r| r.tensors.get(tensor).map(|t| (t.source.dtype.name(), t.destination.dtype.name())))
    });
    move || {
        let (source, destination) = dtypes.get()?;
        (source != destination || at_receiver.get()).then(|| {
            view! {
                <div class="labelled-field">
                    <label class="field-label" for="field-convert">"dtype converted by"</label>
                    <select
                        id="field-convert"
                        class="select"
                        data-testid="field-convert"
                        prop:value=move || if at_receiver.get() { "receiver" } else { "sender" }
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            state.input.update(|input| input.convert_at = (value == "receiver").then_some(value));
                        }
                    >
                        <option value="sender" selected=move || !at_receiver.get()>"the sender"</option>
                        <option value="receiver" selected=move || at_receiver.get()>"the receiver"</option>
                    </select>
                    // Said beside the select: inside its options it was cut off in a narrow card.
                    <p class="field-hint" data-testid="convert-note">
                        {move || {
                            let wire = if at_receiver.get() { source } else { destination };
                            format!("{wire} crosses the links")
                        }}
                    </p>
                </div>
            }
        })
    }
}

/// For an inventory: which of its tensors the cards edit and the pictures show.
#[component]
fn InventoryPicker() -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let count = Memo::new(move |_| state.input.with(|input| input.tensors.as_ref().map(Vec::len)));
    move || {
        count.get().filter(|&n| n > 0).map(|n| {
            // A number past either end stays in the field with why (it was silently clamped, the field
            // still showing 99999 beside tensor 291), counted in the status line as text that does not parse.
            let out_of_range = Callback::new(move |number: i64| {
                (!(1..=n as i64).contains(&number))
                    .then(|| format!("{number}: the inventory's tensors are numbered 1 to {n}"))
            });
            let choose = Callback::new(move |number: i64| {
                let chosen = (number - 1) as usize;
                let rank = state.reshard.with_untracked(|r| r.tensors.get(chosen).map(|t| t.shape.len()));
                if let Some(rank) = rank {
                    state.view.update(|v| {
                        *v = ViewChoice { show_whole_shard: v.show_whole_shard, ..ViewChoice::for_rank(chosen, rank) }
                    });
                }
            });
            let name = move || {
                state
                    .input
                    .with(|input| tensor(input, editor.index.get()).and_then(|t| t.name.clone()).unwrap_or_default())
            };
            view! {
                <div class="inventory" data-testid="inventory-picker">
                    <p class="inventory-note">
                        {format!(
                            "An inventory of {} tensors; these cards edit one at a time.",
                            crate::ui::format_count(state.input.with_untracked(tensor_count) as u64)
                        )}
                    </p>
                    <div class="dim-block">
                        <span class="dim-caption">"tensor"</span>
                        <IntegerField
                            label="tensor number in the inventory"
                            value=Signal::derive(move || Some(editor.index.get() as i64 + 1))
                            on_set=choose
                            problems=Signal::stored(Vec::new())
                            min=1
                            max=n as i64
                            key="inventory-tensor"
                            refuse=out_of_range
                        />
                        <span class="mono inventory-name">{name}</span>
                    </div>
                </div>
            }
        })
    }
}
