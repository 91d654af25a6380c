//! Where each tile of one mesh goes and what it shows, derived once per change (a `Memo`).

use crate::chart::{
    boxes::PixelRect,
    mesh::{TileGrid, node_blocks, node_runs},
    palette::{device_color, text_on},
    tensor::{Frame, Slice},
};
use crate::core::{
    geometry::Region,
    model::{Mesh, Reshard},
    placement::Placement,
    region::DeviceRegion,
};
use crate::ui::{Side, ViewChoice, format_offset, format_shape};

/// The width a mesh's tiles aim to fill, in pixels.
pub const MESH_WIDTH: f64 = 360.0;
pub const MIN_PITCH: f64 = 12.0;
pub const MAX_PITCH: f64 = 72.0;
/// Tiles at least this large show their device id; at least [`THUMB_PITCH`], a thumbnail and badges.
pub const LABEL_PITCH: f64 = 24.0;
pub const THUMB_PITCH: f64 = 48.0;
/// A mesh of at most [`FEW_TILES`] devices shows thumbnails from this smaller pitch: an 8-device row (FSDP-8,
/// 45 px tiles) is the common case that would otherwise lose them. Larger meshes keep [`THUMB_PITCH`], which
/// also keeps an 8 × 8 mesh (45 px too) cheap to redraw on every edit.
pub const FEW_TILES_THUMB_PITCH: f64 = 44.0;
pub const FEW_TILES: usize = 16;
/// Space between tiles, and above each row for node labels when tiles are large enough to label.
pub const GAP: f64 = 3.0;
pub const NODE_BAND: f64 = 15.0;

/// One device's tile.
#[derive(Clone, Debug, PartialEq)]
pub struct TileSpec {
    pub device: u32,
    /// Row-major index in the mesh (for keyboard moves).
    pub flat: usize,
    pub rect: PixelRect,
    /// Source tiles take their device's colour (the colour of the pieces it sends); `None`: neutral. A mesh
    /// drawn as paths shades every tile, on both sides, by where its region starts instead.
    pub fill: Option<&'static str>,
    pub ink: &'static str,
    pub label: Option<String>,
    /// `R1` (replica 1 of its region) or `P2` (partial contributor 2), when the layout has such dims.
    pub badge: Option<String>,
    /// The tensor view's frame and the region inside it, scaled into the tile.
    pub thumbnail: Option<(PixelRect, Option<PixelRect>)>,
    /// What the accessible name says, kept as data: [`TileSpec::aria`] formats it on demand, because a
    /// large mesh (a thousand tiles) shows one name at a time and an edit would otherwise format them all.
    pub side: Side,
    pub node: u32,
    pub holds: Option<Region>,
    /// Replica and partial-contributor indices, when the layout has such dims.
    pub replica: Option<usize>,
    pub contributor: Option<usize>,
}

impl TileSpec {
    /// The tile without what it holds: what a drawn tile is keyed by, so that an edit which changes only
    /// the regions updates tiles in place instead of rebuilding them.
    pub fn frame(&self) -> TileSpec {
        TileSpec { holds: None, thumbnail: self.thumbnail.map(|(frame, _)| (frame, None)), ..self.clone() }
    }

    /// `R1`, `P2`: the tile's replica and contributor indices.
    fn badges(&self) -> Vec<String> {
        let replica = self.replica.map(|r| format!("R{r}"));
        let contributor = self.contributor.map(|c| format!("P{c}"));
        replica.into_iter().chain(contributor).collect()
    }

    /// The accessible name: `Source device d3, node 0, holds offset [4, 0], shape 4 × 6 (R1)`.
    pub fn aria(&self) -> String {
        let holds = match self.holds {
            Some(r) if r.is_empty() => "an empty shard".to_string(),
            Some(r) => format!("offset {}, shape {}", format_offset(r.offset()), format_shape(r.shape())),
            None => "nothing".to_string(),
        };
        let badges = self.badges().join(", ");
        format!(
            "{} device d{}, node {}, holds {holds}{}",
            if self.side == Side::Source { "Source" } else { "Destination" },
            self.device,
            self.node,
            if badges.is_empty() { String::new() } else { format!(" ({badges})") }
        )
    }
}

/// A node's outline around a run of tiles, with its label when there is room.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeOutline {
    pub rect: PixelRect,
    pub label: Option<String>,
}

/// One mesh, laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshLayout {
    pub side: Side,
    pub grid: TileGrid,
    pub title: String,
    pub tiles: Vec<TileSpec>,
    pub nodes: Vec<NodeOutline>,
    pub width: f64,
    pub height: f64,
    pub has_replicas: bool,
    pub has_partials: bool,
}

impl MeshLayout {
    /// Whether the mesh is drawn as paths (a bounded number of elements) rather than tile by tile: it is
    /// large already, and is not scaled up while presenting.
    pub fn drawn_as_paths(&self) -> bool {
        self.tiles.len() > crate::chart::mesh::TILE_ELEMENTS_MAX
    }
}

/// The side of one tile of a mesh of this shape, in pixels.
fn pitch_of(mesh_shape: &[u64]) -> f64 {
    TileGrid::for_mesh(mesh_shape).pitch(MESH_WIDTH, MIN_PITCH, MAX_PITCH).floor()
}

/// Whether the tiles of `mesh` are large enough to show the region they hold. A few tiles of the smaller
/// pitch show thumbnails only if the widest id and a badge (`R3`, `P1`, `R0·P1`; when `badged`) fit side by
/// side above them: without a badge the tile would not say its replica. `badges`: whether tiles carry a
/// replica badge and a partial-contributor badge.
pub fn has_thumbnails(mesh: &Mesh, badges: (bool, bool)) -> bool {
    let pitch = pitch_of(&mesh.shape);
    if pitch >= THUMB_PITCH {
        return true;
    }
    let few = mesh.devices.len() <= FEW_TILES;
    if !few || pitch < FEW_TILES_THUMB_PITCH {
        return false;
    }
    let digits = |n: usize| n.max(1).ilog10() as f64 + 1.0;
    let widest_id = mesh.devices.iter().max().map_or(1.0, |&d| digits(d as usize));
    // Label: 5 px in, "d" and the id in 11 px bold (~7.7 px a character); badge: "R" or "P" and an index
    // (at most one per device) in 9.5 px mono (~5.7 px), and "·" between both kinds, 4 px from the edge.
    let label = 5.0 + (1.0 + widest_id) * 7.7;
    let kinds = f64::from(u8::from(badges.0) + u8::from(badges.1));
    let badge_chars = kinds * (1.0 + digits(mesh.devices.len())) + (kinds - 1.0).max(0.0);
    let badge = if kinds > 0.0 { 4.0 + badge_chars * 5.7 } else { 0.0 };
    let tile = pitch - 2.0 * gap_of(pitch);
    label + 3.0 + badge <= tile
}

/// Space between tiles: small tiles keep small gaps, or nothing would be left of them.
fn gap_of(pitch: f64) -> f64 {
    (pitch * 0.08).clamp(1.0, GAP)
}

/// Lays out one side's mesh for the tensor and slice shown in the tensor view.
pub fn layout(reshard: &Reshard, view: &ViewChoice, side: Side, regions: &[DeviceRegion]) -> MeshLayout {
    let mesh = if side == Side::Source { &reshard.source_mesh } else { &reshard.destination_mesh };
    let tensor = reshard.tensors.get(view.tensor).or(reshard.tensors.first());
    let placements: &[Placement] = tensor
        .map(|t| if side == Side::Source { &t.source.placements[..] } else { &t.destination.placements[..] })
        .unwrap_or(&[]);
    let has_replicas = placements.contains(&Placement::Replicate);
    let has_partials = placements.contains(&Placement::Partial);
    let grid = TileGrid::for_mesh(&mesh.shape);
    let pitch = pitch_of(&mesh.shape);
    let thumbnails = has_thumbnails(mesh, (has_replicas, has_partials));
    let gap = gap_of(pitch);
    let band = if pitch >= LABEL_PITCH { NODE_BAND } else { gap * 2.0 };
    let row_y = |row: usize| row as f64 * (pitch + band) + band;
    let shape = tensor.map(|t| t.shape.clone()).unwrap_or_default();
    let slice = Slice { row_dim: view.row_dim, col_dim: view.col_dim, index: view.slice.clone() };
    let (rows, cols) = slice.extent(&shape);
    let mut tiles: Vec<TileSpec> = mesh
        .devices
        .iter()
        .enumerate()
        .map(|(flat, &device)| {
            let at = grid.position(flat);
            let rect =
                PixelRect::new(at.col as f64 * pitch + gap, row_y(at.row) + gap, pitch - 2.0 * gap, pitch - 2.0 * gap);
            let fill = (side == Side::Source).then(|| device_color(flat));
            let ink = fill.map_or("currentColor", text_on);
            let region = regions.get(flat);
            let thumbnail = thumbnails.then(|| {
                let (tw, th) = (rect.width - 12.0, rect.height - 24.0);
                let frame = Frame::fit(rows, cols, tw, th, 4.0);
                let x0 = rect.x + (rect.width - frame.width) / 2.0;
                let y0 = rect.y + 18.0 + (th - frame.height) / 2.0 + 2.0;
                let inside = region.and_then(|r| slice.project(&r.region)).map(|cells| {
                    let (x, y, w, h) = frame.rect(cells);
                    PixelRect::new(x0 + x, y0 + y, w.max(1.0), h.max(1.0))
                });
                (PixelRect::new(x0, y0, frame.width, frame.height), inside)
            });
            let mut tile = TileSpec {
                device,
                flat,
                rect,
                fill,
                ink,
                label: (pitch >= LABEL_PITCH).then(|| format!("d{device}")),
                badge: None,
                thumbnail,
                side,
                node: reshard.topology.node_of(device),
                holds: region.map(|r| r.region),
                replica: has_replicas.then(|| region.map_or(0, |r| r.replica)),
                contributor: has_partials.then(|| region.map_or(0, |r| r.contributor)),
            };
            if thumbnails {
                tile.badge = Some(tile.badges().join("·")).filter(|b| !b.is_empty());
            }
            tile
        })
        .collect();
    // A mesh drawn as paths: shades by where each region starts, on both sides (see `shades_by_start`).
    if tiles.len() > crate::chart::mesh::TILE_ELEMENTS_MAX {
        let starts: Vec<Option<&[u64]>> =
            tiles.iter().map(|t| t.holds.as_ref().filter(|r| !r.is_empty()).map(|r| r.offset())).collect();
        let shades = crate::chart::mesh::shades_by_start(&starts);
        for (tile, shade) in tiles.iter_mut().zip(shades) {
            tile.fill = shade;
        }
    }
    let blocks = node_blocks(&node_runs(&grid, &mesh.devices, reshard.topology.devices_per_node));
    let mut labelled = std::collections::HashSet::new();
    let nodes = blocks
        .iter()
        .map(|block| {
            let rect = PixelRect::new(
                block.col0 as f64 * pitch + 1.0,
                row_y(block.row0) + 1.0,
                (block.col1 - block.col0) as f64 * pitch - 2.0,
                row_y(block.row1) - row_y(block.row0) + pitch - 2.0,
            );
            let first = labelled.insert(block.node);
            let label = (pitch >= LABEL_PITCH && first)
                .then(|| if rect.width >= 48.0 { format!("node {}", block.node) } else { format!("n{}", block.node) });
            NodeOutline { rect, label }
        })
        .collect();
    let names = if mesh.dim_names.is_empty() { String::new() } else { format!(" ({})", mesh.dim_names.join(", ")) };
    // Colocated: the same GPUs play both parts, and pieces that stay on a device are local copies.
    let shared = side == Side::Destination && reshard.same_devices();
    let names = if shared { format!("{names} · the source's devices") } else { names };
    MeshLayout {
        side,
        grid,
        title: format!(
            "{} · {} device{} · mesh {}{names}",
            if side == Side::Source { "Source" } else { "Destination" },
            mesh.size(),
            if mesh.size() == 1 { "" } else { "s" },
            format_shape(&mesh.shape)
        ),
        tiles,
        nodes,
        width: grid.cols as f64 * pitch,
        height: row_y(grid.rows) - band + 1.0,
        has_replicas,
        has_partials,
    }
}
