//! The tensor view's scene: everything the picture draws, derived from the plan, the regions and the view
//! choice once per change (a `Memo`), so hovering never recomputes it.

use std::collections::HashMap;

use crate::chart::{
    aggregate::{
        PIECE_BUDGET, boundary_positions, dim_word, empty_lines, empty_shards, outer_group_boxes, piece_name,
        region_tint, stack_label, stacks,
    },
    boxes::{PixelRect, deck_card, deck_tray},
    palette::device_color,
    tensor::{
        Cells, Frame, Slice, label_center_off_lines, longest_stretch, piece_label, row_axis_margin, thin_boundaries,
    },
};
use crate::core::{
    model::Reshard,
    plan::{Piece, PieceRole, Strategy},
    region::DeviceRegion,
    traffic::PlanSummary,
};
use crate::ui::{Regions, ViewChoice, format_shape};

/// The largest picture of the tensor itself, in pixels; the margins hold the axes.
pub const MAX_WIDTH: f64 = 560.0;
pub const MAX_HEIGHT: f64 = 400.0;
/// Beyond this ratio of columns to rows (or rows to columns) the axes are scaled differently.
pub const MAX_ASPECT: f64 = 4.0;
/// The least left margin; a tall tensor's wider row numbers widen it ([`TensorScene::margin_left`]).
pub const MARGIN_LEFT: f64 = 56.0;
/// Where the row axis's title (turned to read upwards) stands: its baseline, from the picture's left edge.
pub const ROW_TITLE_X: f64 = 10.0;
pub const MARGIN_TOP: f64 = 44.0;
pub const MARGIN_RIGHT: f64 = 14.0;
pub const MARGIN_BOTTOM: f64 = 14.0;
/// Individual cells are drawn only when both sides of the view have at most this many.
pub const CELL_LIMIT: u64 = 32;
/// Boundary lines closer than this many pixels are thinned out (at 6 px, 64 shards a side in a 400 px
/// frame drew as a checkerboard texture rather than as lines).
pub const MIN_LINE_GAP: f64 = 10.0;
/// Font size of piece labels, in pixels: the least, and the most where every box has room for more
/// ([`draw_pieces`]).
pub const LABEL_PX: f64 = 12.0;
pub const LABEL_MAX_PX: f64 = 16.0;
/// The fill of a piece whose sender is not a source device (a ring hop of gather-then-broadcast).
pub const NEUTRAL_FILL: &str = "#9AA5B3";

/// Boundary lines of one side along both axes, already thinned; `every` > 1 says only every nth is shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lines {
    pub rows: Vec<u64>,
    pub cols: Vec<u64>,
    pub every: usize,
}

/// A label that fits inside its piece: one or two lines.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceLabel {
    pub lines: Vec<String>,
    /// How many of `lines` name the piece; the rest (its shape) are drawn lighter.
    pub name_lines: usize,
    pub color: &'static str,
    /// The label's centre: the box's, unless a destination boundary runs through it there.
    pub at: (f64, f64),
    /// The font size of its name, in pixels (the shape's is a twelfth smaller).
    pub font: f64,
}

/// One piece as drawn: its rectangle in the view (inside the frame, before the margins) and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnPiece {
    /// Index in the current summary's pieces (what `Focus::Piece` names).
    pub index: usize,
    pub src: u32,
    pub dst: u32,
    pub rect: PixelRect,
    /// For a piece of a stack (several pieces that carry the same whole box): its card in the deck drawn in
    /// the box's corner, and how the box is drawn.
    pub deck: Option<Deck>,
    pub fill: &'static str,
    /// A local copy (sender and receiver are one device): drawn faded, since it crosses no link.
    pub local: bool,
    pub label: Option<PieceLabel>,
    /// Spoken by screen readers: sender, receiver, shape.
    pub aria: String,
    /// The pieces of the stack whose box this piece draws (index, sender, receiver), else none: the box is
    /// lit when any of them relates to the focus (hovering d13 of fsdp-tp left its whole box faded, being
    /// drawn by d9's piece, and lit only d13's small card).
    pub stack: Vec<(usize, u32, u32)>,
}

/// A stacked piece's part of its box's drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deck {
    /// The piece's card in the deck in the box's corner.
    pub card: PixelRect,
    /// The tray the whole deck lies on (the same for every piece of the stack).
    pub tray: PixelRect,
    /// The first piece of the stack draws the box, once.
    pub draws_box: bool,
    /// The box has several senders (partial contributors): drawn cross-hatched, its senders being the deck's
    /// colours. With one sender (replicas of a destination) the box keeps that sender's colour.
    pub mixed: bool,
}

/// Everything the tensor view draws for the current change and view choice.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorScene {
    pub tensor_name: String,
    pub shape: Vec<u64>,
    pub slice: Slice,
    pub frame: Frame,
    pub row_word: String,
    pub col_word: String,
    pub source_lines: Lines,
    pub destination_lines: Lines,
    /// The boundaries between the source mesh's outer groups (its first dim's, named here), drawn heavier
    /// than the shards' ([`outer_group_boxes`]); `None` when they tell nothing, or are too dense to draw.
    pub source_groups: Option<(String, Lines)>,
    /// The same for the destination mesh, drawn as heavier dashes: a nested destination
    /// (`[Shard(0), Shard(0)]` on `dp × tp`) reads as a flat one without them.
    pub destination_groups: Option<(String, Lines)>,
    /// The pieces drawn one by one (empty when aggregated).
    pub pieces: Vec<DrawnPiece>,
    /// When the pieces are too many to draw: how many there are (`None` when all are drawn).
    pub aggregated: Option<u64>,
    /// When aggregated: the source regions, each filled as its device's tile is, as one path per fill
    /// (empty when the pieces are drawn, or the source has more than [`TINT_REGIONS_MAX`] devices).
    pub tint: Vec<(&'static str, String)>,
    /// The plan's pieces are in memory (so a focused device's pieces can be drawn when aggregated).
    pub pieces_kept: bool,
    /// Several pieces carry the same box somewhere (drawn once, with a deck of cards in its corner).
    pub stacked: bool,
    /// Gather-then-broadcast: the ring hops (each the whole tensor) are not drawn.
    pub ring_hops: usize,
    /// One sentence per empty shard, source side first.
    pub empty: Vec<String>,
    /// Source device id → index in the source mesh (its colour).
    pub colors: HashMap<u32, usize>,
    pub draws_cells: bool,
}

impl TensorScene {
    /// The left margin of this picture: room for the row axis's title and its widest number (with a fixed
    /// 56 px, "5,000" ran into the title).
    pub fn margin_left(&self) -> f64 {
        if self.shape.len() <= 1 { MARGIN_LEFT } else { row_axis_margin(self.frame.rows, ROW_TITLE_X, MARGIN_LEFT) }
    }
    /// The whole picture's size, margins included.
    pub fn size(&self) -> (f64, f64) {
        let margin_right = crate::chart::tensor::col_axis_margin(self.frame.cols, MARGIN_RIGHT);
        (self.margin_left() + self.frame.width + margin_right, MARGIN_TOP + self.frame.height + MARGIN_BOTTOM)
    }
    /// The fill of pieces sent by `device`.
    pub fn fill_of(&self, device: u32) -> &'static str {
        self.colors.get(&device).map_or(NEUTRAL_FILL, |&i| device_color(i))
    }
    /// Where `cells` sit in the frame.
    pub fn rect(&self, cells: Cells) -> PixelRect {
        PixelRect::from_tuple(self.frame.rect(cells))
    }
}

/// Builds the scene, its frame at most `widest` pixels wide ([`MAX_WIDTH`] but on a phone), from the pieces
/// drawn ([`AppState::with_drawn_pieces`](crate::ui::AppState::with_drawn_pieces)). Cost: one pass over the
/// kept pieces of the viewed tensor, one over both sides' regions.
pub fn build(
    reshard: &Reshard,
    view: &ViewChoice,
    regions: &Regions,
    summary: &Result<PlanSummary, String>,
    pieces: Option<&[Piece]>,
    widest: f64,
) -> TensorScene {
    let tensor = reshard.tensors.get(view.tensor).or(reshard.tensors.first());
    let shape = tensor.map(|t| t.shape.clone()).unwrap_or_else(|| vec![1]);
    let rank = shape.len();
    let slice = Slice { row_dim: view.row_dim, col_dim: view.col_dim, index: view.slice.clone() };
    let (rows, cols) = slice.extent(&shape);
    let frame = Frame::fit(rows, cols, widest, MAX_HEIGHT, MAX_ASPECT);
    let lines = |side: &[DeviceRegion], horizontal_pixels: f64, vertical_pixels: f64| {
        let (row_lines, col_lines) =
            boundary_positions(side.iter().filter_map(|r| slice.project(&r.region)), rows, cols);
        let (rows_kept, every_row) = thin_boundaries(&row_lines, rows, vertical_pixels, MIN_LINE_GAP);
        let (cols_kept, every_col) = thin_boundaries(&col_lines, cols, horizontal_pixels, MIN_LINE_GAP);
        Lines { rows: rows_kept, cols: cols_kept, every: every_row.max(every_col) }
    };
    // A side's outer-group boundaries, drawn only when every one of them fits (thinned, they would
    // claim groups that are not there).
    let groups = |side: &[DeviceRegion], dim_names: &[String]| {
        let (rows_at, cols_at) = boundary_positions(outer_group_boxes(side, &slice), rows, cols);
        let (rows_kept, every_row) = thin_boundaries(&rows_at, rows, frame.height, MIN_LINE_GAP);
        let (cols_kept, every_col) = thin_boundaries(&cols_at, cols, frame.width, MIN_LINE_GAP);
        let drawn = every_row.max(every_col) <= 1 && !(rows_kept.is_empty() && cols_kept.is_empty());
        drawn.then(|| {
            let name = dim_names.first().cloned().unwrap_or_default();
            (name, Lines { rows: rows_kept, cols: cols_kept, every: 1 })
        })
    };
    let colors: HashMap<u32, usize> = reshard.source_mesh.devices.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    let mut empty: Vec<String> = Vec::new();
    for (side, list) in [("Source", &regions.source), ("Destination", &regions.destination)] {
        empty.extend(empty_lines(side, &empty_shards(list), |dim| dim_word(dim, view.row_dim, view.col_dim, rank)));
    }
    let mut scene = TensorScene {
        tensor_name: tensor.map(|t| t.name.clone()).unwrap_or_default(),
        row_word: dim_word(view.row_dim, view.row_dim, view.col_dim, rank),
        col_word: dim_word(view.col_dim, view.row_dim, view.col_dim, rank),
        source_lines: lines(&regions.source, frame.width, frame.height),
        destination_lines: lines(&regions.destination, frame.width, frame.height),
        source_groups: groups(&regions.source, &reshard.source_mesh.dim_names),
        destination_groups: groups(&regions.destination, &reshard.destination_mesh.dim_names),
        draws_cells: frame.draws_cells(CELL_LIMIT),
        shape,
        slice,
        frame,
        pieces: Vec::new(),
        aggregated: None,
        tint: Vec::new(),
        pieces_kept: false,
        stacked: false,
        ring_hops: 0,
        empty,
        colors,
    };
    let Ok(summary) = summary else { return scene };
    let tensor_index = view.tensor;
    match pieces {
        Some(pieces) => {
            scene.pieces_kept = true;
            let mut shown: Vec<(usize, &Piece)> = Vec::new();
            for (index, piece) in pieces.iter().enumerate().filter(|(_, p)| p.tensor == tensor_index) {
                if summary.strategy == Strategy::Gather && piece.role == PieceRole::RingHop {
                    scene.ring_hops += 1;
                } else if scene.slice.project(&piece.keep).is_some() {
                    shown.push((index, piece));
                }
            }
            if shown.len() > PIECE_BUDGET {
                scene.aggregated = Some(shown.len() as u64);
            } else {
                scene.pieces = draw_pieces(&scene, &shown);
                scene.stacked = scene.pieces.len() > 1 && has_stacks(&scene, &shown);
            }
        }
        None => {
            let count = summary.traffic.per_tensor.get(tensor_index).map_or(0, |t| t.pieces);
            scene.aggregated = Some(count);
        }
    }
    if scene.aggregated.is_some() {
        scene.tint = source_tint(&scene, &regions.source);
    }
    scene
}

/// The source regions tinted as the mesh view fills their devices' tiles ([`region_tint`]).
fn source_tint(scene: &TensorScene, source: &[DeviceRegion]) -> Vec<(&'static str, String)> {
    region_tint(source, &scene.slice, |device| scene.fill_of(device), |cells| scene.rect(cells))
}

fn has_stacks(scene: &TensorScene, shown: &[(usize, &Piece)]) -> bool {
    let boxes: Vec<Cells> = shown.iter().filter_map(|(_, p)| scene.slice.project(&p.keep)).collect();
    stacks(&boxes).iter().any(|&(_, n)| n > 1)
}

/// Where a piece's label is centred: off the destination boundaries that cross its box (a box larger than
/// what one destination keeps: a gathered shard), along each axis where a stretch between them holds it.
/// `cuts`: the destination boundaries in pixels, columns then rows ([`destination_cuts`]).
fn label_at(cuts: &(Vec<f64>, Vec<f64>), rect: PixelRect, lines: &[String], font: f64) -> (f64, f64) {
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let (width, height) = (longest as f64 * font * 0.62, lines.len() as f64 * font * 1.2);
    (
        label_center_off_lines(rect.x, rect.x + rect.width, &cuts.0, width),
        label_center_off_lines(rect.y, rect.y + rect.height, &cuts.1, height),
    )
}

/// The drawn destination boundaries in pixels, columns then rows: mapped once per scene, not per piece.
fn destination_cuts(scene: &TensorScene) -> (Vec<f64>, Vec<f64>) {
    let lines = &scene.destination_lines;
    (lines.cols.iter().map(|&c| scene.frame.x(c)).collect(), lines.rows.iter().map(|&r| scene.frame.y(r)).collect())
}

/// Lays out `shown` pieces (already filtered to the view): each box where its receiver keeps it, labelled
/// when the label fits; a box several pieces carry is drawn once, with a deck of one card per piece. The
/// labels share one font size, as large as every box allows ([`crate::chart::tensor::shared_label_font`]).
pub fn draw_pieces(scene: &TensorScene, shown: &[(usize, &Piece)]) -> Vec<DrawnPiece> {
    let projected: Vec<(usize, &Piece, Cells)> =
        shown.iter().filter_map(|&(i, p)| scene.slice.project(&p.keep).map(|c| (i, p, c))).collect();
    let boxes: Vec<Cells> = projected.iter().map(|(_, _, c)| *c).collect();
    let cuts = destination_cuts(scene);
    let laid: Vec<LaidPiece> = projected
        .iter()
        .zip(stacks(&boxes))
        .map(|(&(index, piece, cells), (place, stack))| {
            // Who sends and receives on this box (stacks are few and small: a scan will do).
            let stacked: Vec<(usize, &Piece)> = if stack > 1 {
                projected.iter().filter(|(_, _, c)| *c == cells).map(|(i, p, _)| (*i, *p)).collect()
            } else {
                Vec::new()
            };
            // A stack's box is drawn and labelled once, by its first piece; the label names and counts them.
            let on_top = place == 0;
            // A local copy crosses no link: say so where the arrow would be.
            let name = if !on_top {
                String::new()
            } else if stack > 1 {
                stack_label(&stacked.iter().map(|(_, p)| (p.src, p.dst, p.contributor)).collect::<Vec<_>>())
            } else {
                piece_name(piece.src, piece.dst, piece.is_local())
            };
            let shape = format_shape(piece.keep.shape());
            let size = if stack > 1 { format!("{shape} · {stack} pieces") } else { shape.clone() };
            let rect = scene.rect(cells);
            // The room a label has: the longest stretch of the box each way that no destination boundary
            // crosses (a gathered shard's "d0 (local)" fitted the box, not the stretch, and sat on the line).
            let room = (
                longest_stretch(rect.x, rect.x + rect.width, &cuts.0),
                longest_stretch(rect.y, rect.y + rect.height, &cuts.1),
            );
            LaidPiece {
                index,
                piece,
                rect,
                room,
                fill: scene.fill_of(piece.src),
                place,
                stack,
                members: stacked.iter().map(|(i, p)| (*i, p.src, p.dst)).collect(),
                name,
                shape,
                size,
            }
        })
        .collect();
    let font = crate::chart::tensor::shared_label_font(
        laid.iter().filter(|l| l.place == 0).map(|l| (l.name.chars().count().max(l.size.chars().count()), l.room)),
        LABEL_PX,
        LABEL_MAX_PX,
    );
    laid.into_iter().map(|l| l.drawn(&cuts, font)).collect()
}

/// A piece placed in the picture, before its label's font is known (all labels share one).
struct LaidPiece<'a> {
    index: usize,
    piece: &'a Piece,
    rect: PixelRect,
    /// The room its label has, off the lines that cross it ([`longest_stretch`]).
    room: (f64, f64),
    fill: &'static str,
    /// Its place in the stack of pieces its box carries (0: the one that draws and labels the box).
    place: usize,
    stack: usize,
    /// The stack's pieces: index, sender, receiver.
    members: Vec<(usize, u32, u32)>,
    name: String,
    shape: String,
    /// The shape, and a stack's count.
    size: String,
}

impl LaidPiece<'_> {
    fn drawn(self, cuts: &(Vec<f64>, Vec<f64>), font: f64) -> DrawnPiece {
        let LaidPiece { index, piece, rect, room, fill, place, stack, members, name, shape, size } = self;
        let on_top = place == 0;
        let mixed = members.iter().any(|&(_, src, _)| src != piece.src);
        let label = on_top.then(|| {
            let lines = piece_label(&name, &size, (piece.src, piece.dst), stack.saturating_sub(1), room, font)?;
            // On a box several devices send (cross-hatched, no colour of its own), the page's text colour.
            let color = if mixed { "currentColor" } else { crate::chart::palette::text_on(fill) };
            let at = label_at(cuts, rect, &lines, font);
            let name_lines = crate::chart::tensor::name_lines(&lines, &size);
            Some(PieceLabel { lines, name_lines, color, at, font })
        });
        DrawnPiece {
            index,
            src: piece.src,
            dst: piece.dst,
            rect,
            deck: (stack > 1).then(|| Deck {
                card: deck_card(rect, stack, place),
                tray: deck_tray(rect, stack),
                draws_box: on_top,
                mixed,
            }),
            fill,
            local: piece.is_local(),
            label: label.flatten(),
            aria: format!("piece from d{} to d{}, shape {shape}", piece.src, piece.dst),
            stack: if on_top { members } else { Vec::new() },
        }
    }
}
