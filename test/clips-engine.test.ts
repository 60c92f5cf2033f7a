import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ClipSourceError } from '../src/media/clips/clip-errors.ts';
import { cutClips, type ClipPipelineResult, type RenderedClip } from '../src/media/clips/clip-pipeline.ts';
import { renderClip } from '../src/media/clips/render-clip.ts';
import { measureLoudness } from '../src/media/ffmpeg/measure.ts';
import { isFaststart, readTopLevelAtoms } from '../src/media/ffmpeg/mp4-atoms.ts';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { findMoments } from '../src/media/moments/find-moments.ts';
import { normalizeToken } from '../src/media/moments/text-signals.ts';
import { PocketsphinxRecognizer } from '../src/media/speech/pocketsphinx-recognizer.ts';
import type { SpeechRecognizer } from '../src/media/speech/recognizer.ts';
import type { WordTiming } from '../src/media/types.ts';
import { pocketsphinxTimer } from '../src/media/voice/pocketsphinx-timer.ts';
import { splitScript } from '../src/media/voice/script-words.ts';
import {
  makeLongVideo,
  scriptRecognizer,
  type LongVideo,
  type PlacedPassage,
} from './support/long-video-fixture.ts';
import { frameRgb } from './support/media-files.ts';

// The clip engine end to end on a narrated two-minute video with known strong and filler passages: which
// moments it picks, where it cuts, whether captions follow the speech, and what the files are.

const SCALE = 0.25;
let dir: string;
let video: LongVideo;
let result: ClipPipelineResult;
const progress: { stage: string; percent: number }[] = [];

function ffmpeg(args: string[]): Buffer {
  const run = spawnSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, run.stderr.toString());
  return run.stdout;
}

/** The clip's audio as 16 kHz mono samples. */
function samples(path: string): Int16Array {
  const raw = ffmpeg(['-i', path, '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-f', 's16le', '-']);
  return new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
}

function rms(values: Int16Array): number {
  let sum = 0;
  for (const v of values) sum += v * v;
  return Math.sqrt(sum / Math.max(1, values.length));
}

/** Overlap (s) of [a, b] with [c, d]. */
function overlap(a: number, b: number, c: number, d: number): number {
  return Math.max(0, Math.min(b, d) - Math.max(a, c));
}

function passageOf(clip: RenderedClip): PlacedPassage {
  return video.passages.reduce((best, p) =>
    overlap(clip.startSec, clip.endSec, p.startSec, p.endSec) >
    overlap(clip.startSec, clip.endSec, best.startSec, best.endSec)
      ? p
      : best,
  );
}

function wordsOf(clip: RenderedClip): WordTiming[] {
  return video.words.filter((w) => w.start >= clip.startSec && w.end <= clip.endSec);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-clips-'));
  video = await makeLongVideo(dir);
  result = await cutClips({
    sourcePath: video.path,
    workDir: join(dir, 'work'),
    clipCount: 3,
    aspectRatio: '9:16',
    captions: true,
    recognizer: scriptRecognizer(video),
    preset: 'ultrafast',
    outputScale: SCALE,
    onProgress: (stage, percent) => {
      progress.push({ stage, percent });
    },
  });
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cutClips on a narrated long video', () => {
  test('the strong passages are picked, best first, with titles from their own words', () => {
    assert.equal(result.clips.length, 3);
    assert.equal(result.language, 'en');
    assert.ok(Math.abs(result.sourceDurationSec - video.durationSec) < 0.1);
    const scores = result.clips.map((c) => c.viralScore);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
    assert.deepEqual(
      result.clips.map((c) => c.index),
      [0, 1, 2],
    );
    for (const clip of result.clips) {
      const words = wordsOf(clip);
      const strongSec = words
        .filter((w) => video.passages.some((p) => p.strong && w.start >= p.startSec && w.end <= p.endSec))
        .reduce((s, w) => s + w.end - w.start, 0);
      const allSec = words.reduce((s, w) => s + w.end - w.start, 0);
      assert.ok(
        strongSec / allSec >= 0.9,
        `clip "${clip.title}" is ${Math.round((100 * strongSec) / allSec)} % strong`,
      );
      const said = new Set(clip.transcript.split(' ').map(normalizeToken));
      for (const word of clip.title.split(' '))
        assert.ok(said.has(normalizeToken(word)), `${word} of "${clip.title}"`);
      assert.ok(clip.durationSec >= 15 && clip.durationSec <= 61, String(clip.durationSec));
      assert.ok(Object.keys(clip.scoreBreakdown).includes('hook'));
    }
    for (const passage of video.passages.filter((p) => p.strong)) {
      assert.ok(
        result.clips.some((c) => overlap(c.startSec, c.endSec, passage.startSec, passage.endSec) > 0),
        `strong passage at ${passage.startSec} s has no clip`,
      );
    }
  });

  test('every clip starts and ends in silence between words: no word is cut', () => {
    for (const clip of result.clips) {
      for (const w of video.words) {
        for (const cut of [clip.startSec, clip.endSec]) {
          assert.ok(
            w.end <= cut + 0.01 || w.start >= cut - 0.01,
            `"${w.word}" ${w.start}-${w.end} cut at ${cut}`,
          );
        }
      }
      const audio = samples(clip.path);
      const edge = 16000 * 0.04;
      const level = rms(audio);
      assert.ok(rms(audio.subarray(0, edge)) < level * 0.01, `clip ${clip.index} opens on sound`);
      assert.ok(rms(audio.subarray(audio.length - edge)) < level * 0.01, `clip ${clip.index} ends on sound`);
    }
  });

  test('captions highlight each word when the clip audio says it', async () => {
    for (const clip of result.clips) {
      assert.ok(clip.captionsPath);
      const ass = await readFile(clip.captionsPath, 'utf8');
      const events = [
        ...ass.matchAll(/^Dialogue: 0,(\d+):(\d\d):(\d\d\.\d\d),[^\n]*?\{\\1c&H[0-9A-F]+&\}([^{]*)\{/gm),
      ].map((m) => ({
        start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
        word: normalizeToken(m[4]!),
      }));
      // Align the clip transcript against the clip's own audio track, decoded from the rendered MP4.
      const wav = join(dir, `clip-${clip.index}.wav`);
      ffmpeg(['-i', clip.path, '-map', '0:a:0', '-ac', '1', '-ar', '16000', wav]);
      const aligned = await pocketsphinxTimer().time({
        audioPath: wav,
        language: 'en',
        segments: [
          {
            start: 0,
            end: clip.durationSec,
            words: splitScript(clip.transcript, 'en').flatMap((s) => s.words),
          },
        ],
      });
      assert.equal(events.length, aligned.words.length);
      const errors = aligned.words.map((w, i) => {
        assert.equal(events[i]!.word, normalizeToken(w.word));
        return Math.abs(events[i]!.start - w.start);
      });
      errors.sort((a, b) => a - b);
      const median = errors[Math.floor(errors.length / 2)]!;
      const p90 = errors[Math.floor(errors.length * 0.9)]!;
      assert.ok(median <= 0.08 && p90 <= 0.2, `clip ${clip.index}: median ${median}, p90 ${p90}`);
    }
  });

  test('clips are 9:16 H.264/AAC with faststart, at −14 LUFS, with a poster', async () => {
    for (const clip of result.clips) {
      const info = await probeMedia(clip.path);
      assert.equal(info.video?.codec, 'h264');
      assert.equal(info.video?.width, 270);
      assert.equal(info.video?.height, 480);
      assert.equal(clip.width, 270);
      assert.equal(clip.height, 480);
      assert.equal(info.audio?.codec, 'aac');
      assert.equal(info.audio?.channels, 2);
      assert.equal(info.audio?.sampleRate, 48000);
      assert.ok(Math.abs(info.durationSec - (clip.endSec - clip.startSec)) < 0.1);
      assert.ok(isFaststart(await readTopLevelAtoms(clip.path)));
      const loudness = await measureLoudness(clip.path);
      assert.ok(Math.abs(loudness.integratedLufs - -14) <= 1, String(loudness.integratedLufs));
      assert.ok(loudness.truePeakDb <= -0.5, String(loudness.truePeakDb));
      const poster = await probeMedia(clip.posterPath);
      assert.equal(poster.video?.codec, 'mjpeg');
      assert.equal(poster.video?.width, 270);
      // The clip file's quality report (docs/quality.md): sound and captions gated, the picture reported.
      const { quality } = clip;
      assert.equal(quality.passed, true, JSON.stringify(quality));
      assert.ok(Math.abs(quality.checks.loudness.integrated_lufs! - loudness.integratedLufs) < 0.2);
      assert.ok(quality.checks.av_sync.difference_ms! < 40);
      assert.equal(quality.checks.caption_sync.passed, true, JSON.stringify(quality.checks.caption_sync));
      assert.ok(quality.checks.caption_sync.compared >= 3);
      assert.equal(quality.checks.black.gated, false);
      assert.equal(quality.checks.frozen.gated, false);
      assert.equal(clip.captionFont !== null, true);
    }
    assert.deepEqual(result.dropped, []);
  });

  test('the crop follows the moving subject; shots without one are fitted over a blur', async () => {
    const kinds = new Set<string>();
    for (const clip of result.clips) {
      const passage = passageOf(clip);
      if (passage.subject === null) {
        assert.equal(clip.framing.mode, 'fit');
        kinds.add('fit');
        continue;
      }
      assert.equal(clip.framing.mode, 'crop');
      if (clip.framing.mode !== 'crop') continue;
      kinds.add('crop');
      for (const segment of clip.framing.segments) {
        const centre = (segment.offset + clip.framing.cropWidth / 2) / video.width;
        assert.ok(
          Math.abs(centre - passage.subject) < 0.06,
          `centre ${centre} for subject ${passage.subject}`,
        );
      }
      // The subject (a yellow square) is on screen, near the middle of the vertical frame.
      const frame = await frameRgb(clip.path, 5);
      let count = 0;
      let sumX = 0;
      for (let i = 0; i < frame.length; i += 3) {
        if (frame[i]! > 200 && frame[i + 1]! > 170 && frame[i + 2]! < 80) {
          count++;
          sumX += (i / 3) % clip.width;
        }
      }
      assert.ok(count > 50, `only ${count} subject pixels`);
      assert.ok(Math.abs(sumX / count / clip.width - 0.5) < 0.25);
    }
    assert.deepEqual([...kinds].sort(), ['crop', 'fit']);
  });

  test('progress runs in order up to 100', () => {
    const percents = progress.map((p) => p.percent);
    assert.deepEqual(
      percents,
      [...percents].sort((a, b) => a - b),
    );
    assert.equal(percents[percents.length - 1], 100);
    for (const stage of ['transcribe', 'moments', 'render'])
      assert.ok(
        progress.some((p) => p.stage === stage),
        stage,
      );
  });

  test('a retried run reuses the transcript and the finished clips', async () => {
    const refusing: SpeechRecognizer = {
      id: 'fixture-script-aligner',
      languages: () => ['en'],
      transcribe: () => Promise.reject(new Error('the transcript should have been reused')),
    };
    const before = await Promise.all(result.clips.map((c) => stat(c.path)));
    const again = await cutClips({
      sourcePath: video.path,
      workDir: join(dir, 'work'),
      clipCount: 3,
      aspectRatio: '9:16',
      captions: true,
      recognizer: refusing,
      preset: 'ultrafast',
      outputScale: SCALE,
    });
    // The finished clips are measured again (the same files measure the same; only the wall time differs).
    const untimed = (clips: RenderedClip[]) =>
      clips.map((c) => ({ ...c, quality: { ...c.quality, measure_sec: 0 } }));
    assert.deepEqual(untimed(again.clips), untimed(result.clips));
    assert.deepEqual(again.stageSeconds, {
      audio: 0,
      transcribe: 0,
      moments: again.stageSeconds.moments,
      motion: 0,
      encode: 0,
    });
    const afterStats = await Promise.all(again.clips.map((c) => stat(c.path)));
    assert.deepEqual(
      afterStats.map((s) => s.mtimeMs),
      before.map((s) => s.mtimeMs),
    );
  });

  test('a focus picks the moments that talk about it', () => {
    const words = video.words.map((w) => ({ ...w, word: normalizeToken(w.word) }));
    const moments = findMoments({
      words,
      durationSec: video.durationSec,
      loudness: [],
      clipCount: 3,
      focus: 'phones and social media',
    });
    const phone = video.passages.find((p) => p.text.includes('phone'))!;
    assert.equal(moments.length, 1);
    assert.ok(moments[0]!.startSec >= phone.startSec - 0.01 && moments[0]!.endSec <= phone.endSec + 0.01);
  });
});

describe('renderClip in other shapes', () => {
  test('16:9 to 1:1 without captions', async () => {
    const clip = result.clips[0]!;
    const { clip: out } = await renderClip({
      sourcePath: video.path,
      source: { width: video.width, height: video.height, fps: 25 },
      bounds: { startSec: clip.startSec, endSec: clip.endSec, durationSec: clip.endSec - clip.startSec },
      words: wordsOf(clip),
      loudness: [],
      width: 270,
      height: 270,
      captions: false,
      preset: 'ultrafast',
      basePath: join(dir, 'square'),
    });
    assert.equal(out.captionsPath, null);
    assert.equal(existsSync(join(dir, 'square.ass')), false);
    const info = await probeMedia(out.path);
    assert.deepEqual([info.video?.width, info.video?.height], [270, 270]);
    assert.equal(info.audio?.codec, 'aac');
  });

  test('a portrait source to 16:9 crops along the height, around the motion', async () => {
    const source = join(dir, 'portrait.mp4');
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=0x203040:s=180x320:r=25:d=8[bg];color=c=0xFFD60A:s=20x20:r=25:d=8[box];' +
        "[bg][box]overlay=x='W/2-w/2+30*sin(2*PI*t/2)':y='H*0.3-h/2+8*sin(2*PI*t/1.3)':eval=frame,format=yuv420p",
      '-f',
      'lavfi',
      '-i',
      'sine=f=220:d=8',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-shortest',
      source,
    ]);
    const { clip: out } = await renderClip({
      sourcePath: source,
      source: { width: 180, height: 320, fps: 25 },
      bounds: { startSec: 1, endSec: 7, durationSec: 6 },
      words: [],
      loudness: [],
      width: 192,
      height: 108,
      captions: true,
      preset: 'ultrafast',
      basePath: join(dir, 'landscape'),
    });
    assert.equal(out.framing.mode, 'crop');
    if (out.framing.mode !== 'crop') return;
    assert.equal(out.framing.axis, 'y');
    const centre = (out.framing.segments[0]!.offset + out.framing.cropHeight / 2) / 320;
    assert.ok(Math.abs(centre - 0.3) < 0.06, String(centre));
    const info = await probeMedia(out.path);
    assert.deepEqual([info.video?.width, info.video?.height], [192, 108]);
  });
});

describe('sources that cannot give clips', () => {
  test('a source without a video stream is refused with a clear error', async () => {
    const audioOnly = join(dir, 'audio-only.m4a');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=f=300:d=3', '-c:a', 'aac', audioOnly]);
    await assert.rejects(
      cutClips({
        sourcePath: audioOnly,
        workDir: join(dir, 'audio-only'),
        clipCount: 2,
        aspectRatio: '9:16',
        captions: true,
        recognizer: new PocketsphinxRecognizer(),
      }),
      (error: unknown) => error instanceof ClipSourceError && error.problem === 'NO_VIDEO_STREAM',
    );
  });

  test('a video without speech, or without sound, gives no clips', async () => {
    const silent = join(dir, 'silent.mp4');
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x90:r=10:d=8',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=48000:cl=stereo',
      '-t',
      '8',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      silent,
    ]);
    const mute = join(dir, 'mute.mp4');
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x90:r=10:d=4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      mute,
    ]);
    for (const [name, sourcePath] of [
      ['silent', silent],
      ['mute', mute],
    ] as const) {
      const none = await cutClips({
        sourcePath,
        workDir: join(dir, name),
        clipCount: 2,
        aspectRatio: '1:1',
        captions: true,
        recognizer: new PocketsphinxRecognizer(),
        preset: 'ultrafast',
        outputScale: SCALE,
      });
      assert.deepEqual(none.clips, [], name);
      assert.ok(none.sourceDurationSec > 3, name);
    }
  });
});
