// Where platform UI (captions of the app, buttons, account name) covers a vertical video.

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

// Measured on 1080×1920 TikTok / Reels / Shorts layouts: the header covers ~250 px, the caption,
// account name and music ticker ~400 px at the bottom, the action buttons ~90 px on the right.
const REFERENCE = { width: 1080, height: 1920, top: 250, bottom: 400, side: 90 } as const;

/** The safe zone scaled to a frame (vertical margins with the height, horizontal with the width). */
export function platformSafeZone(frame: FrameSize): SafeZone {
  const sy = frame.height / REFERENCE.height;
  const sx = frame.width / REFERENCE.width;
  return {
    top: Math.round(REFERENCE.top * sy),
    bottom: Math.round(REFERENCE.bottom * sy),
    left: Math.round(REFERENCE.side * sx),
    right: Math.round(REFERENCE.side * sx),
  };
}
