import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AiVideoRuleError,
  imageToVideoSchema,
  resolveAiVideoRequest,
  textToVideoSchema,
  type EngineChooser,
} from './ai-video-request.ts';

const hosted: EngineChooser = () => 'fal';
const local: EngineChooser = () => 'local';

function resolve(body: Record<string, unknown>, engineFor: EngineChooser = hosted) {
  return resolveAiVideoRequest(textToVideoSchema.parse(body), 'text_to_video', engineFor);
}

function refusal(body: Record<string, unknown>, engineFor: EngineChooser = hosted) {
  try {
    resolve(body, engineFor);
  } catch (error) {
    if (error instanceof AiVideoRuleError) return error.issues;
    throw error;
  }
  assert.fail('expected a refusal');
}

describe('AI-video request rules (spec 1 §4.4)', () => {
  test('defaults: flow-2.0 at xhigh, 30 s, 9:16, the model resolution, no narration, music on', () => {
    const r = resolve({ prompt: 'A lighthouse at dawn' });
    assert.equal(r.model, 'maker-c/flow-2.0');
    assert.equal(r.tier, 'xhigh');
    assert.equal(r.duration_sec, 30);
    assert.equal(r.aspect_ratio, '9:16');
    assert.equal(r.resolution, '1080p');
    assert.equal(r.narrated, false);
    assert.equal(r.captions, false);
    assert.equal(r.music, true);
    assert.equal(r.native_audio, true);
  });

  test('the five tiers choose their models, and model wins over quality_tier', () => {
    const tiers: [string, string][] = [
      ['low', 'wave-3.0'],
      ['medium', 'ridge-3.0-standard'],
      ['high', 'ridge-3.0-pro'],
      ['xhigh', 'maker-c/flow-2.0'],
      ['max', 'maker-a/sky-3.1'],
    ];
    for (const [tier, model] of tiers)
      assert.equal(resolve({ prompt: 'x', quality_tier: tier }).model, model);
    const both = resolve({ prompt: 'x', quality_tier: 'low', model: 'host-x/lt-2.3' });
    assert.equal(both.model, 'host-x/lt-2.3');
    assert.equal(both.tier, 'custom');
  });

  test('an unknown model id silently runs the default model', () => {
    const r = resolve({ prompt: 'x', model: 'nobody/video-9' });
    assert.equal(r.model, 'maker-c/flow-2.0');
    assert.equal(r.unknown_model, 'nobody/video-9');
  });

  test('native_audio defaults off on the two ridge-3.0 models only', () => {
    assert.equal(resolve({ prompt: 'x', model: 'ridge-3.0-standard' }).native_audio, false);
    assert.equal(resolve({ prompt: 'x', model: 'ridge-3.0-pro' }).native_audio, false);
    assert.equal(resolve({ prompt: 'x', model: 'wave-3.0' }).native_audio, true);
    assert.equal(resolve({ prompt: 'x', model: 'ridge-3.0-pro', native_audio: true }).native_audio, true);
  });

  test('lengths: 30 and 60 are assembled, a single clip up to the model maximum, other lengths refused', () => {
    assert.equal(resolve({ prompt: 'x', duration_sec: 60 }).duration_sec, 60);
    assert.equal(resolve({ prompt: 'x', duration_sec: 15 }).duration_sec, 15);
    assert.equal(resolve({ prompt: 'x', model: 'maker-a/sky-3.1', duration_sec: 8 }).duration_sec, 8);
    const issues = refusal({ prompt: 'x', model: 'maker-a/sky-3.1', duration_sec: 12 });
    assert.equal(issues[0]!.field, 'duration_sec');
    assert.match(issues[0]!.message, /30 or 60.*at most 8/);
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x', duration_sec: 61 }));
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x', duration_sec: 1 }));
  });

  test('an unsupported model/resolution combination is refused, naming what the model makes', () => {
    const issues = refusal({ prompt: 'x', model: 'wave-3.0', resolution: '1080p' });
    assert.equal(issues[0]!.field, 'resolution');
    assert.deepEqual(issues[0]!.valid_values, ['480p', '720p']);
    assert.equal(resolve({ prompt: 'x', model: 'maker-a/sky-3.1', resolution: '2160p' }).resolution, '2160p');
    assert.equal(
      refusal({ prompt: 'x', model: 'ridge-3.0-pro', resolution: '720p' })[0]!.field,
      'resolution',
    );
    assert.equal(
      refusal({ prompt: 'x', model: 'maker-a/sky-3.1', aspect_ratio: '1:1' })[0]!.field,
      'aspect_ratio',
    );
    const onLocal = refusal({ prompt: 'x', model: 'maker-a/sky-3.1', resolution: '2160p' }, local);
    assert.match(onLocal[0]!.message, /local motion engine/);
  });

  test('reference images: at most 3 on sky-3.1, ignored by models that take none', () => {
    const three = ['https://example.com/a.jpg', 'https://example.com/b.jpg', 'https://example.com/c.jpg'];
    assert.equal(
      resolve({ prompt: 'x', model: 'maker-a/sky-3.1', reference_image_urls: three }).reference_image_urls
        .length,
      3,
    );
    const issues = refusal({
      prompt: 'x',
      model: 'maker-a/sky-3.1',
      reference_image_urls: [...three, 'https://example.com/d.jpg'],
    });
    assert.equal(issues[0]!.field, 'reference_image_urls');
    const ignored = resolve({ prompt: 'x', reference_image_urls: three });
    assert.deepEqual(ignored.reference_image_urls, []);
    assert.equal(ignored.ignored_reference_images, 3);
  });

  test('script budget: 2.4 words per second, one extra charged shot slightly over, refusal far over', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const fits = resolve({ prompt: 'x', script: words(72) });
    assert.equal(fits.narrated, true);
    assert.equal(fits.captions, true);
    assert.equal(fits.extra_shot, false);
    // flow-2.0 makes 10 s shots: 72 words for 30 s, up to 96 with one more shot.
    assert.equal(resolve({ prompt: 'x', script: words(90) }).extra_shot, true);
    const issues = refusal({ prompt: 'x', script: words(97) });
    assert.equal(issues[0]!.field, 'script');
    assert.match(issues[0]!.message, /97 words.*about 72 words/);
  });

  test('prompt and script limits; content_purpose alone narrates', () => {
    assert.throws(() => textToVideoSchema.parse({}));
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x'.repeat(1001) }));
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x', script: 'y'.repeat(2001) }));
    const r = resolve({ prompt: 'x', content_purpose: 'education', captions: false });
    assert.equal(r.narrated, true);
    assert.equal(r.captions, false);
  });

  test('voice ids are 6-64 letters, digits, _ or -', () => {
    assert.equal(
      textToVideoSchema.parse({ prompt: 'x', voice_id: 'espeak_en-us_female-1' }).voice_id,
      'espeak_en-us_female-1',
    );
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x', voice_id: 'abc' }));
    assert.throws(() => textToVideoSchema.parse({ prompt: 'x', voice_id: 'espeak:en-us:female-1' }));
  });

  test('image-to-video needs an https image_url; text-to-video ignores one', () => {
    assert.throws(() => imageToVideoSchema.parse({ prompt: 'slow zoom in' }));
    assert.throws(() => imageToVideoSchema.parse({ prompt: 'x', image_url: 'http://example.com/a.jpg' }));
    const body = imageToVideoSchema.parse({
      prompt: 'slow zoom in',
      image_url: 'https://example.com/a.jpg',
      duration_sec: 5,
    });
    const r = resolveAiVideoRequest(body, 'image_to_video', hosted);
    assert.equal(r.image_url, 'https://example.com/a.jpg');
    assert.equal(resolve({ prompt: 'x', image_url: 'https://example.com/a.jpg' }).image_url, undefined);
  });

  test('a text-only model is refused on image-to-video', () => {
    const body = imageToVideoSchema.parse({
      prompt: 'x',
      image_url: 'https://example.com/a.jpg',
      model: 'ridge-3-t2v',
    });
    assert.throws(() => resolveAiVideoRequest(body, 'image_to_video', hosted), AiVideoRuleError);
  });
});
