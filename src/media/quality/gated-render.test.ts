// The gate around real renders: a render off its loudness is rendered once more with a corrected target and
// delivered; a silent narration cannot be corrected and is refused after the second render.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComposeSpec } from '../compose/compose-spec.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { correctedSpec, QualityGateError, renderCompositionGated } from './gated-render.ts';
import type { QualityReport } from './quality-gate.ts';

const W = 270;
const H = 480;

describe('renderCompositionGated', () => {
  let dir = '';
  const at = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-gate-'));
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=240x426:r=30:d=4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      at('clip.mp4'),
    ]);
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-w',
      at('speech.wav'),
      'Every render is measured before it ships.',
    ]);
    // A voice that says nothing: the same length, all zeros.
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono', '-t', '2.5', at('silence.wav')]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const spec = (out: string, narration: string, extra: Partial<ComposeSpec> = {}): ComposeSpec => ({
    outputPath: at(out),
    width: W,
    height: H,
    durationSec: 3,
    scenes: [{ path: at('clip.mp4'), inPoint: 0, duration: 3 }],
    narration: { path: at(narration) },
    encoding: { preset: 'ultrafast' },
    ...extra,
  });

  test('a render off its loudness is rendered again at a corrected target and delivered', async () => {
    const rerendered: QualityReport[] = [];
    const result = await renderCompositionGated({
      // A target 6 LU under the gate's: the first delivery measures about −20 LUFS.
      spec: spec('quiet.mp4', 'speech.wav', { loudness: { integratedLufs: -20 } }),
      onRerender: (report) => void rerendered.push(report),
    });
    assert.equal(rerendered.length, 1);
    assert.deepEqual(rerendered[0]!.failed, ['loudness'], JSON.stringify(rerendered[0]!.checks.loudness));
    assert.equal(result.quality.attempts, 2);
    assert.deepEqual(result.quality.rerendered_after, ['loudness']);
    assert.equal(result.quality.passed, true, JSON.stringify(result.quality.checks, null, 1));
    assert.ok(Math.abs(result.quality.checks.loudness.integrated_lufs! + 14) <= 1);
  });

  test('a scene longer than what is left of its clip freezes; the second render loops the clip', async () => {
    const rerendered: QualityReport[] = [];
    const result = await renderCompositionGated({
      // 1 s of the 4 s clip is left after 3 s: the composition would hold its last frame for 2 s.
      spec: spec('held.mp4', 'speech.wav', { scenes: [{ path: at('clip.mp4'), inPoint: 3, duration: 3 }] }),
      onRerender: (report) => void rerendered.push(report),
    });
    assert.deepEqual(rerendered[0]?.failed, ['frozen'], JSON.stringify(rerendered[0]?.checks.frozen));
    assert.ok(rerendered[0].checks.frozen.longest_sec >= 1.5, JSON.stringify(rerendered[0].checks.frozen));
    assert.equal(result.quality.attempts, 2);
    assert.equal(result.quality.passed, true, JSON.stringify(result.quality.checks, null, 1));
    assert.deepEqual(result.quality.checks.frozen.runs, []);
  });

  test('a silent narration fails twice and is refused', async () => {
    const rerendered: QualityReport[] = [];
    await assert.rejects(
      renderCompositionGated({
        spec: spec('silent.mp4', 'silence.wav'),
        onRerender: (report) => void rerendered.push(report),
      }),
      (error: unknown) => {
        assert.ok(error instanceof QualityGateError);
        assert.equal(error.attempts, 2);
        assert.ok(error.report.failed.includes('loudness'), JSON.stringify(error.report.failed));
        assert.match(error.message, /loudness/);
        return true;
      },
    );
    assert.equal(rerendered.length, 1);
  });

  test('the corrected spec moves the target by the miss and lowers the peak ceiling by the overshoot', () => {
    const failing = (lufs: number | null, peak: number | null): QualityReport =>
      ({
        passed: false,
        failed: [],
        checks: {
          loudness: { passed: lufs === null ? false : Math.abs(lufs + 14) <= 1, integrated_lufs: lufs },
          true_peak: { passed: peak === null || peak <= -1, true_peak_dbtp: peak },
        },
      }) as unknown as QualityReport;
    const base = spec('x.mp4', 'speech.wav');
    assert.deepEqual(correctedSpec(base, failing(-16.5, -3)).loudness, { integratedLufs: -11.5 });
    assert.deepEqual(correctedSpec(base, failing(-14.2, -0.4)).loudness, { truePeakDb: -2.6 });
    // Silence cannot be turned up into a voice: the target is left as it was.
    assert.deepEqual(correctedSpec(base, failing(-70, null)).loudness, {});
    assert.deepEqual(correctedSpec(base, failing(null, null)).loudness, {});
  });
});
