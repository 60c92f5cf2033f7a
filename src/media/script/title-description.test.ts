import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { displayWebsite, toHashtag, writeTitleAndDescription } from './title-description.ts';
import { splitSentences } from './sentences.ts';
import { CONTENT_PURPOSES } from './writer.ts';

function descriptionParts(description: string): { sentences: string[]; tags: string[] } {
  const [text, tags] = description.split('\n\n');
  return { sentences: splitSentences(text ?? ''), tags: (tags ?? '').split(' ') };
}

const BRIEFS = [
  'how compound interest grows savings',
  'our new project-management app Taskly for remote teams',
  'why sleep matters for athletes',
  '5 tips for better crypto trading',
  'how Acme cut support costs by 40% with automation and a lot of very patient engineers working overtime',
];

describe('writeTitleAndDescription from a brief', () => {
  for (const brief of BRIEFS) {
    for (const contentPurpose of CONTENT_PURPOSES) {
      test(`${contentPurpose}: ${brief}`, () => {
        const r = writeTitleAndDescription({
          brief,
          contentPurpose,
          brand: { name: 'Taskly', websiteUrl: 'https://taskly.app/' },
        });
        assert.ok(r.title.length > 0 && r.title.length <= 70, r.title);
        assert.doesNotMatch(r.title, /\b\p{Lu}{6,}\b/u, 'no shouting capitals');
        const { sentences, tags } = descriptionParts(r.description);
        assert.ok(sentences.length >= 2 && sentences.length <= 3, r.description);
        assert.ok(r.hashtags.length >= 3 && r.hashtags.length <= 6, r.hashtags.join(' '));
        assert.deepEqual(tags, r.hashtags);
        for (const tag of r.hashtags) assert.match(tag, /^#[\p{L}\p{N}]+$/u);
      });
    }
  }

  test('titles and hashtags follow the subject and its niche', () => {
    const r = writeTitleAndDescription({
      brief: '5 tips for better crypto trading',
      contentPurpose: 'education',
    });
    assert.equal(r.title, '5 Tips for Better Crypto Trading');
    assert.ok(r.hashtags.includes('#CryptoTips'), r.hashtags.join(' '));
    assert.ok(
      r.hashtags.includes('#BetterCryptoTrading') || r.hashtags.includes('#CryptoTrading'),
      r.hashtags.join(' '),
    );
  });

  test('a product brief gets a product title', () => {
    const r = writeTitleAndDescription({
      brief: 'our new project-management app Taskly for remote teams',
      contentPurpose: 'sales',
    });
    assert.equal(r.title, 'Taskly: The Project-Management App for Remote Teams');
    assert.match(r.description, /^Meet Taskly, a project-management app built for remote teams\./);
    assert.ok(r.hashtags.includes('#Taskly') && r.hashtags.includes('#Productivity'), r.hashtags.join(' '));
  });

  test('TikTok and Instagram titles use sentence case; Instagram takes more hashtags', () => {
    const r = writeTitleAndDescription({
      brief: 'why sleep matters for athletes',
      platforms: ['tiktok', 'instagram'],
      brand: { keywords: ['recovery', 'performance'] },
    });
    assert.equal(r.title, 'Why sleep matters for athletes');
    assert.equal(r.hashtags.length, 6);
  });

  test('the website is named in the description', () => {
    const r = writeTitleAndDescription({
      brief: 'why sleep matters for athletes',
      brand: { websiteUrl: 'https://www.sleepwell.example/' },
    });
    assert.match(r.description, /More at sleepwell\.example\./);
  });
});

describe('writeTitleAndDescription from a sent script', () => {
  test('takes a question from the script as the title and summarizes the opening', () => {
    const script =
      'Did you know your savings can grow while you sleep? Compound interest pays interest on interest. Start early, and let time do the work. Saving a little each month adds up.';
    const r = writeTitleAndDescription({ script, contentPurpose: 'education' });
    assert.equal(r.title, 'Did You Know Your Savings Can Grow While You Sleep?');
    assert.match(
      r.description,
      /^Compound interest pays interest on interest\. Start early, and let time do the work\./,
    );
    assert.ok(r.hashtags.includes('#Interest') || r.hashtags.includes('#Savings'), r.hashtags.join(' '));
    assert.ok(r.hashtags.includes('#PersonalFinance'));
  });

  test('a non-English script keeps its own words', () => {
    const r = writeTitleAndDescription({
      script: 'Schlaf ist für Sportler entscheidend. Wer gut schläft, trainiert besser.',
      language: 'de',
    });
    assert.equal(r.title, 'Schlaf ist für Sportler entscheidend');
    assert.ok(r.hashtags.length >= 3);
  });

  test('needs a brief or a script', () => assert.throws(() => writeTitleAndDescription({}), TypeError));
});

test('displayWebsite and toHashtag', () => {
  assert.equal(displayWebsite('https://www.taskly.app/'), 'taskly.app');
  assert.equal(displayWebsite('http://shop.example.com/pricing/'), 'shop.example.com/pricing');
  assert.equal(toHashtag('project-management app'), 'ProjectManagementApp');
  assert.equal(toHashtag('iPhone 16'), 'iPhone16');
  assert.equal(toHashtag('the of'), undefined);
});
