// The brand profile of an analysis (spec 2 §2.3), every field.

export interface BrandColors {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
}

export interface BrandFonts {
  headline: string;
  body: string;
}

export interface BrandProfile {
  name: string;
  url: string;
  tagline: string;
  /** One of the canonical industries (src/brand/profile/industries.ts). */
  industry: string;
  audience: string[];
  tone: string[];
  voice: { recommendation: string; alternatives: string[] };
  topic_pool: string[];
  colors: BrandColors;
  fonts: BrandFonts;
  video_styles: string[];
  anti_styles: string[];
  logo_url: string | null;
}
