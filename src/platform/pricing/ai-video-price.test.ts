import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AI_VIDEO_MODEL_IDS, AI_VIDEO_MODELS } from './ai-video-models.ts';
import { aiVideoPrice, planShots, roundUpTo5Cents } from './ai-video-price.ts';

describe('AI-video price rule (spec 1 §4.4)', () => {
  test('provider cost × revenue multiple, rounded up to 5 cents', () => {
    // flow-2.0 at 1080p: 30 s × $0.30 × 1.3 = $11.70 → 1170 cents.
    const p = aiVideoPrice({
      modelId: 'maker-c/flow-2.0',
      engine: 'fal',
      durationSec: 30,
      resolution: '1080p',
      nativeAudio: true,
      narrated: false,
    });
    assert.equal(p.usdCents, 1170);
    assert.equal(p.plan.shots, 3);
    // wave-3.0 at 720p: 30 × 0.10 × 1.4 = $4.20.
    assert.equal(
      aiVideoPrice({
        modelId: 'wave-3.0',
        engine: 'fal',
        durationSec: 30,
        resolution: '720p',
        nativeAudio: true,
        narrated: false,
      }).usdCents,
      420,
    );
    // pix v6 at 720p: 30 × 0.04 × 1.4 = $1.68 → $1.70.
    assert.equal(
      aiVideoPrice({
        modelId: 'host-x/pix/v6',
        engine: 'fal',
        durationSec: 30,
        resolution: '720p',
        nativeAudio: true,
        narrated: false,
      }).usdCents,
      170,
    );
  });

  test('60 s costs twice the generated seconds; native audio costs more on the ridge-3.0 models only', () => {
    const at = (modelId: (typeof AI_VIDEO_MODEL_IDS)[number], durationSec: number, nativeAudio: boolean) =>
      aiVideoPrice({
        modelId,
        engine: 'replicate',
        durationSec,
        resolution: AI_VIDEO_MODELS[modelId].defaultResolution,
        nativeAudio,
        narrated: false,
      }).usdCents;
    assert.equal(at('ridge-3.0-pro', 60, false), 2 * at('ridge-3.0-pro', 30, false));
    assert.ok(at('ridge-3.0-pro', 30, true) > at('ridge-3.0-pro', 30, false));
    assert.ok(at('ridge-3.0-standard', 30, true) > at('ridge-3.0-standard', 30, false));
    assert.equal(at('maker-c/flow-2.0', 30, true), at('maker-c/flow-2.0', 30, false));
  });

  test('never below the model floor; a short clip pays the floor', () => {
    const p = aiVideoPrice({
      modelId: 'maker-a/sky-3.1',
      engine: 'fal',
      durationSec: 2,
      resolution: '720p',
      nativeAudio: false,
      narrated: false,
    });
    assert.equal(p.usdCents, AI_VIDEO_MODELS['maker-a/sky-3.1'].floorUsdCents);
    assert.equal(
      p.breakdown.reduce((sum, line) => sum + line.usd_cents, 0),
      p.usdCents,
    );
  });

  test('narration adds speech and transcription cost; an extra shot adds that shot', () => {
    const base = {
      modelId: 'host-x/lt-2.3' as const,
      engine: 'fal' as const,
      durationSec: 30,
      resolution: '1440p' as const,
      nativeAudio: false,
    };
    const silent = aiVideoPrice({ ...base, narrated: false });
    const narrated = aiVideoPrice({ ...base, narrated: true });
    assert.ok(narrated.usdCents > silent.usdCents);
    const extra = aiVideoPrice({ ...base, narrated: true, extraShot: true });
    assert.equal(extra.plan.shots, silent.plan.shots + 1);
    assert.equal(extra.plan.videoSec, 40);
    assert.ok(extra.usdCents > narrated.usdCents);
    for (const p of [silent, narrated, extra])
      assert.equal(
        Math.round(p.breakdown.reduce((sum, line) => sum + line.usd_cents, 0) * 1000) / 1000,
        p.usdCents,
      );
  });

  test('every price is a multiple of 5 cents and at least the floor, for every model and length', () => {
    for (const id of AI_VIDEO_MODEL_IDS) {
      const model = AI_VIDEO_MODELS[id];
      for (const resolution of Object.keys(model.resolutions) as (keyof typeof model.resolutions)[])
        for (const durationSec of [2, model.maxClipSec, 30, 60])
          for (const narrated of [false, true]) {
            const p = aiVideoPrice({
              modelId: id,
              engine: 'fal',
              durationSec,
              resolution,
              nativeAudio: true,
              narrated,
            });
            assert.equal(p.usdCents % 5, 0, `${id} ${resolution} ${durationSec}`);
            assert.ok(p.usdCents >= model.floorUsdCents);
          }
    }
  });

  test('the local engine is priced as a render: 2 cents per second', () => {
    const p = aiVideoPrice({
      modelId: 'maker-a/sky-3.1',
      engine: 'local',
      durationSec: 30,
      resolution: '1080p',
      nativeAudio: true,
      narrated: false,
    });
    assert.equal(p.usdCents, 60);
    assert.equal(planShots(AI_VIDEO_MODELS['maker-c/flow-2.0'], 'local', 30).shots, 6);
  });

  test('5-cent rounding is up, and exact amounts stay', () => {
    assert.equal(roundUpTo5Cents(1.26), 130);
    assert.equal(roundUpTo5Cents(1.25), 125);
    assert.equal(roundUpTo5Cents(0.1 + 0.2), 30);
  });
});
