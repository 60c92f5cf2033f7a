// Where platform UI covers a video, by the shape of the frame, and the scale on-screen elements are drawn at.

export interface FrameSize {
  width: number;
  height: number;
}

/** Pixels to keep clear from each edge of the frame. */
export interface SafeZone {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The shorter side on-screen sizes (caption fonts, logo, watermark) are written for, px. */
const REFERENCE_SIDE = 1080;

// Vertical videos, measured on 1080×1920 TikTok / Reels / Shorts layouts: the header covers ~250 px, the
// caption, account name and music ticker ~400 px at the bottom, the action buttons ~90 px on the right.
const VERTICAL = { width: 1080, height: 1920, top: 250, bottom: 400, side: 90 } as const;
// Landscape and square videos play in players and feeds (YouTube, Facebook, LinkedIn, Instagram feed) with
// no UI over the picture but a control bar along the bottom: the graphics-safe margin of EBU R 95 (5 % of
// each side) everywhere, and twice that at the bottom to stay clear of the controls.
const WIDE = { edge: 0.05, bottom: 0.1 } as const;

/** On-screen sizes scale with the shorter side, so a caption is as tall relative to a 16:9 frame as to a 9:16 one. */
export function frameScale(frame: FrameSize): number {
  return Math.min(frame.width, frame.height) / REFERENCE_SIDE;
}

/** The safe zone of a frame: the vertical-app layout on tall frames, the player layout on the others. */
export function platformSafeZone(frame: FrameSize): SafeZone {
  if (frame.height > frame.width) {
    const sy = frame.height / VERTICAL.height;
    const sx = frame.width / VERTICAL.width;
    return {
      top: Math.round(VERTICAL.top * sy),
      bottom: Math.round(VERTICAL.bottom * sy),
      left: Math.round(VERTICAL.side * sx),
      right: Math.round(VERTICAL.side * sx),
    };
  }
  const side = Math.round(frame.width * WIDE.edge);
  return {
    top: Math.round(frame.height * WIDE.edge),
    bottom: Math.round(frame.height * WIDE.bottom),
    left: side,
    right: side,
  };
}
