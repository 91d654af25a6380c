//! The tooltip of the focused piece: where it comes from and goes, its offset and shape, its size, and the
//! link it crosses. Drawn inside the SVG (the page's CSP allows no inline styles for positioning HTML).

use leptos::prelude::*;

use super::{FocusPieces, SceneMemo, scene::MARGIN_TOP};
use crate::chart::aggregate::piece_name;
use crate::chart::boxes::{PixelRect, place_tooltip, visible_columns, visible_rows};
use crate::core::plan::{LinkClass, Piece};
use crate::core::traffic::format_bytes;
use crate::ui::{AppState, Focus, format_count, format_offset, format_shape};

const LINE_PX: f64 = 17.0;
const PADDING: f64 = 8.0;

/// The lines a piece's tooltip (and the focus line under the picture) says. The link has a line of its own:
/// on one line with the size, the tooltip was wider than the toy's picture leaves beside its row axis. A
/// piece whose receiver keeps less than it gets (whole shard, gather then broadcast) says both boxes: the
/// entries and bytes are those sent.
pub fn piece_lines(piece: &Piece) -> Vec<String> {
    // The link class by its name in the link table, with where the devices stand (the name alone says
    // little to a newcomer).
    let link = match piece.link {
        LinkClass::Local => "local copy (no link)",
        LinkClass::Nvlink => "nvlink (same node)",
        LinkClass::Nic => "nic (across nodes)",
    };
    let place = |r: &crate::core::geometry::Region| {
        format!("offset {} · shape {}", format_offset(r.offset()), format_shape(r.shape()))
    };
    let size = format!("{} entries · {}", format_count(piece.region.entries()), format_bytes(piece.bytes));
    // As the piece's label names it.
    let mut lines = vec![piece_name(piece.src, piece.dst, piece.is_local())];
    if piece.keep == piece.region {
        lines.extend([place(&piece.region), size]);
    } else {
        lines.extend([
            format!("sends {}", place(&piece.region)),
            format!("keeps {}", place(&piece.keep)),
            format!("{size} sent"),
        ]);
    }
    lines.push(link.to_string());
    lines
}

/// The focused piece's tooltip, beside the piece and inside the picture.
#[component]
pub fn Tooltip(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The focused device's pieces when the scene is aggregated.
    focus_pieces: FocusPieces,
    /// The box the picture scrolls in when it is wider.
    picture: NodeRef<leptos::html::Div>,
    /// Bumped when that box scrolls.
    scrolled: RwSignal<u32>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let Focus::Piece(index) = state.focus.get() else { return None };
        let piece = state.with_drawn_pieces(|pieces| pieces?.get(index).copied())?;
        // Beside the piece; for a piece of a stack, beside its box's whole deck (beside one card it covered
        // the cards to its right, which the pointer moves on to), naming the stack's other pieces: the box's
        // label says "d0 → d8, d12", and a tooltip naming d8 alone read as if d12 got nothing.
        let find = |list: &[super::scene::DrawnPiece]| {
            let p = list.iter().find(|p| p.index == index)?;
            if p.deck.is_none() {
                return Some((p.rect, Vec::new()));
            }
            let stack = || list.iter().filter(|q| q.rect == p.rect && q.deck.is_some());
            let others: Vec<String> =
                stack().filter(|q| q.index != index).map(|q| format!("d{} → d{}", q.src, q.dst)).collect();
            let deck = stack().filter_map(|q| q.deck.map(|d| d.card)).reduce(|a, b| {
                let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
                let (x1, y1) = ((a.x + a.width).max(b.x + b.width), (a.y + a.height).max(b.y + b.height));
                PixelRect::new(x0, y0, x1 - x0, y1 - y0)
            })?;
            Some((deck, others))
        };
        let (rect, others) = scene.with(|s| find(&s.pieces)).or_else(|| focus_pieces.with(|p| find(p)))?;
        let mut lines = piece_lines(&piece);
        match others.len() {
            0 => {}
            1..=2 => lines.push(format!("same box also {}", others.join(", "))),
            n => lines.push(format!("same box also {} and {} more", others[0], n - 1)),
        }
        let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
        let (width, height) = (longest * 6.0 + 2.0 * PADDING, lines.len() as f64 * LINE_PX + 2.0 * PADDING - 4.0);
        let ((bounds_w, bounds_h), left) = scene.with(|s| (s.size(), s.margin_left()));
        let anchor = PixelRect::new(rect.x + left, rect.y + MARGIN_TOP, rect.width, rect.height);
        scrolled.track();
        let whole = ((0.0, bounds_w), (0.0, bounds_h));
        let (visible, rows) = picture.get_untracked().map_or(whole, |div| {
            let Some(svg) = div.first_element_child() else { return whole };
            let shown = svg.get_bounding_client_rect();
            let window = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64());
            (
                visible_columns(f64::from(div.scroll_left()), f64::from(div.client_width()), shown.width(), bounds_w),
                window.map_or(whole.1, |window| visible_rows(shown.top(), shown.height(), window, bounds_h)),
            )
        });
        let (x, y) = place_tooltip(anchor, width, height, visible, rows, left);
        let texts = lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| {
                let class = if i == 0 { "tv-tooltip-title" } else { "tv-tooltip-text" };
                view! { <text class=class x=x + PADDING y=y + PADDING + 12.0 + i as f64 * LINE_PX>{line}</text> }
            })
            .collect::<Vec<_>>();
        Some(view! {
            <g class="tv-tooltip" data-testid="piece-tooltip" role="tooltip" pointer-events="none">
                <rect class="tv-tooltip-box" x=x y=y width=width height=height rx=6.0/>
                {texts}
            </g>
        })
    }
}
