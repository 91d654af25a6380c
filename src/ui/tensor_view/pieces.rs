//! The pieces: each box filled in its sender's colour, labelled when the label fits, focusable, and
//! highlighted when it or one of its devices has the focus.

use leptos::prelude::*;

use super::{
    FocusPieces, SceneMemo,
    hover::{let_go_on_escape, pointer_wins, restore_keyboard_focus, set_focus},
    scene::{Deck, DrawnPiece, PieceLabel},
    whole_shard::WholeShardTransfer,
};
use crate::chart::boxes::{Arrow, PixelRect, neighbour};
use crate::ui::{AppState, Focus, Side, keyed::keyed};

/// Which pieces the focus relates to, asked per piece through selectors keyed by piece and by device: a
/// change of focus re-runs only the pieces it starts or stops relating to. Each of up to 2,000
/// pieces read the focus itself, and every hover re-ran them all (a hover took 150–370 ms at 1,000–2,000
/// drawn pieces; dropping each one's subscription alone grew with their square).
#[derive(Clone, Copy)]
struct FocusKeys {
    piece: StoredValue<Selector<Option<u64>>>,
    source: StoredValue<Selector<Option<u64>>>,
    destination: StoredValue<Selector<Option<u64>>>,
}

impl FocusKeys {
    /// One set for the tensor view's pieces and their decks, provided to both ([`provide_focus_keys`]).
    fn new(state: AppState) -> FocusKeys {
        let focus = state.focus;
        FocusKeys {
            piece: StoredValue::new(Selector::new(move || match focus.get() {
                Focus::Piece(index) => Some(index as u64),
                _ => None,
            })),
            source: StoredValue::new(Selector::new(move || match focus.get() {
                Focus::Device { side: Side::Source, device } => Some(u64::from(device)),
                _ => None,
            })),
            destination: StoredValue::new(Selector::new(move || match focus.get() {
                Focus::Device { side: Side::Destination, device } => Some(u64::from(device)),
                _ => None,
            })),
        }
    }

    /// Whether piece `index`, from `src` to `dst`, relates to the focus: it is the focused piece, or its
    /// sender or receiver is the focused device. Tracks only this piece's and its devices' keys.
    fn relate(self, index: usize, src: u32, dst: u32) -> bool {
        // One key type for the three (one copy of the selector's code in the bundle, not two).
        self.piece.with_value(|s| s.selected(&Some(index as u64)))
            || self.source.with_value(|s| s.selected(&Some(u64::from(src))))
            || self.destination.with_value(|s| s.selected(&Some(u64::from(dst))))
    }

    /// Whether piece `index` is the focused piece itself. Tracks only this piece's key.
    fn is_focused(self, index: usize) -> bool {
        self.piece.with_value(|s| s.selected(&Some(index as u64)))
    }
}

/// Provides the [`FocusKeys`] the pieces and their decks ask, once for the tensor view.
pub(super) fn provide_focus_keys(state: AppState) {
    provide_context(FocusKeys::new(state));
}

/// Every drawn piece: the scene's, or when the plan is aggregated, the focused device's.
#[component]
pub fn Pieces(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The focused device's pieces when the scene is aggregated.
    focus_pieces: FocusPieces,
    /// The whole-shard transfer drawn over the pieces, if any.
    transfer: Memo<Option<WholeShardTransfer>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    // Where a receiver's whole shards lie, in the picture: another receiver's pieces there are under its
    // hatching, and their labels go ("d0 → d5" in d4's discarded part read as d4's; dark
    // text under the veil was unreadable in the dark theme). Their colours still show who sent them.
    // Worked out once per transfer (sorted piece indices), not in every piece's class on every hover.
    let under_hatch: Memo<Vec<usize>> = Memo::new(move |_| {
        transfer.with(|t| {
            let Some(t) = t.as_ref() else { return Vec::new() };
            let shards: Vec<PixelRect> = scene.with(|s| t.shards.iter().map(|&cells| s.rect(cells)).collect());
            let mut hidden: Vec<usize> = with_drawn(scene, focus_pieces, |pieces| {
                pieces
                    .iter()
                    .filter(|p| p.dst != t.receiver && shards.iter().any(|s| s.overlaps(&p.rect)))
                    .map(|p| p.index)
                    .collect()
            });
            hidden.sort_unstable();
            hidden
        })
    });
    let class = focus_class("tv-pieces", "tv-pieces has-focus");
    // One Tab stop for all the pieces (there may be thousands): the piece last focused while it is drawn,
    // else the first; the arrow keys move to the nearest piece that way in the picture.
    let last = RwSignal::new(None::<usize>);
    let stop = Memo::new(move |_| {
        with_drawn(scene, focus_pieces, |pieces| {
            let kept = last.get().filter(|i| pieces.iter().any(|p| p.index == *i));
            kept.or_else(|| pieces.first().map(|p| p.index))
        })
    });
    // The pointer is followed here, for every piece at once (each piece's listeners were a fifth of an edit
    // that drew 2,000 pieces, added and removed). Not the focus: an SVG group listening for it takes it.
    view! {
        <g
            class=class
            on:keydown=move |ev| on_piece_key(&ev, state, scene, focus_pieces)
            on:mouseover=move |ev| {
                if let Some(index) = piece_of(ev.target())
                    && pointer_wins(&ev)
                {
                    set_focus(state, Focus::Piece(index));
                }
            }
            on:mouseout=move |ev| {
                let from = piece_of(ev.target());
                if from.is_some() && from != piece_of(ev.related_target()) {
                    restore_keyboard_focus(state);
                }
            }
        >
            {keyed(
                move || with_drawn(scene, focus_pieces, <[DrawnPiece]>::to_vec),
                move |piece| view! { <PieceBox piece=piece stop=stop last=last under_hatch=under_hatch/> },
            )}
        </g>
    }
}

/// The piece an event came from: the `data-piece` of its target or the nearest element around it.
fn piece_of(target: Option<web_sys::EventTarget>) -> Option<usize> {
    use wasm_bindgen::JsCast;
    let element: web_sys::Element = target?.dyn_into().ok()?;
    element.closest("[data-piece]").ok()??.get_attribute("data-piece")?.parse().ok()
}

/// Arrow keys move the focus to the nearest piece that way in the picture ([`neighbour`]: → beside it, not
/// the next in the list, which was often below), Home and End to the first and last drawn; Escape lets go
/// of the focused piece (its highlight and tooltip go).
fn on_piece_key(ev: &web_sys::KeyboardEvent, state: AppState, scene: SceneMemo, focus_pieces: FocusPieces) {
    use wasm_bindgen::JsCast;
    let Some(piece) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("[data-testid=piece]").ok().flatten())
    else {
        return;
    };
    let Some(index) = piece.get_attribute("data-piece").and_then(|i| i.parse::<usize>().ok()) else { return };
    let key = ev.key();
    let target = with_drawn(scene, focus_pieces, |pieces| {
        let at = pieces.iter().position(|p| p.index == index)?;
        let boxes = || pieces.iter().map(|p| p.rect).collect::<Vec<PixelRect>>();
        let to = match (key.as_str(), Arrow::of_key(&key)) {
            (_, Some(arrow)) => neighbour(&boxes(), at, arrow),
            // A page of rows at a time: the browser's own PageUp and PageDown scrolled the focused piece away.
            ("PageUp" | "PageDown", _) => {
                let arrow = if key == "PageUp" { Arrow::Up } else { Arrow::Down };
                crate::chart::boxes::page(&boxes(), at, arrow, crate::chart::boxes::PAGE_STEPS)
            }
            ("Home", _) => Some(0),
            ("End", _) => Some(pieces.len().saturating_sub(1)),
            _ => return None,
        };
        // `Some(None)`: the key is the pieces' own, with nowhere to go (an edge); `None`: not theirs.
        Some(to.and_then(|to| pieces.get(to)).map(|p| p.index))
    });
    let Some(target) = target else {
        let_go_on_escape(ev, state);
        return;
    };
    ev.prevent_default();
    let found = target.and_then(|target| {
        piece.parent_element()?.query_selector(&format!("[data-testid=piece][data-piece=\"{target}\"]")).ok()?
    });
    if let Some(found) = found.and_then(|t| t.dyn_into::<web_sys::SvgElement>().ok()) {
        let _ = found.focus();
    }
}

/// `read` of the pieces drawn: the scene's, or when the plan is aggregated, the focused device's.
fn with_drawn<R>(scene: SceneMemo, focus_pieces: FocusPieces, read: impl FnOnce(&[DrawnPiece]) -> R) -> R {
    if scene.with(|s| s.aggregated.is_some()) {
        focus_pieces.with(|p| read(p))
    } else {
        scene.with(|s| read(&s.pieces))
    }
}

/// A layer's class: `plain`, or `focused` while something has the focus (then unrelated marks are dimmed).
fn focus_class(plain: &'static str, focused: &'static str) -> impl Fn() -> &'static str + Copy {
    let state = expect_context::<AppState>();
    move || if state.focus.with(|f| *f == Focus::Nothing) { plain } else { focused }
}

/// The faint fill of an aggregated picture's source regions ([`super::scene::TensorScene::tint`]), under
/// the boundaries and a focused device's pieces, which stay the figure.
#[component]
pub fn Tint(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    let class = focus_class("tv-tint", "tv-tint has-focus");
    let boxes = move || scene.with(|s| s.tint.clone());
    view! { <g class=class data-testid="tensor-tint">{keyed(boxes, tint_path)}</g> }
}

/// The tinted regions of one fill.
fn tint_path((fill, d): (&'static str, String)) -> impl IntoView {
    view! { <path d=d fill=fill/> }
}

/// The decks on boxes that several pieces carry: one card per piece, in its sender's colour. Drawn over
/// the entry grid (a card is a thing to point at, not part of the tensor); pointing at a card focuses its
/// piece as pointing at a box does.
#[component]
pub fn Decks(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The focused device's pieces when the scene is aggregated.
    focus_pieces: FocusPieces,
) -> impl IntoView {
    let class = focus_class("tv-decks", "tv-decks has-focus");
    // Only the stacked pieces' cards (without copying the other pieces).
    let cards = move || {
        with_drawn(scene, focus_pieces, |pieces| {
            pieces.iter().filter_map(|p| p.deck.map(|deck| (p.index, p.src, p.dst, p.fill, deck))).collect::<Vec<_>>()
        })
    };
    // One tray per deck, under its cards (a deck's pieces lie next to each other in the list).
    let trays = move || {
        with_drawn(scene, focus_pieces, |pieces| {
            let mut trays: Vec<PixelRect> = pieces.iter().filter_map(|p| p.deck.map(|deck| deck.tray)).collect();
            trays.dedup();
            trays
        })
    };
    // The focused piece's card once more, over the fan: the next card covered half of it (review 35).
    let state = expect_context::<AppState>();
    let on_top = move || {
        let Focus::Piece(index) = state.focus.get() else { return None };
        let found = with_drawn(scene, focus_pieces, |pieces| {
            pieces.iter().find(|p| p.index == index).and_then(|p| p.deck.map(|deck| (p.fill, deck.card)))
        });
        found.map(|(fill, c)| {
            view! {
                <rect class="tv-deck-card is-related is-focused" x=c.x y=c.y width=c.width height=c.height rx=1.5
                    fill=fill pointer-events="none"/>
            }
        })
    };
    view! {
        <g class=class>
            <g class="tv-deck-trays">{keyed(trays, deck_tray)}</g>
            {keyed(cards, deck_card)}
            {on_top}
        </g>
    }
}

/// The tray under one deck.
fn deck_tray(tray: PixelRect) -> impl IntoView {
    view! { <rect class="tv-deck-tray" x=tray.x - 0.5 y=tray.y - 0.5 width=tray.width + 1.0 height=tray.height + 1.0 rx=3.0/> }
}

/// One card of a deck.
fn deck_card((index, src, dst, fill, deck): (usize, u32, u32, &'static str, Deck)) -> impl IntoView {
    let state = expect_context::<AppState>();
    let c = deck.card;
    // On a box of its own colour (one sender), a card is outlined in the colour its text takes.
    let (base, stroke) = if deck.mixed {
        ("tv-deck-card", None)
    } else {
        ("tv-deck-card is-own-colour", Some(crate::chart::palette::text_on(fill)))
    };
    let keys = expect_context::<FocusKeys>();
    // The focused piece's card is outlined: a stacked piece other than the first has no box of its own, and
    // its card is where the keyboard's focus shows.
    let class = move || match (keys.relate(index, src, dst), keys.is_focused(index)) {
        (true, true) => format!("{base} is-related is-focused"),
        (true, false) => format!("{base} is-related"),
        _ => base.to_string(),
    };
    view! {
        <rect
            class=class
            data-testid="deck-card"
            data-piece=index.to_string()
            x=c.x
            y=c.y
            width=c.width
            height=c.height
            rx=1.5
            fill=fill
            stroke=stroke
            on:mouseenter=move |ev| {
                if pointer_wins(&ev) {
                    set_focus(state, Focus::Piece(index));
                }
            }
            on:mouseleave=move |_| restore_keyboard_focus(state)
        />
    }
}

/// One piece: a rectangle and its label (of a stack's pieces, only the first draws the box).
#[component]
fn PieceBox(
    /// The piece, laid out.
    piece: DrawnPiece,
    /// The piece that takes Tab focus (one Tab stop for all).
    stop: Memo<Option<usize>>,
    /// The piece focused last, written on focus.
    last: RwSignal<Option<usize>>,
    /// The pieces under a receiver's whole-shard hatching that are not its own ([`Pieces`]), sorted.
    under_hatch: Memo<Vec<usize>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let DrawnPiece { index, src, dst, rect, deck, fill, local, label, aria, stack } = piece;
    // Of a stack's pieces only the first draws the box; their cards are drawn by [`Decks`].
    let draws_box = deck.is_none_or(|d| d.draws_box);
    // A box with several senders is neutral: their colours are the deck's.
    let box_class = if deck.is_some_and(|d| d.mixed) { "tv-piece-box is-stacked" } else { "tv-piece-box" };
    let keys = expect_context::<FocusKeys>();
    let ring = expect_context::<super::highlight::FocusedBox>();
    let class = move || {
        let related = keys.relate(index, src, dst) || stack.iter().any(|&(i, s, d)| keys.relate(i, s, d));
        let hatched = under_hatch.with(|hidden| hidden.binary_search(&index).is_ok());
        let class = match (related, local) {
            (true, false) => "tv-piece is-related",
            (true, true) => "tv-piece is-related is-local",
            (false, false) => "tv-piece",
            (false, true) => "tv-piece is-local",
        };
        if hatched { format!("{class} is-under-hatch") } else { class.to_string() }
    };
    let label = label.map(|label| label_texts(&label, label.color));
    view! {
        <g
            class=class
            data-testid="piece"
            data-src=src.to_string()
            data-dst=dst.to_string()
            data-piece=index.to_string()
            tabindex=move || if stop.get() == Some(index) { "0" } else { "-1" }
            role="img"
            aria-label=aria
            on:focus=move |ev| {
                last.set(Some(index));
                set_focus(state, Focus::Piece(index));
                let shown = event_target::<web_sys::Element>(&ev).matches(":focus-visible").unwrap_or(false);
                ring.0.set(shown.then(|| deck.filter(|d| !d.draws_box).map_or(rect, |d| d.card)));
            }
            on:blur=move |_| {
                set_focus(state, Focus::Nothing);
                ring.0.set(None);
            }
        >
            {draws_box.then(|| view! {
                <rect class=box_class x=rect.x y=rect.y width=rect.width.max(0.5) height=rect.height.max(0.5) fill=fill/>
            })}
            // A stacked piece without the box stands where its card is: an empty group was 0 × 0, so the
            // keyboard's focus landed on nothing a screen reader or scrolling could place.
            {deck.filter(|d| !d.draws_box).map(|d| view! {
                <rect class="tv-piece-anchor" x=d.card.x y=d.card.y width=d.card.width height=d.card.height/>
            })}
            {label}
        </g>
    }
}

/// A piece's label as drawn, its lines centred on `label.at`, in `fill`: in the piece, and again in white
/// over the red cells of a check that found the piece wrong ([`super::mismatches::Mismatches`]).
pub fn label_texts(label: &PieceLabel, fill: &'static str) -> Vec<impl IntoView + use<>> {
    let (cx, cy) = label.at;
    let count = label.lines.len() as f64;
    let font = label.font;
    let first = cy - (count - 1.0) * font * 0.6 + font * 0.35;
    label
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let y = first + i as f64 * font * 1.2;
            let (class, size) = if i < label.name_lines {
                ("tv-piece-label", font)
            } else {
                ("tv-piece-label tv-piece-shape", font * 11.0 / 12.0)
            };
            view! {
                <text class=class x=cx y=y text-anchor="middle" fill=fill font-size=format!("{size:.1}")>{line.clone()}</text>
            }
        })
        .collect()
}
