import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presenterPrice, presenterPriceSheet } from '../../platform/pricing/presenter-price.ts';
import {
  PresenterRuleError,
  presenterSchema,
  priceOfPresenter,
  pricedStills,
  resolvePresenterRequest,
  type PresenterRequest,
} from './presenter-request.ts';

function resolve(body: Record<string, unknown>): PresenterRequest {
  return resolvePresenterRequest(presenterSchema.parse(body));
}

function refusedFields(body: Record<string, unknown>): string[] {
  try {
    resolve(body);
  } catch (error) {
    assert.ok(error instanceof PresenterRuleError);
    return error.issues.map((i) => i.field);
  }
  assert.fail('the request was accepted');
}

const SCRIPT_75_WORDS = Array.from({ length: 75 }, (_, i) => `word${i}`).join(' ');

describe('presenter prices (spec 1 §4.5 table)', () => {
  it('reproduces the 30 s and 60 s prices of every engine and the logo host', () => {
    assert.deepEqual(presenterPriceSheet(), {
      avatar_iii: { usd_cents_30s: 100, usd_cents_60s: 200 },
      avatar_iv: { usd_cents_30s: 245, usd_cents_60s: 490 },
      avatar_v: { usd_cents_30s: 725, usd_cents_60s: 1450 },
      logo_host: { usd_cents_30s: 100, usd_cents_60s: 200 },
      generated_broll_still: { usd_cents: 10, model: 'gpt-image-1', unit: 'still' },
    });
  });

  it('charges at least 5 seconds and rounds up to 5 cents', () => {
    assert.equal(presenterPrice('avatar_iii', 1).pricedSeconds, 5);
    assert.equal(presenterPrice('avatar_iii', 1).usdCents, 20);
    assert.equal(presenterPrice('avatar_iv', 7).usdCents % 5, 0);
  });

  it('prices a script by its spoken length at the requested speed (~2.5 words/s at 1.0)', () => {
    const normal = resolve({ avatar_id: 'av_1', script: SCRIPT_75_WORDS });
    assert.equal(Math.round(normal.speech_sec), 30);
    assert.equal(priceOfPresenter(normal).usdCents, 100);
    const slow = resolve({ avatar_id: 'av_1', script: SCRIPT_75_WORDS, speed: 0.5 });
    assert.equal(priceOfPresenter(slow).usdCents, 200);
  });

  it('prices a topic by duration_sec (default 30)', () => {
    const topic = resolve({ avatar_id: 'av_1', format: 'presenter_broll', topic: 'sleep' });
    assert.equal(priceOfPresenter(topic).usdCents, 100);
    const long = resolve({ avatar_id: 'av_1', format: 'presenter_broll', topic: 'sleep', duration_sec: 60 });
    assert.equal(priceOfPresenter(long).usdCents, 200);
  });
});

describe('generated B-roll prices (spec 1 §4.5 broll.visuals)', () => {
  const script = 'Sleep is a skill. Keep one wake-up time. Dim the lights at nine. Try it for a week.';
  const broll = { avatar_id: 'a', format: 'presenter_broll', script, layout: 'split' };

  it('prices one still per B-roll sentence of a script, every other one for mixed, none for stock', () => {
    assert.equal(pricedStills(resolve(broll)), 0);
    assert.equal(pricedStills(resolve({ ...broll, broll: { visuals: 'generated' } })), 4);
    assert.equal(pricedStills(resolve({ ...broll, broll: { visuals: 'mixed' } })), 2);
    // In cutaway the opening hook stays on the presenter.
    const cutaway = { ...broll, layout: 'cutaway', aspect_ratio: '16:9' };
    assert.equal(pricedStills(resolve({ ...cutaway, broll: { visuals: 'generated' } })), 3);
    assert.equal(pricedStills(resolve({ ...cutaway, broll: { visuals: 'mixed' } })), 2);
  });

  it('prices a topic by one still per 3 s of duration_sec at most', () => {
    const topic = {
      avatar_id: 'a',
      format: 'presenter_broll',
      topic: 'sleep',
      broll: { visuals: 'generated' },
    };
    assert.equal(pricedStills(resolve(topic)), 10);
    assert.equal(pricedStills(resolve({ ...topic, duration_sec: 15 })), 5);
  });

  it('adds a line of 10 cents per still to the presenter price', () => {
    const request = resolve({ ...broll, broll: { visuals: 'generated' } });
    const price = priceOfPresenter(request);
    assert.equal(price.usdCents, priceOfPresenter(resolve(broll)).usdCents + 40);
    assert.deepEqual(
      price.breakdown.map((line) => [line.unit, line.quantity, line.usd_cents]),
      [
        ['second', price.pricedSeconds, price.usdCents - 40],
        ['still', 4, 40],
      ],
    );
  });
});

describe('presenter request rules', () => {
  it('needs exactly one of avatar_id and image_url', () => {
    assert.deepEqual(refusedFields({ script: 'Hi there.' }), ['avatar_id']);
    assert.deepEqual(
      refusedFields({ script: 'Hi.', avatar_id: 'a', image_url: 'https://example.com/p.jpg' }),
      ['avatar_id'],
    );
  });

  it('defaults the engine: avatar_iii for a persona, avatar_iv for a photo', () => {
    assert.equal(resolve({ avatar_id: 'a', script: 'Hi.' }).engine, 'avatar_iii');
    assert.equal(resolve({ image_url: 'https://example.com/p.jpg', script: 'Hi.' }).engine, 'avatar_iv');
  });

  it('takes a topic on presenter_broll only, and script or topic, not both', () => {
    assert.deepEqual(refusedFields({ avatar_id: 'a', topic: 'sleep' }), ['topic', 'script']);
    assert.deepEqual(
      refusedFields({ avatar_id: 'a', format: 'presenter_broll', topic: 'sleep', script: 'Hi.' }),
      ['topic'],
    );
  });

  it('chooses the layout from the aspect ratio and refuses creator or split off 9:16', () => {
    const broll = { avatar_id: 'a', format: 'presenter_broll', topic: 'sleep' };
    assert.equal(resolve(broll).layout, 'creator');
    assert.equal(resolve({ ...broll, aspect_ratio: '16:9' }).layout, 'cutaway');
    assert.equal(resolve({ ...broll, aspect_ratio: '1:1' }).layout, 'cutaway');
    assert.deepEqual(refusedFields({ ...broll, aspect_ratio: '16:9', layout: 'split' }), ['layout']);
    assert.equal(resolve({ ...broll, layout: 'split' }).caption_style, 'seam');
    assert.equal(resolve({ ...broll, layout: 'cutaway' }).caption_style, 'karaoke');
  });

  it('keeps creator-only fields to the creator layout', () => {
    const split = { avatar_id: 'a', format: 'presenter_broll', topic: 'sleep', layout: 'split' };
    assert.deepEqual(refusedFields({ ...split, presenter_placement: 'bottom_center' }), [
      'presenter_placement',
    ]);
    assert.deepEqual(refusedFields({ ...split, outro_cta: 'Follow us' }), ['outro_cta']);
    const creator = { avatar_id: 'a', format: 'presenter_broll', topic: 'sleep' };
    assert.deepEqual(refusedFields({ ...creator, presenter_placement: 'top_right' }), [
      'presenter_placement',
    ]);
    assert.deepEqual(refusedFields({ ...creator, outro: false, outro_cta: 'Follow us' }), ['outro_cta']);
    assert.equal(
      resolve({ ...creator, presenter_placement: 'bottom_center' }).presenter_placement,
      'bottom_center',
    );
  });

  it('refuses progress_bar on a talking head and presenter_video_url always', () => {
    assert.deepEqual(refusedFields({ avatar_id: 'a', script: 'Hi.', progress_bar: true }), ['progress_bar']);
    assert.deepEqual(
      refusedFields({ avatar_id: 'a', script: 'Hi.', presenter_video_url: 'https://example.com/v.mp4' }),
      ['presenter_video_url'],
    );
  });

  it('prices a logo host like avatar_iii and forbids a presenter with it', () => {
    const host = { format: 'presenter_broll', topic: 'sleep', host: { type: 'logo' } };
    const request = resolve(host);
    assert.equal(request.engine, undefined);
    assert.equal(request.priced_as, 'logo_host');
    assert.equal(priceOfPresenter(request).usdCents, 100);
    assert.deepEqual(refusedFields({ ...host, avatar_id: 'a', engine: 'avatar_iii' }), [
      'avatar_id',
      'engine',
    ]);
  });

  it('refuses a script longer than 120 s of speech, stating the budget', () => {
    const long = Array.from({ length: 320 }, () => 'word').join(' ');
    try {
      resolve({ avatar_id: 'a', script: long });
      assert.fail('accepted');
    } catch (error) {
      assert.ok(error instanceof PresenterRuleError);
      assert.match(error.message, /most is 120 s \(about 300 words\)/);
    }
  });

  it('needs brand_id for a series and a topic for variations', () => {
    assert.deepEqual(refusedFields({ avatar_id: 'a', script: 'Hi.', series_id: 's1' }), ['series_id']);
    assert.deepEqual(refusedFields({ avatar_id: 'a', script: 'Hi.', variations: { count: 2 } }), [
      'variations',
    ]);
    const ok = resolve({
      avatar_id: 'a',
      format: 'presenter_broll',
      topic: 'sleep',
      variations: { count: 3 },
    });
    assert.deepEqual(ok.variations, { count: 3, vary: ['hook', 'angle'] });
  });
});
