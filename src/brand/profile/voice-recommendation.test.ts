import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadVoiceCatalogue } from '../../media/voice/voice-catalogue.ts';
import { preferredGender, recommendVoice } from './voice-recommendation.ts';

// The real catalogue: the voices installed on this machine (natural flite/festival voices for English).
const catalogue = loadVoiceCatalogue();
const ids = new Set(catalogue.voices.map((v) => v.id));

describe('recommendVoice', () => {
  test('an English site gets a natural US English voice from the catalogue, as <provider>:<name>', () => {
    const voice = recommendVoice(catalogue, 'en', ['calm', 'caring']);
    assert.equal(voice.recommendation, 'festival:slt-hts');
    assert.ok(ids.has(voice.recommendation));
    assert.ok(voice.alternatives.length >= 2 && voice.alternatives.length <= 4);
    for (const alt of voice.alternatives) {
      assert.ok(ids.has(alt), alt);
      assert.match(alt, /^[a-z]+:.+/);
    }
    assert.ok(!voice.alternatives.includes(voice.recommendation));
    assert.ok(
      voice.alternatives.some((a) => catalogue.voices.find((v) => v.id === a)?.gender === 'male'),
      'the other gender is offered',
    );
  });

  test("the page's language picks the dialect; an unknown language falls back to English", () => {
    assert.match(
      recommendVoice(catalogue, 'fr-FR', ['authoritative', 'technical']).recommendation,
      /^espeak:fr[^:]*:male-\d$/,
    );
    assert.match(
      recommendVoice(catalogue, 'de', ['friendly', 'warm']).recommendation,
      /^espeak:de:female-\d$/,
    );
    assert.match(
      recommendVoice(catalogue, 'en-gb', ['professional', 'trustworthy']).recommendation,
      /^espeak:en-gb:/,
    );
    assert.equal(recommendVoice(catalogue, 'tlh', ['friendly', 'warm']).recommendation, 'festival:slt-hts');
  });

  test('gender by tone: softer tones lead with a female voice, the others with a male one', () => {
    assert.equal(preferredGender(['caring', 'calm']), 'female');
    assert.equal(preferredGender(['technical', 'authoritative']), 'male');
    assert.equal(preferredGender(['friendly', 'professional']), 'female');
  });
});
