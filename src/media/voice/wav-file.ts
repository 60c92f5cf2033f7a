// Reads 16-bit PCM WAV files (what espeak-ng and ffmpeg write) into mono samples.

export interface PcmAudio {
  sampleRate: number;
  /** Mono samples in [-1, 1]; channels are averaged. */
  samples: Float32Array;
  durationSec: number;
}

const PCM = 1;
const EXTENSIBLE = 0xfffe;

export function parseWav(buf: Buffer): PcmAudio {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const declared = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        tag: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk before fmt chunk');
      if ((format.tag !== PCM && format.tag !== EXTENSIBLE) || format.bits !== 16) {
        throw new Error(`unsupported WAV encoding (format ${format.tag}, ${format.bits} bits)`);
      }
      // Streaming writers leave the size as 0 or 0xFFFFFFFF; the data then runs to the end of the file.
      const size = declared === 0 || body + declared > buf.length ? buf.length - body : declared;
      const frames = Math.floor(size / (2 * format.channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < format.channels; c++)
          sum += buf.readInt16LE(body + 2 * (i * format.channels + c));
        samples[i] = sum / format.channels / 32768;
      }
      return { sampleRate: format.sampleRate, samples, durationSec: frames / format.sampleRate };
    }
    offset = body + declared + (declared % 2);
  }
  throw new Error('WAV file has no data chunk');
}
