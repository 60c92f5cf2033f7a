// SubRip (.srt) writer.
import type { WordTiming } from '../types.ts';
import { cuesOf, type Cue, type CueOptions } from './cues.ts';
import { srtTimestamp } from './timecode.ts';

export function toSrt(input: readonly WordTiming[] | readonly Cue[], opts: CueOptions = {}): string {
  return cuesOf(input, opts)
    .map(
      (cue, i) =>
        `${i + 1}\n${srtTimestamp(cue.start)} --> ${srtTimestamp(cue.end)}\n${cue.lines.join('\n')}\n`,
    )
    .join('\n');
}
