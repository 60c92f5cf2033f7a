import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stillPrompt, withoutBrand } from './still-prompt.ts';

const brand = { name: 'Restful Co', website_url: 'https://www.restful-sleep.example/start' };

describe('generated B-roll prompts', () => {
  it('removes the brand name (with its possessive), the website and logo words', () => {
    assert.equal(
      withoutBrand("Restful Co's logo sits on every pillow we ship, see restful-sleep.example.", brand),
      'sits on every pillow we ship, see.',
    );
    assert.equal(
      withoutBrand('Visit https://shop.example.com/deals?x=1 today and spot the Restful wordmark.', {
        name: 'Restful',
      }),
      'Visit today and spot the.',
    );
    // The website's own name goes too, as words: "restful sleep" is the brand here.
    assert.equal(withoutBrand('Restful sleep starts with light.', brand), 'starts with light.');
  });

  it('keeps words that merely contain the brand name, and text without any brand', () => {
    assert.equal(
      withoutBrand('Acmeology is not the brand.', { name: 'Acme' }),
      'Acmeology is not the brand.',
    );
    assert.equal(
      withoutBrand('A walk after lunch helps focus.', undefined),
      'A walk after lunch helps focus.',
    );
    assert.equal(withoutBrand('Roughly 2.5 hours, e.g. a nap.', undefined), 'Roughly 2.5 hours, e.g. a nap.');
  });

  it('builds the prompt from the sentence and the topic, in the frame shape, with no brand left in it', () => {
    const prompt = stillPrompt({
      sentence: 'Restful Co pillows keep your neck straight all night.',
      topic: 'how Restful Co helps you sleep',
      script: 'irrelevant',
      brand,
      shape: 'portrait',
    });
    assert.match(prompt, /vertical photograph/);
    assert.match(prompt, /"pillows keep your neck straight all night\."/);
    assert.match(prompt, /The video is about how helps you sleep\./);
    assert.doesNotMatch(prompt, /restful|logo/i);
    assert.match(
      stillPrompt({ sentence: 'A short walk.', script: 'A short walk.', shape: 'landscape' }),
      /^A photorealistic horizontal photograph/,
    );
  });

  it('falls back to the topic, then the script, when nothing of the sentence is left', () => {
    const fromTopic = stillPrompt({
      sentence: 'Visit restful-sleep.example.',
      topic: 'better sleep habits',
      script: 'Sleep well. Visit restful-sleep.example.',
      brand,
      shape: 'square',
    });
    assert.match(fromTopic, /"better sleep habits"/);
    assert.doesNotMatch(fromTopic, /The video is about/);
    const fromScript = stillPrompt({
      sentence: 'Restful Co.',
      script: 'Dim the lights an hour before bed. Restful Co.',
      brand,
      shape: 'square',
    });
    assert.match(fromScript, /"Dim the lights an hour before bed\."/);
  });

  it('stays within the 1000 characters every model takes', () => {
    const long = 'word '.repeat(400);
    const prompt = stillPrompt({ sentence: long, topic: long, script: long, shape: 'portrait' });
    assert.ok(prompt.length <= 1000, `${prompt.length} characters`);
  });
});
