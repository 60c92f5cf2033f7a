import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { detectAudience, detectTone } from './audience-and-tone.ts';
import { industryById } from './industries.ts';

const saas = industryById('b2b_saas')!;
const devtools = industryById('developer_tools')!;

describe('detectAudience', () => {
  test("the segments a site names lead; the industry's typical ones fill to two", () => {
    const audience = detectAudience(
      'Built for developers and engineering teams. Our API lets engineers ship faster; devops teams love the CLI. Startups and founders get credits.',
      saas,
    );
    assert.equal(audience[0], 'developers');
    assert.ok(audience.includes('startup founders'), audience.join());
    assert.ok(audience.length >= 2 && audience.length <= 5);
  });

  test("with no cues in the text, the industry's typical audiences, in its order", () => {
    assert.deepEqual(detectAudience('Lorem ipsum.', saas), [...saas.audiences]);
  });
});

describe('detectTone', () => {
  test('technical wording moves a developer-tools site to technical first', () => {
    const tone = detectTone(
      'Read the API documentation, install the SDK, configure the integration and deploy. Latency under 10 ms; open source protocol.',
      devtools,
    );
    assert.equal(tone[0], 'technical');
    assert.ok(tone.length >= 2 && tone.length <= 4);
  });

  test('exclamations and fun words read as playful', () => {
    const tone = detectTone('So much fun! Play, giggle and woohoo! Awesome magic every day! Yay!', saas);
    assert.equal(tone[0], 'playful');
  });

  test('deterministic and within range for an empty text', () => {
    const a = detectTone('', saas);
    assert.deepEqual(a, detectTone('', saas));
    assert.deepEqual(a, [...saas.tones]);
  });
});
