// Licences of what the service itself supplies to a video (generated footage and music, local voices, system
// fonts); web fonts carry theirs in the font catalogue, read from their packages.

/**
 * Footage and music the service generates (procedural clips, General MIDI beds) are the project's own work,
 * dedicated to the public domain: whoever renders with them may use the result for anything, with no credit.
 */
export const OWN_WORK_LICENCE = 'CC0-1.0';

/** The instrument samples every generated music bed is played with (Debian fluid-soundfont-gm). */
export const SOUNDFONT_CREDIT = { name: 'FluidR3_GM', licence: 'MIT' } as const;

/**
 * Local speech engines. Their licences cover the programs and voice data; the speech they synthesize is their
 * output, which the licences place no restriction on.
 */
export const VOICE_ENGINE_LICENCES: Readonly<Record<string, string>> = Object.freeze({
  espeak: 'GPL-3.0-or-later',
  flite: 'BSD-style (CMU Flite)',
  festival: 'BSD-style (Festival, HTS voice EST-2003)',
});

/** System fonts captions and the watermark may use (Debian fonts-dejavu-core, fonts-liberation2). */
export function systemFontLicence(fontFileOrFamily: string): string {
  if (/liberation/i.test(fontFileOrFamily)) return 'OFL-1.1';
  if (/dejavu/i.test(fontFileOrFamily)) return 'Bitstream-Vera';
  return 'unknown (system font)';
}
