// A logo after normalization (spec 2 §2.4 `logo`): what the kit stores, measures and renders with.

export type LogoSourceFormat = 'png' | 'jpeg' | 'webp' | 'svg';
export type LogoBackground = 'transparent' | 'white_removed' | 'solid_kept';
export type LogoAspectClass = 'icon' | 'wordmark' | 'tall';
export type LogoLuminance = 'light' | 'dark' | 'mixed';

export interface LogoMeasurements {
  width: number;
  height: number;
  source_format: LogoSourceFormat;
  background: LogoBackground;
  trimmed: boolean;
  aspect_ratio: number;
  aspect_class: LogoAspectClass;
  luminance: LogoLuminance;
  /** Mean luma (0–255) of the logo's opaque pixels. */
  mean_luma: number;
  monochrome: boolean;
  normalized_at: string;
}

export interface NormalizedLogo {
  /** Transparent PNG, background removed and margins trimmed. */
  png: Buffer;
  measurements: LogoMeasurements;
  /** Dominant colours of the logo's own pixels (background and near-greys ignored), most used first, `#RRGGBB`. */
  colors: string[];
}
