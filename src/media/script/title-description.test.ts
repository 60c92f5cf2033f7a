import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeLocalScript } from './local-writer.ts';
import { splitSentences } from './sentences.ts';
import {
  displayWebsite,
  NO_MATERIAL,
  toHashtag,
  writeTitleAndDescription,
  type TitleAndDescription,
} from './title-description.ts';
import { CONTENT_PURPOSES } from './writer.ts';

function descriptionParts(description: string): { sentences: string[]; tags: string[] } {
  const [text, tags] = description.split('\n\n');
  return { sentences: splitSentences(text ?? ''), tags: (tags ?? '').split(' ') };
}

/** Each sentence of the description is one the script says, or the website line the brand asked for. */
function assertQuotesScript(r: TitleAndDescription, script: string, website?: string): void {
  const said = new Set(splitSentences(script));
  for (const sentence of descriptionParts(r.description).sentences) {
    if (website && sentence === `More at ${website}.`) continue;
    assert.ok(said.has(sentence), `"${sentence}" is not in the script:\n${script}`);
  }
}

const PHOTOSYNTHESIS = [
  'Ever wondered how a leaf eats?',
  'Plants make their own food from sunlight.',
  'This process is called photosynthesis.',
  'Chlorophyll in the leaves captures the energy of light.',
  'The plant uses that energy to turn water and carbon dioxide into glucose.',
  'Oxygen is released along the way.',
  'Follow for more science.',
].join(' ');
const TIDES = [
  'Why does the sea rise and fall twice a day?',
  'The answer is the moon.',
  'Its gravity pulls the ocean toward it, making a bulge of water.',
  'On the far side of the Earth, a second bulge forms as the planet is pulled away from the water.',
  'As the Earth spins through both bulges, coastlines get two high tides a day.',
].join(' ');
const INTEREST =
  'Did you know your savings can grow while you sleep? Compound interest pays interest on interest. Start early, and let time do the work. Saving a little each month adds up.';

describe('descriptions quote what the script says', () => {
  test('two education scripts on the same brief get two descriptions, each with its own key content', () => {
    const brief = 'a short science explainer';
    const leaf = writeTitleAndDescription({ brief, script: PHOTOSYNTHESIS, contentPurpose: 'education' });
    const sea = writeTitleAndDescription({ brief, script: TIDES, contentPurpose: 'education' });
    assertQuotesScript(leaf, PHOTOSYNTHESIS);
    assertQuotesScript(sea, TIDES);
    // The named ideas of each script, and the word the tides script keeps coming back to.
    assert.match(leaf.description, /glucose|chlorophyll|photosynthesis/i);
    assert.match(sea.description, /bulge/);
    assert.match(sea.description, /gravity|tides/);
    assert.doesNotMatch(leaf.description, /tide|bulge|moon/i);
    assert.doesNotMatch(sea.description, /leaf|glucose|chlorophyll/i);
  });

  test('the sentence that names the idea is chosen over small talk', () => {
    const r = writeTitleAndDescription({ script: INTEREST, contentPurpose: 'education' });
    assert.equal(r.title, 'Did You Know Your Savings Can Grow While You Sleep?');
    assert.match(r.description, /^Compound interest pays interest on interest\./);
    assert.doesNotMatch(r.description, /Did you know/, 'the title is not said twice');
    assert.ok(r.hashtags.includes('#Interest') || r.hashtags.includes('#Savings'), r.hashtags.join(' '));
    assert.ok(r.hashtags.includes('#PersonalFinance'));
  });

  test('the brief lifts the sentences that carry its own words', () => {
    const script =
      'Meetings fill the calendar. Deep work needs long blocks of quiet time. Taskly batches notifications into one daily digest. Teams get their afternoons back.';
    const plain = writeTitleAndDescription({ script, contentPurpose: 'sales' });
    const focused = writeTitleAndDescription({
      script,
      brief: 'Taskly batches notifications',
      contentPurpose: 'sales',
    });
    assert.match(focused.description, /Taskly batches notifications into one daily digest\./);
    assertQuotesScript(plain, script);
    assertQuotesScript(focused, script);
  });

  for (const contentPurpose of CONTENT_PURPOSES) {
    test(`${contentPurpose}: every sentence of the description is the script's own, for sent and written scripts`, () => {
      for (const script of [PHOTOSYNTHESIS, TIDES, INTEREST]) {
        const website = 'taskly.app';
        const r = writeTitleAndDescription({
          brief: 'how the world works',
          script,
          contentPurpose,
          brand: { name: 'Taskly', websiteUrl: `https://${website}/` },
        });
        assertQuotesScript(r, script, website);
        assert.ok(r.description.includes(`More at ${website}.`));
      }
      const written = writeLocalScript({
        prompt: 'why sleep matters for athletes. Deep sleep repairs muscle.',
        contentPurpose,
        durationSec: 30,
      });
      assertQuotesScript(written, written.script);
    });
  }

  test('a sign-off naming the website is not quoted: the website line says it once', () => {
    const script = `${INTEREST}\nLearn more at brightside.example.`;
    const r = writeTitleAndDescription({
      script,
      brand: { websiteUrl: 'https://www.brightside.example/' },
    });
    assert.equal(r.description.match(/brightside\.example/g)?.length, 1, r.description);
    assert.match(r.description, /More at brightside\.example\.\n\n#/);
  });

  test('a non-English script keeps its own words', () => {
    const script =
      'Schlaf ist für Sportler entscheidend. Wer gut schläft, trainiert besser und erholt sich schneller.';
    const r = writeTitleAndDescription({ script, language: 'de' });
    assert.equal(r.title, 'Schlaf ist für Sportler entscheidend');
    assert.equal(
      descriptionParts(r.description).sentences[0],
      'Wer gut schläft, trainiert besser und erholt sich schneller.',
    );
    assert.ok(r.hashtags.length >= 3);
  });
});

describe('with nothing to quote, the description says so', () => {
  test('a script without a content word and no brief gets a plain note', () => {
    const r = writeTitleAndDescription({ script: 'Uh. Um, so.' });
    assert.equal(descriptionParts(r.description).sentences.join(' '), NO_MATERIAL);
  });

  test('a script without a content word falls back to the brief, in the caller’s words', () => {
    const r = writeTitleAndDescription({ script: 'Uh. Um, so.', brief: 'why sleep matters for athletes' });
    assert.equal(descriptionParts(r.description).sentences.join(' '), 'Why sleep matters for athletes.');
  });

  test('a brief alone is described by the brief itself, never by a stock sentence', () => {
    for (const contentPurpose of CONTENT_PURPOSES) {
      const r = writeTitleAndDescription({ brief: 'how compound interest grows savings', contentPurpose });
      assert.equal(
        descriptionParts(r.description).sentences.join(' '),
        'How compound interest grows savings.',
      );
    }
  });

  test('a one-sentence script is its own description even when it is also the title', () => {
    const r = writeTitleAndDescription({ script: 'Fear is a liar.' });
    assert.equal(r.title, 'Fear Is a Liar');
    assert.equal(descriptionParts(r.description).sentences.join(' '), 'Fear is a liar.');
  });
});

describe('titles and hashtags from a brief', () => {
  const BRIEFS = [
    'how compound interest grows savings',
    'our new project-management app Taskly for remote teams',
    'why sleep matters for athletes',
    '5 tips for better crypto trading',
    'how Acme cut support costs by 40% with automation and a lot of very patient engineers working overtime',
  ];
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
        const { tags } = descriptionParts(r.description);
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

  test('needs a brief or a script', () => assert.throws(() => writeTitleAndDescription({}), TypeError));
});

test('displayWebsite and toHashtag', () => {
  assert.equal(displayWebsite('https://www.taskly.app/'), 'taskly.app');
  assert.equal(displayWebsite('http://shop.example.com/pricing/'), 'shop.example.com/pricing');
  assert.equal(toHashtag('project-management app'), 'ProjectManagementApp');
  assert.equal(toHashtag('iPhone 16'), 'iPhone16');
  assert.equal(toHashtag('the of'), undefined);
});
