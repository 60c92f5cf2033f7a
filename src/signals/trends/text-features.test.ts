import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sentenceCase, textFeatures } from './text-features.ts';

describe('textFeatures', () => {
  test('names, phrases and content words of each title, credited to the right title', () => {
    const [cook, storm, empty] = textFeatures([
      'Apple shares fall after iPhone sales miss; Tim Cook blames China',
      'Hurricane Milton makes landfall near Tampa Bay. Residents told to evacuate',
      '',
    ]);
    assert.ok(cook!.entities.includes('tim cook'));
    assert.ok(cook!.terms.includes('iphon') && cook!.terms.includes('china'));
    assert.ok(!cook!.terms.includes('after'), 'function words are left out');
    assert.ok(cook!.nameTerms.includes('china'));
    // A title of two sentences stays one title's features.
    assert.ok(storm!.entities.includes('tampa bay'));
    assert.ok(storm!.terms.includes('evacuat'));
    assert.ok(storm!.phrases.some((p) => p.startsWith('hurrican milton')));
    assert.ok(!cook!.terms.includes('evacuat'));
    assert.deepEqual(empty, { terms: [], nameTerms: [], entities: [], phrases: [] });
  });

  test('names and phrases do not run across punctuation', () => {
    const [f] = textFeatures([
      'Apple iPhone 17 event: all the news on the iPhone Air, AirPods Pro 3, and Apple Watch',
    ]);
    for (const e of f!.entities) assert.ok(!e.includes('air airpod'), `"${e}" runs across a comma`);
    assert.ok(f!.entities.includes('appl watch'));
  });

  test('inflected forms meet on one stem', () => {
    const [a, b] = textFeatures(['Storm surge floods coastal towns', 'Storms flooded the coastal town']);
    for (const word of ['storm', 'flood', 'coastal', 'town'])
      assert.ok(a!.terms.includes(word) && b!.terms.includes(word), word);
  });

  test('a Title Case headline is read in sentence case, so its verbs are not names', () => {
    assert.equal(
      sentenceCase('Apple Unveils iPhone Air, Its Thinnest Phone Ever, Along With iPhone 17'),
      'Apple unveils iPhone air, its thinnest phone ever, along with iPhone 17',
    );
    assert.equal(
      sentenceCase('Hurricane Milton makes landfall in Florida'),
      'Hurricane Milton makes landfall in Florida',
    );
    const [f] = textFeatures(['Apple Unveils iPhone Air, Its Thinnest Phone Ever, Along With iPhone 17']);
    assert.ok(!f!.entities.some((e) => e.includes('unveil') || e.includes('along')));
  });

  test('other scripts still give words', () => {
    const [f] = textFeatures(['東京 オリンピック 開幕']);
    assert.deepEqual(f!.terms, ['東京', 'オリンピック', '開幕']);
  });
});
