// WebVTT (.vtt) writer.
import type { WordTiming } from '../types.ts';
import { cuesOf, type Cue, type CueOptions } from './cues.ts';
import { vttTimestamp } from './timecode.ts';

/** Cue text is parsed for markup in WebVTT, so `&`, `<` and `>` must be written as character references. */
function escapeCueText(line: string): string {
  return line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function toVtt(input: readonly WordTiming[] | readonly Cue[], opts: CueOptions = {}): string {
  const blocks = cuesOf(input, opts).map(
    (cue) =>
      `${vttTimestamp(cue.start)} --> ${vttTimestamp(cue.end)}\n${cue.lines.map(escapeCueText).join('\n')}\n`,
  );
  return ['WEBVTT\n', ...blocks].join('\n');
}
