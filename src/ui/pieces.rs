//! The plan as a table: one row per piece (source, destination, offset, shape, bytes, link).

use leptos::prelude::*;

use super::{AppState, totals::format_count};
use crate::core::{
    geometry::Region,
    plan::{LinkClass, Piece},
};
use crate::ui::ScrollRegion;

/// A box's offset as coordinates: `[4, 0]`.
pub fn format_offset(offset: &[u64]) -> String {
    let coords: Vec<String> = offset.iter().map(u64::to_string).collect();
    format!("[{}]", coords.join(", "))
}

/// A box's extent per dim: `4 × 3` (a rank-0 shape reads as `scalar`).
pub fn format_shape(shape: &[u64]) -> String {
    if shape.is_empty() {
        return "scalar".to_string();
    }
    shape.iter().map(u64::to_string).collect::<Vec<_>>().join(" × ")
}

/// What identifies a row: its position and everything it shows, so a changed piece is redrawn.
fn row_key(index: usize, piece: &Piece) -> (usize, usize, u32, u32, Region, LinkClass, u64) {
    (index, piece.tensor, piece.src, piece.dst, piece.region, piece.link, piece.bytes)
}

/// Rows listed at first, and added by each "list more".
const PAGE: usize = 100;

/// Every piece of the current plan, in planning order (up to [`crate::ui::state::TABLE_LIMIT`]).
#[component]
pub fn PieceTable() -> impl IntoView {
    let state = expect_context::<AppState>();
    // A page of rows at first: a long table is read by scrolling a few dozen rows, and building hundreds of
    // rows on every edit of a large change would slow the whole page down.
    let shown = RwSignal::new(PAGE);
    let listed = move || state.pieces.with(|p| p.as_ref().map_or(0, Vec::len)).min(shown.get());
    // Counted from the same (settled) plan as the rows, so the two always agree.
    let total = Memo::new(move |_| state.settled.with(|s| (**s).as_ref().ok().map(|s| s.traffic.totals().pieces)));
    // Too many to keep (the plan was counted as it streamed): no rows to show under the table's header.
    let too_many = move || listed() == 0 && total.get().is_some_and(|t| t > 0);
    let count = move || match total.get() {
        // Said instead of "first 0 listed"; why, in the paragraph under it (a sentence in the count's pill ran
        // four lines on a phone, review 38).
        Some(total) if too_many() => format!("{} pieces", format_count(total)),
        Some(total) if (listed() as u64) < total => {
            format!("{} pieces, first {} listed", format_count(total), format_count(listed() as u64))
        }
        Some(1) => "1 piece".to_string(),
        Some(total) => format!("{} pieces", format_count(total)),
        None => String::new(),
    };
    let rows = move || {
        let shown = shown.get();
        state.pieces.with(|p| {
            p.as_ref().map_or_else(|_| Vec::new(), |p| p.iter().take(shown).cloned().enumerate().collect::<Vec<_>>())
        })
    };
    let more = move || {
        let available = state.pieces.with(|p| p.as_ref().map_or(0, Vec::len));
        (available > shown.get()).then(|| {
            let next = (available - shown.get()).min(PAGE);
            view! {
                <button type="button" class="link-button" data-testid="pieces-more" on:click=move |_| shown.update(|s| *s += PAGE)>
                    {format!("List {next} more")}
                </button>
            }
        })
    };

    view! {
        <div class="pieces">
            <h3 class="pieces-title" id="pieces-title">"Pieces of the plan " <span class="pieces-count" data-testid="piece-count">{count}</span></h3>
            {move || state.pieces.get().err().map(|message| view! {
                <p class="problem" role="alert" data-testid="plan-error">{message}</p>
            })}
            // An empty table read as a drawing that failed: where the rows are instead.
            <Show when=too_many>
                <p class="pieces-elsewhere" data-testid="pieces-elsewhere">
                    {format!(
                        "Too many to list here (the table holds plans of up to {} pieces); the totals above count them \
                         all. Every piece, a row each, is in the CSV of Export ▾ (as from ",
                        format_count(crate::ui::state::PIECE_LIMIT as u64)
                    )}
                    <code>"reshard plan SPEC.json --csv"</code>
                    ")."
                </p>
            </Show>
            // A tab stop where it is wider than the page's column: a keyboard scrolls it sideways.
            <ScrollRegion label="Pieces, scrollable" hidden=Signal::derive(too_many)>
                // On a phone, two lines a piece (main.css): as seven columns, its offset, shape, bytes and link
                // stood behind a sideways scroll.
                <table class="piece-table plan-pieces" data-testid="piece-table" aria-labelledby="pieces-title">
                    <thead>
                        <tr>
                            <th scope="col" class="num">"#"</th>
                            <th scope="col">"Source device"</th>
                            <th scope="col">"Destination device"</th>
                            <th scope="col">"Offset"</th>
                            <th scope="col">"Shape"</th>
                            <th scope="col" class="num">"Entries"</th>
                            <th scope="col" class="num">"Bytes"</th>
                            <th scope="col">"Link"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=rows key=|(index, piece)| row_key(*index, piece) let((index, piece))>
                            <PieceRow index=index piece=piece/>
                        </For>
                    </tbody>
                </table>
            </ScrollRegion>
            <p class="legend-line" hidden=too_many><crate::ui::traffic::LinkClassKey directions=false/></p>
            {more}
        </div>
    }
}

/// One row of [`PieceTable`].
#[component]
fn PieceRow(
    /// Position of the piece in planning order, from 0 (shown from 1).
    index: usize,
    /// The piece to show.
    piece: Piece,
) -> impl IntoView {
    view! {
        <tr data-testid="piece-row">
            <td class="num muted">{index + 1}</td>
            <td data-testid="piece-src">{format!("d{}", piece.src)}</td>
            <td data-testid="piece-dst">{format!("d{}", piece.dst)}</td>
            <td class="mono" data-testid="piece-offset">{format_offset(piece.region.offset())}</td>
            <td class="mono" data-testid="piece-shape">{format_shape(piece.region.shape())}</td>
            // Entries as well as bytes: the article counts pieces in entries (each of the toy's is 12).
            <td class="num" data-testid="piece-entries">{format_count(piece.region.entries())}</td>
            <td class="num" data-testid="piece-bytes">{format_count(piece.bytes)}</td>
            <td><span class=format!("link link-{}", piece.link.name())>{piece.link.name()}</span></td>
        </tr>
    }
}
