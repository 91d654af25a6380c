//! Rectangles in the tensor view: stacking the pieces of one box as cards, cutting one box out of another,
//! and placing a tooltip next to a box without leaving the picture.

use super::tensor::Cells;

/// A rectangle in pixels: top-left corner and size (never negative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl PixelRect {
    pub const fn new(x: f64, y: f64, width: f64, height: f64) -> PixelRect {
        PixelRect { x, y, width, height }
    }
    /// From the `(x, y, width, height)` tuple that [`super::tensor::Frame::rect`] returns.
    pub const fn from_tuple((x, y, width, height): (f64, f64, f64, f64)) -> PixelRect {
        PixelRect { x, y, width, height }
    }
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }
    /// Whether the two share some area (boxes that only touch along an edge do not).
    pub fn overlaps(&self, other: &PixelRect) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }
}

/// A tag `width` × `height` pixels in the bottom-left corner of `rect`, inset by 4 px: clear of the label
/// centred in a box and of the deck in its top-left corner. `None` when the box has no room for it beside
/// a centred label (less than three tags high, or narrower than the tag and its insets).
pub fn corner_tag(rect: PixelRect, width: f64, height: f64) -> Option<PixelRect> {
    const INSET: f64 = 4.0;
    (rect.width >= width + 2.0 * INSET && rect.height >= 3.0 * height + 2.0 * INSET)
        .then(|| PixelRect::new(rect.x + INSET, rect.y + rect.height - INSET - height, width, height))
}

/// The largest card of a stack's deck, in pixels (height; cards are three quarters as wide).
pub const DECK_CARD: f64 = 24.0;

/// Card `index` of the `count` small cards in the corner of a box that `count` pieces carry whole (one per
/// replica of the destination, or one per partial contributor). The box itself is drawn once, exactly; the
/// deck in its top-left corner has one card per piece, each in its sender's colour, fanned left to right so
/// that every card shows a strip to point at. (Drawing each piece as the whole box set off a few pixels left
/// corners no card covered, which read as entries nobody sends; lanes side by side read as rows.) Each card
/// shows half of itself beneath the next, so the deck reads as cards lying on each other, not as a row of
/// entries. The deck stays inside the box; on a box too small for it the cards overlap more, down to lying
/// on each other.
pub fn deck_card(rect: PixelRect, count: usize, index: usize) -> PixelRect {
    let DeckMeasures { margin, width, height, step } = DeckMeasures::in_box(rect, count);
    let offset = (index as f64).min(count.max(1) as f64 - 1.0) * step;
    PixelRect::new(rect.x + margin + offset, rect.y + margin, width, height)
}

/// The tray a deck lies on: the cards' bounds and a little more, drawn in the page's colour under them so
/// that the deck stands apart from the entries of the box it sits in (without it, fanned cards in a box's
/// first row read as that row's data). Inside the box, as the cards are.
pub fn deck_tray(rect: PixelRect, count: usize) -> PixelRect {
    let DeckMeasures { margin, width, height, step } = DeckMeasures::in_box(rect, count);
    let pad = margin / 2.0;
    let fan = width + (count.max(1) as f64 - 1.0) * step;
    PixelRect::new(rect.x + margin - pad, rect.y + margin - pad, fan + 2.0 * pad, height + 2.0 * pad)
}

/// A deck's measures in one box: its margin from the box's corner, a card's size, and the step between cards.
struct DeckMeasures {
    margin: f64,
    width: f64,
    height: f64,
    step: f64,
}

impl DeckMeasures {
    fn in_box(rect: PixelRect, count: usize) -> DeckMeasures {
        let short = rect.width.min(rect.height).max(0.0);
        let height = (short * 0.3).clamp(0.0, DECK_CARD);
        let width = height * 0.75;
        let margin = (short * 0.1).min(8.0);
        let below = count.max(1) as f64 - 1.0;
        let room = (rect.width - 2.0 * margin - width).max(0.0);
        let step = if below == 0.0 { 0.0 } else { (width * 0.5).min(room / below) };
        DeckMeasures { margin, width, height, step }
    }
}

/// The parts of `outer` outside `inner`, as at most four non-overlapping boxes (top band, bottom band,
/// then left and right of `inner` between them). Touching edges count as outside; an `inner` that misses
/// `outer` leaves `outer` whole.
pub fn subtract(outer: Cells, inner: Cells) -> Vec<Cells> {
    let row0 = inner.row0.clamp(outer.row0, outer.row1);
    let row1 = inner.row1.clamp(outer.row0, outer.row1);
    let col0 = inner.col0.clamp(outer.col0, outer.col1);
    let col1 = inner.col1.clamp(outer.col0, outer.col1);
    if row0 >= row1 || col0 >= col1 {
        return vec![outer];
    }
    let candidates = [
        Cells { row0: outer.row0, row1: row0, col0: outer.col0, col1: outer.col1 },
        Cells { row0: row1, row1: outer.row1, col0: outer.col0, col1: outer.col1 },
        Cells { row0, row1, col0: outer.col0, col1: col0 },
        Cells { row0, row1, col0: col1, col1: outer.col1 },
    ];
    candidates.into_iter().filter(|c| c.row0 < c.row1 && c.col0 < c.col1).collect()
}

/// Where a tooltip of `width × height` goes beside `anchor` inside a picture, of which the columns
/// `visible.0 .. visible.1` are in sight (the whole width, unless the picture scrolls sideways in a narrow
/// box: on a phone a tooltip placed in the part scrolled away was never seen) and the rows `rows.0 ..
/// rows.1` (the whole height, unless the page's edge cuts the picture: a tooltip under a piece low on the
/// first screen stood below the window, and hovering seemed to do nothing). Never covering the
/// anchor when it can help it: to the right, else to the left (top-aligned with the anchor), else below,
/// else above (centred on it), else over it. Always kept in sight, and off the picture's leftmost
/// `clear_left` pixels (the row axis's labels) when they are in sight and it fits beside them. Returns the
/// tooltip's top-left corner.
pub fn place_tooltip(
    anchor: PixelRect,
    width: f64,
    height: f64,
    visible: (f64, f64),
    rows: (f64, f64),
    clear_left: f64,
) -> (f64, f64) {
    const GAP: f64 = 8.0;
    let (start, end) = visible;
    let (top, bottom) = rows;
    let min_x = if start < clear_left && width <= end - clear_left { clear_left } else { start };
    let clamp_x = |x: f64| x.clamp(min_x, (end - width).max(min_x));
    let clamp_y = |y: f64| y.clamp(top, (bottom - height).max(top));
    let right = anchor.x + anchor.width + GAP;
    let left = anchor.x - GAP - width;
    let below = anchor.y + anchor.height + GAP;
    let above = anchor.y - GAP - height;
    let centred = clamp_x(anchor.center().0 - width / 2.0);
    if right >= min_x && right + width <= end {
        (right, clamp_y(anchor.y))
    } else if left >= min_x && left + width <= end {
        (left, clamp_y(anchor.y))
    } else if below + height <= bottom {
        (centred, below)
    } else if above >= top {
        (centred, above)
    } else {
        (centred, clamp_y(anchor.y))
    }
}

/// The columns of a picture `drawn_width` wide that are in sight in a box scrolled `scroll_left` pixels of
/// `box_width`, where the picture is drawn `shown_width` pixels wide: in the picture's own units, for
/// [`place_tooltip`]. A box that does not scroll shows the whole picture.
pub fn visible_columns(scroll_left: f64, box_width: f64, shown_width: f64, drawn_width: f64) -> (f64, f64) {
    if !(shown_width > 0.0 && box_width > 0.0 && drawn_width > 0.0) || box_width >= shown_width {
        return (0.0, drawn_width.max(0.0));
    }
    let scale = drawn_width / shown_width;
    let start = (scroll_left.max(0.0) * scale).min(drawn_width);
    (start, ((scroll_left.max(0.0) + box_width) * scale).min(drawn_width))
}

/// The rows of a picture `drawn_height` high that are in the window, in the picture's own units, for
/// [`place_tooltip`]: the picture's top stands `top` pixels below the window's, it is drawn `shown_height`
/// pixels high, and the window is `window_height` high. The whole height when nothing is measured or none of
/// it is in the window (a tooltip then stays beside its piece).
pub fn visible_rows(top: f64, shown_height: f64, window_height: f64, drawn_height: f64) -> (f64, f64) {
    let whole = (0.0, drawn_height.max(0.0));
    if !(shown_height > 0.0 && window_height > 0.0 && drawn_height > 0.0 && top.is_finite()) {
        return whole;
    }
    let scale = drawn_height / shown_height;
    let (start, end) = ((-top).max(0.0) * scale, ((window_height - top).min(shown_height)) * scale);
    if end <= start { whole } else { (start, end.min(drawn_height)) }
}

/// A direction of the arrow keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    Left,
    Right,
    Up,
    Down,
}

impl Arrow {
    /// The direction of a `KeyboardEvent.key` (`ArrowLeft`, …), if it is an arrow.
    pub fn of_key(key: &str) -> Option<Arrow> {
        match key {
            "ArrowLeft" => Some(Arrow::Left),
            "ArrowRight" => Some(Arrow::Right),
            "ArrowUp" => Some(Arrow::Up),
            "ArrowDown" => Some(Arrow::Down),
            _ => None,
        }
    }
}

/// Which of `boxes` an arrow key moves to from box `from`, as a reader sees the picture: → the nearest box
/// to the right, preferring one level with it (its rows overlap) over one that is only diagonally right, and
/// the nearest in the other direction among equals. Boxes drawn on the same place (a stack's pieces) are a
/// row of their own: → walks them in order before moving on, ← walks back, and a stack is entered from the
/// left at its first piece, from the right at its last; ↑ and ↓ pass them (↓ stepped into a stack, ↑ out
/// of it). `None` at the picture's edge. (In drawing order, → went down a column of pieces.)
pub fn neighbour(boxes: &[PixelRect], from: usize, arrow: Arrow) -> Option<usize> {
    const EPS: f64 = 0.5;
    let here = *boxes.get(from)?;
    let same = |r: &PixelRect| {
        (r.x - here.x).abs() < EPS
            && (r.y - here.y).abs() < EPS
            && (r.width - here.width).abs() < EPS
            && (r.height - here.height).abs() < EPS
    };
    let forward = matches!(arrow, Arrow::Right | Arrow::Down);
    let stacked = match arrow {
        Arrow::Right => (from + 1..boxes.len()).find(|&i| same(&boxes[i])),
        Arrow::Left => (0..from).rev().find(|&i| same(&boxes[i])),
        Arrow::Up | Arrow::Down => None,
    };
    if stacked.is_some() {
        return stacked;
    }
    // Along the arrow: the gap from this box's edge; across it: the overlap and the centres' distance.
    let spans = |r: &PixelRect| match arrow {
        Arrow::Left | Arrow::Right => ((r.x, r.x + r.width), (r.y, r.y + r.height)),
        Arrow::Up | Arrow::Down => ((r.y, r.y + r.height), (r.x, r.x + r.width)),
    };
    let ((along0, along1), (across0, across1)) = spans(&here);
    let score = |r: &PixelRect| {
        let ((a0, a1), (c0, c1)) = spans(r);
        let gap = if forward { a0 - along1 } else { along0 - a1 };
        if gap < -EPS {
            return None;
        }
        let level = c1.min(across1) - c0.max(across0) > EPS;
        let off_centre = ((c0 + c1) - (across0 + across1)).abs() / 2.0;
        Some((!level, gap.max(0.0), off_centre))
    };
    boxes
        .iter()
        .enumerate()
        .filter(|(i, r)| *i != from && !same(r))
        .filter_map(|(i, r)| score(r).map(|s| (s, i)))
        // Among a stack's pieces, the one the walk along its row starts from.
        .min_by(|(a, i), (b, j)| {
            let order = if arrow == Arrow::Left { j.cmp(i) } else { i.cmp(j) };
            a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.total_cmp(&b.2)).then(order)
        })
        .map(|(_, i)| i)
}

/// How many steps PageUp and PageDown take through a picture's boxes.
pub const PAGE_STEPS: usize = 5;

/// Where `steps` presses of `arrow` lead from box `from`, stopping at the picture's edge: PageUp and PageDown
/// on a piece (the browser's own scrolled the page, and the focused piece out of sight). `None` when `from`
/// is at that edge already.
pub fn page(boxes: &[PixelRect], from: usize, arrow: Arrow, steps: usize) -> Option<usize> {
    let mut at = from;
    for _ in 0..steps {
        match neighbour(boxes, at, arrow) {
            Some(next) => at = next,
            None => break,
        }
    }
    (at != from).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_key_takes_several_steps_and_stops_at_the_edge() {
        // A column of 8 boxes: from the top, 5 down; from row 5, the last (2 more); from the last, nowhere.
        let boxes: Vec<PixelRect> = (0..8).map(|row| PixelRect::new(0.0, row as f64 * 10.0, 10.0, 10.0)).collect();
        assert_eq!(page(&boxes, 0, Arrow::Down, PAGE_STEPS), Some(5));
        assert_eq!(page(&boxes, 5, Arrow::Down, PAGE_STEPS), Some(7));
        assert_eq!(page(&boxes, 7, Arrow::Down, PAGE_STEPS), None);
        assert_eq!(page(&boxes, 7, Arrow::Up, PAGE_STEPS), Some(2));
        assert_eq!(page(&boxes, 3, Arrow::Up, 1), neighbour(&boxes, 3, Arrow::Up));
    }

    #[test]
    fn a_corner_tag_sits_bottom_left_when_the_box_has_room() {
        let tag = corner_tag(PixelRect::new(10.0, 20.0, 100.0, 130.0), 60.0, 16.0).expect("room");
        assert_eq!(tag, PixelRect::new(14.0, 130.0, 60.0, 16.0));
        // Too narrow for the tag, or too short to keep clear of a centred label: none.
        assert_eq!(corner_tag(PixelRect::new(0.0, 0.0, 66.0, 130.0), 60.0, 16.0), None);
        assert_eq!(corner_tag(PixelRect::new(0.0, 0.0, 100.0, 50.0), 60.0, 16.0), None);
    }

    /// A 3 × 2 grid of boxes listed column by column (as pieces are: by sender, each a column of rows).
    fn grid() -> Vec<PixelRect> {
        let mut boxes = Vec::new();
        for col in 0..2 {
            for row in 0..3 {
                boxes.push(PixelRect::new(col as f64 * 10.0, row as f64 * 10.0, 10.0, 10.0));
            }
        }
        boxes
    }

    #[test]
    fn arrows_move_across_the_picture_not_along_the_list() {
        let boxes = grid();
        // Box 0 is top left; the list's next (1) is below it, box 3 beside it.
        assert_eq!(neighbour(&boxes, 0, Arrow::Right), Some(3));
        assert_eq!(neighbour(&boxes, 0, Arrow::Down), Some(1));
        assert_eq!(neighbour(&boxes, 4, Arrow::Left), Some(1));
        assert_eq!(neighbour(&boxes, 4, Arrow::Up), Some(3));
        assert_eq!(neighbour(&boxes, 0, Arrow::Left), None);
        assert_eq!(neighbour(&boxes, 2, Arrow::Down), None);
        assert_eq!(neighbour(&boxes, 5, Arrow::Right), None);
    }

    #[test]
    fn a_level_box_far_away_wins_over_a_diagonal_one_near_by() {
        // Right of box 0: a tall box level with it at x = 50, and a near one lower down only.
        let boxes = vec![
            PixelRect::new(0.0, 0.0, 10.0, 10.0),
            PixelRect::new(12.0, 20.0, 10.0, 10.0),
            PixelRect::new(50.0, 5.0, 10.0, 30.0),
        ];
        assert_eq!(neighbour(&boxes, 0, Arrow::Right), Some(2));
        // With nothing level, the nearest diagonal one.
        assert_eq!(neighbour(&boxes[..2], 0, Arrow::Right), Some(1));
        // Uneven rows: of two boxes right of a tall one, the one nearer its centre.
        let uneven = vec![
            PixelRect::new(0.0, 0.0, 10.0, 30.0),
            PixelRect::new(10.0, 0.0, 10.0, 12.0),
            PixelRect::new(10.0, 12.0, 10.0, 18.0),
        ];
        assert_eq!(neighbour(&uneven, 0, Arrow::Right), Some(2));
    }

    #[test]
    fn a_stack_is_walked_along_its_row_and_passed_up_and_down() {
        // A stack of three (0, 2, 3) with a box right of it (1) and one below it (4).
        let whole = PixelRect::new(0.0, 0.0, 10.0, 10.0);
        let below = PixelRect::new(0.0, 10.0, 10.0, 10.0);
        let boxes = vec![whole, PixelRect::new(10.0, 0.0, 10.0, 10.0), whole, whole, below];
        assert_eq!(neighbour(&boxes, 0, Arrow::Right), Some(2));
        assert_eq!(neighbour(&boxes, 2, Arrow::Right), Some(3));
        assert_eq!(neighbour(&boxes, 3, Arrow::Right), Some(1));
        assert_eq!(neighbour(&boxes, 1, Arrow::Left), Some(3), "into a stack from the right at its last piece");
        assert_eq!(neighbour(&boxes, 3, Arrow::Left), Some(2));
        assert_eq!(neighbour(&boxes, 0, Arrow::Left), None);
        // ↓ and ↑ pass a stack the same way both ways (↓ stepped into it, ↑ out of it).
        assert_eq!(neighbour(&boxes, 0, Arrow::Down), Some(4));
        assert_eq!(neighbour(&boxes, 2, Arrow::Down), Some(4));
        assert_eq!(neighbour(&boxes, 4, Arrow::Up), Some(0));
    }

    proptest::proptest! {
        /// Any arrow from any box lands on another box, or on none at the edge; never on itself, never panics.
        #[test]
        fn an_arrow_lands_on_another_box(
            raw in proptest::collection::vec((0u8..20, 0u8..20, 1u8..8, 1u8..8), 1..20),
            from in 0usize..20,
        ) {
            let boxes: Vec<PixelRect> =
                raw.iter().map(|&(x, y, w, h)| PixelRect::new(x.into(), y.into(), w.into(), h.into())).collect();
            let from = from % boxes.len();
            for arrow in [Arrow::Left, Arrow::Right, Arrow::Up, Arrow::Down] {
                if let Some(to) = neighbour(&boxes, from, arrow) {
                    proptest::prop_assert!(to < boxes.len() && to != from);
                }
            }
        }
    }

    fn cells(row0: u64, row1: u64, col0: u64, col1: u64) -> Cells {
        Cells { row0, row1, col0, col1 }
    }

    #[test]
    fn a_deck_fans_its_cards_in_the_box_corner() {
        let big = PixelRect::new(10.0, 20.0, 400.0, 400.0);
        // Full-size cards (24 × 18), 8 px in, each half a card's width right of the one under it.
        assert_eq!(deck_card(big, 8, 0), PixelRect::new(18.0, 28.0, 18.0, 24.0));
        let last = deck_card(big, 8, 7);
        assert!((last.x - (18.0 + 7.0 * 9.0)).abs() < 1e-9, "{last:?}");
        // The tray: 4 px round the fan.
        assert_eq!(deck_tray(big, 8), PixelRect::new(14.0, 24.0, 18.0 + 7.0 * 9.0 + 8.0, 32.0));
        assert_eq!(deck_card(big, 1, 0), deck_card(big, 8, 0), "one piece: one card at the corner");
        // A narrow box squeezes the fan to fit.
        let narrow = PixelRect::new(0.0, 0.0, 40.0, 400.0);
        let last = deck_card(narrow, 8, 7);
        assert!(last.x + last.width <= 40.0 - 4.0 + 1e-9, "{last:?}");
    }

    proptest::proptest! {
        /// Every card of a deck lies inside its box, each shows a strip of itself right of the one under it
        /// (or lies on it when the box is too small), and all are one size.
        #[test]
        fn deck_cards_stay_inside_their_box(w in 1.0f64..500.0, h in 1.0f64..500.0, count in 1usize..20) {
            let rect = PixelRect::new(3.0, 5.0, w, h);
            let cards: Vec<PixelRect> = (0..count).map(|i| deck_card(rect, count, i)).collect();
            for (i, c) in cards.iter().enumerate() {
                proptest::prop_assert!(c.x >= rect.x - 1e-9 && c.y >= rect.y - 1e-9);
                proptest::prop_assert!(c.x + c.width <= rect.x + rect.width + 1e-9);
                proptest::prop_assert!(c.y + c.height <= rect.y + rect.height + 1e-9);
                if i > 0 {
                    proptest::prop_assert!(c.x >= cards[i - 1].x);
                    proptest::prop_assert!((c.width - cards[0].width).abs() < 1e-9);
                }
            }
            // The tray holds every card and lies inside the box.
            let tray = deck_tray(rect, count);
            proptest::prop_assert!(tray.x >= rect.x - 1e-9 && tray.y >= rect.y - 1e-9);
            proptest::prop_assert!(tray.x + tray.width <= rect.x + rect.width + 1e-9);
            proptest::prop_assert!(tray.y + tray.height <= rect.y + rect.height + 1e-9);
            for c in &cards {
                proptest::prop_assert!(c.x >= tray.x - 1e-9 && c.y >= tray.y - 1e-9);
                proptest::prop_assert!(c.x + c.width <= tray.x + tray.width + 1e-9);
                proptest::prop_assert!(c.y + c.height <= tray.y + tray.height + 1e-9);
            }
            // A box with room for the fan shows every card.
            if w >= 200.0 && h >= 60.0 {
                for pair in cards.windows(2) {
                    proptest::prop_assert!(pair[1].x - pair[0].x > 3.0);
                }
            }
        }
    }

    #[test]
    fn subtracting_a_column_band_leaves_the_rest_of_the_shard() {
        // The toy's whole-shard transfer: d3 receives rows 0..4 × all 6 columns and keeps columns 0..3.
        assert_eq!(subtract(cells(0, 4, 0, 6), cells(0, 12, 0, 3)), vec![cells(0, 4, 3, 6)]);
        // A hole in the middle leaves four boxes that tile the rest.
        let parts = subtract(cells(0, 10, 0, 10), cells(2, 5, 3, 7));
        let area: u64 = parts.iter().map(|c| (c.row1 - c.row0) * (c.col1 - c.col0)).sum();
        assert_eq!((parts.len(), area), (4, 100 - 12));
    }

    #[test]
    fn subtracting_something_disjoint_or_covering_behaves() {
        assert_eq!(subtract(cells(0, 4, 0, 4), cells(4, 8, 0, 4)), vec![cells(0, 4, 0, 4)], "touching only");
        assert_eq!(subtract(cells(0, 4, 0, 4), cells(0, 8, 0, 8)), vec![], "fully covered");
    }

    #[test]
    fn tooltips_stay_inside_the_picture() {
        let all = (0.0, 400.0);
        let anchor = PixelRect::new(10.0, 20.0, 50.0, 50.0);
        assert_eq!(place_tooltip(anchor, 100.0, 40.0, all, (0.0, 300.0), 0.0), (68.0, 20.0), "right of the anchor");
        let near_right = PixelRect::new(300.0, 280.0, 50.0, 10.0);
        assert_eq!(place_tooltip(near_right, 100.0, 40.0, all, (0.0, 300.0), 0.0), (192.0, 260.0), "left, pushed up");
        let wide = PixelRect::new(0.0, 0.0, 400.0, 300.0);
        assert_eq!(place_tooltip(wide, 100.0, 40.0, all, (0.0, 300.0), 0.0), (150.0, 0.0), "over a box that fills it");
        let band = PixelRect::new(0.0, 100.0, 400.0, 50.0);
        assert_eq!(place_tooltip(band, 100.0, 40.0, all, (0.0, 300.0), 0.0), (150.0, 158.0), "below a full-width band");
        let bottom = PixelRect::new(0.0, 250.0, 400.0, 50.0);
        assert_eq!(place_tooltip(bottom, 100.0, 40.0, all, (0.0, 300.0), 0.0), (150.0, 202.0), "above the last band");
        // A narrow picture: below its left box, clear of the row axis's 56 px when it fits beside them,
        // over them when it does not.
        let narrow = PixelRect::new(56.0, 0.0, 60.0, 100.0);
        assert_eq!(place_tooltip(narrow, 200.0, 40.0, (0.0, 300.0), (0.0, 300.0), 0.0), (0.0, 108.0));
        assert_eq!(place_tooltip(narrow, 200.0, 40.0, (0.0, 300.0), (0.0, 300.0), 56.0), (56.0, 108.0));
        assert_eq!(place_tooltip(narrow, 280.0, 40.0, (0.0, 300.0), (0.0, 300.0), 56.0), (0.0, 108.0));
    }

    #[test]
    fn a_tooltip_stays_in_the_part_of_a_scrolled_picture_in_sight() {
        // A 630 px picture in a 300 px box scrolled to its middle: a piece at the right edge of the part in
        // sight gets its tooltip to its left, not past the edge where it was never seen.
        let visible = visible_columns(200.0, 300.0, 630.0, 630.0);
        assert_eq!(visible, (200.0, 500.0));
        let at_edge = PixelRect::new(420.0, 40.0, 60.0, 60.0);
        assert_eq!(place_tooltip(at_edge, 150.0, 40.0, visible, (0.0, 300.0), 56.0), (262.0, 40.0));
        // A piece half scrolled off the left: to its right, inside the part in sight, the axis long gone.
        let off_left = PixelRect::new(150.0, 40.0, 100.0, 60.0);
        assert_eq!(place_tooltip(off_left, 150.0, 40.0, visible, (0.0, 300.0), 56.0), (258.0, 40.0));
        // Neither side fits: below, centred, and clamped into sight.
        let wide = PixelRect::new(180.0, 40.0, 300.0, 60.0);
        assert_eq!(place_tooltip(wide, 150.0, 40.0, visible, (0.0, 300.0), 56.0), (255.0, 108.0));
        let far_right = PixelRect::new(210.0, 40.0, 520.0, 60.0);
        assert_eq!(
            place_tooltip(far_right, 150.0, 40.0, visible, (0.0, 300.0), 56.0),
            (350.0, 108.0),
            "clamped to the end"
        );
    }

    #[test]
    fn boxes_overlap_by_area_not_by_a_shared_edge() {
        let a = PixelRect::new(0.0, 0.0, 10.0, 10.0);
        assert!(a.overlaps(&PixelRect::new(5.0, 5.0, 10.0, 10.0)));
        assert!(a.overlaps(&PixelRect::new(2.0, 2.0, 1.0, 1.0)), "inside");
        assert!(!a.overlaps(&PixelRect::new(10.0, 0.0, 5.0, 10.0)), "beside, sharing an edge");
        assert!(!a.overlaps(&PixelRect::new(0.0, 12.0, 10.0, 10.0)), "below");
    }

    #[test]
    fn a_tooltip_stays_in_the_rows_in_the_window() {
        // A 470 px picture whose top is 510 px down an 800 px window: its rows 0–290 are in sight. A piece
        // at rows 177–310 with no room beside it gets its tooltip above, not below the window's edge.
        let rows = visible_rows(510.0, 470.0, 800.0, 470.0);
        assert_eq!(rows, (0.0, 290.0));
        let low = PixelRect::new(100.0, 177.0, 300.0, 133.0);
        assert_eq!(place_tooltip(low, 150.0, 60.0, (0.0, 400.0), rows, 56.0), (175.0, 109.0));
        // Scrolled so that the picture's top is 100 px above the window: rows from 100 on.
        assert_eq!(visible_rows(-100.0, 470.0, 800.0, 470.0), (100.0, 470.0));
        // Drawn at twice its size: rows in its own units.
        assert_eq!(visible_rows(510.0, 940.0, 800.0, 470.0), (0.0, 145.0));
        // Out of the window, or not measured: the whole height.
        assert_eq!(visible_rows(900.0, 470.0, 800.0, 470.0), (0.0, 470.0));
        assert_eq!(visible_rows(f64::NAN, 470.0, 800.0, 470.0), (0.0, 470.0));
    }

    #[test]
    fn the_columns_in_sight_follow_the_scroll_and_the_drawn_scale() {
        assert_eq!(visible_columns(0.0, 800.0, 630.0, 630.0), (0.0, 630.0), "a box wider than the picture");
        assert_eq!(visible_columns(330.0, 300.0, 630.0, 630.0), (330.0, 630.0), "scrolled to the end");
        assert_eq!(visible_columns(100.0, 300.0, 1260.0, 630.0), (50.0, 200.0), "drawn at twice its size");
        assert_eq!(visible_columns(10.0, 0.0, 0.0, 630.0), (0.0, 630.0), "not laid out yet");
    }
}
