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
}

/// The most a stacked card is set off from the one under it, and the most the whole stack spreads, in
/// pixels: a deep stack takes smaller steps, so its bottom card still reaches close to the box's far edges.
pub const CARD_STEP: f64 = 8.0;
pub const STACK_SPREAD: f64 = 48.0;

/// Card `index` of `count` cards stacked on `rect`. Several pieces can carry the same box (one per replica
/// of the destination, or one per partial contributor). Each is drawn as the whole box, a step lower and
/// to the right of the one before it, the last on top: every card keeps an edge to point at, and none
/// looks like a part of the box (lanes side by side read as rows or columns of the tensor, which they are
/// not). The cards together fill `rect`; the step is at most [`CARD_STEP`], the stack spreads at most
/// [`STACK_SPREAD`], and the top card keeps at least half the box. `count == 0` is treated as one card.
pub fn card(rect: PixelRect, count: usize, index: usize) -> PixelRect {
    let below = count.max(1) as f64 - 1.0;
    if below == 0.0 {
        return rect;
    }
    let step = (rect.width.min(rect.height) / 2.0).min(STACK_SPREAD) / below;
    let step = step.min(CARD_STEP);
    let offset = (index as f64).min(below) * step;
    PixelRect::new(rect.x + offset, rect.y + offset, rect.width - below * step, rect.height - below * step)
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

/// Where a tooltip of `width × height` goes beside `anchor` inside a `bounds_width × bounds_height` picture,
/// never covering the anchor when it can help it: to the right, else to the left (top-aligned with the
/// anchor), else below, else above (centred on it), else over it. Always kept inside the picture. Returns
/// the tooltip's top-left corner.
pub fn place_tooltip(anchor: PixelRect, width: f64, height: f64, bounds_width: f64, bounds_height: f64) -> (f64, f64) {
    const GAP: f64 = 8.0;
    let clamp_x = |x: f64| x.clamp(0.0, (bounds_width - width).max(0.0));
    let clamp_y = |y: f64| y.clamp(0.0, (bounds_height - height).max(0.0));
    let right = anchor.x + anchor.width + GAP;
    let left = anchor.x - GAP - width;
    let below = anchor.y + anchor.height + GAP;
    let above = anchor.y - GAP - height;
    let centred = clamp_x(anchor.center().0 - width / 2.0);
    if right + width <= bounds_width {
        (right, clamp_y(anchor.y))
    } else if left >= 0.0 {
        (left, clamp_y(anchor.y))
    } else if below + height <= bounds_height {
        (centred, below)
    } else if above >= 0.0 {
        (centred, above)
    } else {
        (centred, clamp_y(anchor.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(row0: u64, row1: u64, col0: u64, col1: u64) -> Cells {
        Cells { row0, row1, col0, col1 }
    }

    #[test]
    fn stacked_cards_are_the_whole_box_set_off_by_a_step() {
        let wide = PixelRect::new(10.0, 20.0, 400.0, 50.0);
        // Two replicas: the first card at the box's corner, the top one a step lower and to the right.
        assert_eq!(card(wide, 2, 0), PixelRect::new(10.0, 20.0, 392.0, 42.0));
        assert_eq!(card(wide, 2, 1), PixelRect::new(18.0, 28.0, 392.0, 42.0));
        assert_eq!(card(wide, 1, 0), wide, "one piece is the box itself");
        assert_eq!(card(wide, 0, 0), wide);
        // Many cards: smaller steps, so the stack spreads at most 48 px (the bottom card most of the box).
        let big = PixelRect::new(0.0, 0.0, 400.0, 400.0);
        assert_eq!(card(big, 9, 8), PixelRect::new(48.0, 48.0, 352.0, 352.0));
        // On a small box the top card keeps half of it, and ends at the box's corner.
        let small = PixelRect::new(0.0, 0.0, 40.0, 40.0);
        let top = card(small, 8, 7);
        assert!((top.width - 20.0).abs() < 1e-9 && (top.x + top.width - 40.0).abs() < 1e-9, "{top:?}");
    }

    proptest::proptest! {
        /// Every card lies inside the box, each is set off from the one under it, and all are one size.
        #[test]
        fn cards_stay_inside_their_box(w in 1.0f64..500.0, h in 1.0f64..500.0, count in 1usize..20) {
            let rect = PixelRect::new(3.0, 5.0, w, h);
            let cards: Vec<PixelRect> = (0..count).map(|i| card(rect, count, i)).collect();
            for (i, c) in cards.iter().enumerate() {
                proptest::prop_assert!(c.x >= rect.x - 1e-9 && c.y >= rect.y - 1e-9);
                proptest::prop_assert!(c.x + c.width <= rect.x + rect.width + 1e-9);
                proptest::prop_assert!(c.y + c.height <= rect.y + rect.height + 1e-9);
                proptest::prop_assert!(c.width >= rect.width / 2.0 - 1e-9 && c.height >= rect.height / 2.0 - 1e-9);
                if i > 0 {
                    proptest::prop_assert!(c.x > cards[i - 1].x && c.y > cards[i - 1].y);
                    proptest::prop_assert!((c.width - cards[0].width).abs() < 1e-9);
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
        let anchor = PixelRect::new(10.0, 20.0, 50.0, 50.0);
        assert_eq!(place_tooltip(anchor, 100.0, 40.0, 400.0, 300.0), (68.0, 20.0), "right of the anchor");
        let near_right = PixelRect::new(300.0, 280.0, 50.0, 10.0);
        assert_eq!(place_tooltip(near_right, 100.0, 40.0, 400.0, 300.0), (192.0, 260.0), "left, pushed up");
        let wide = PixelRect::new(0.0, 0.0, 400.0, 300.0);
        assert_eq!(place_tooltip(wide, 100.0, 40.0, 400.0, 300.0), (150.0, 0.0), "over a box that fills it");
        let band = PixelRect::new(0.0, 100.0, 400.0, 50.0);
        assert_eq!(place_tooltip(band, 100.0, 40.0, 400.0, 300.0), (150.0, 158.0), "below a full-width band");
        let bottom = PixelRect::new(0.0, 250.0, 400.0, 50.0);
        assert_eq!(place_tooltip(bottom, 100.0, 40.0, 400.0, 300.0), (150.0, 202.0), "above the last band");
    }
}
