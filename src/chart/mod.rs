//! The maths of the pictures, with no UI types: scales and ticks, colours, the tensor view's projection,
//! and the mesh view's tile layout. Components only turn these numbers into SVG.

pub mod aggregate;
pub mod bars;
pub mod boxes;
pub mod curve;
pub mod gantt;
pub mod heatmap;
pub mod keys;
pub mod mesh;
pub mod palette;
pub mod ranking;
pub mod readout;
pub mod scale;
pub mod spread;
pub mod tensor;
