import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseChannelUrl, parseVideoUrl } from './vidsite-urls.ts';

const ID = 'dQw4w9WgXcQ';
const WATCH = `https://www.youtube.com/watch?v=${ID}`;

// Every accepted form, with the video id it names.
const GOOD_VIDEOS: ReadonlyArray<[string, string]> = [
  [`https://youtu.be/${ID}`, ID],
  [`https://youtu.be/${ID}/`, ID],
  [`https://youtu.be/${ID}?si=abcDEF123&t=42`, ID],
  [`https://www.youtube.com/watch?v=${ID}`, ID],
  [`https://youtube.com/watch?v=${ID}`, ID],
  [`https://m.youtube.com/watch?v=${ID}`, ID],
  [`https://music.youtube.com/watch?v=${ID}`, ID],
  [`https://www.youtube.com/watch?v=${ID}&t=90s&list=PL123`, ID],
  [`https://www.youtube.com/watch?feature=share&v=${ID}`, ID],
  [`https://WWW.YouTube.com/watch?v=${ID}`, ID],
  [`https://www.youtube.com/shorts/${ID}`, ID],
  [`https://youtube.com/shorts/${ID}?feature=share`, ID],
  [`https://m.youtube.com/shorts/${ID}`, ID],
  [`https://www.youtube.com/live/${ID}`, ID],
  [`https://www.youtube.com/live/${ID}?si=x`, ID],
  [`https://www.youtube.com/embed/${ID}`, ID],
  [`https://www.youtube.com/embed/${ID}/`, ID],
  ['https://youtu.be/a-b_c-d_e-f', 'a-b_c-d_e-f'],
  ['https://www.youtube.com/watch?v=___________', '___________'],
];

// Each refused form, with a word its reason must contain.
const BAD_VIDEOS: ReadonlyArray<[string, string]> = [
  [`http://youtu.be/${ID}`, 'https'],
  [`http://www.youtube.com/watch?v=${ID}`, 'https'],
  [`ftp://youtu.be/${ID}`, 'https'],
  [`https://user:pass@www.youtube.com/watch?v=${ID}`, 'credentials'],
  [`https://www.youtube.com:8443/watch?v=${ID}`, 'port'],
  [`https://youtu.be/${ID.slice(0, 10)}`, '11-character'],
  [`https://youtu.be/${ID}X`, '11-character'],
  [`https://youtu.be/dQw4w9WgXc!`, '11-character'],
  ['https://youtu.be/', 'youtu.be/<id>'],
  [`https://youtu.be/${ID}/extra`, 'youtu.be/<id>'],
  ['https://www.youtube.com/watch', 'exactly one'],
  [`https://www.youtube.com/watch?v=${ID}&v=${ID}`, 'exactly one'],
  ['https://www.youtube.com/watch?v=short', '11-character'],
  [`https://www.youtube.com/watch?vid=${ID}`, 'exactly one'],
  [`https://music.youtube.com/shorts/${ID}`, 'one video'],
  [`https://www.youtube.com/clip/${ID}`, 'one video'],
  [`https://www.youtube.com/v/${ID}`, 'one video'],
  [`https://www.youtube.com/shorts/${ID}/more`, 'one video'],
  ['https://www.youtube.com/@somechannel', 'one video'],
  ['https://www.youtube.com/playlist?list=PL1234567890', 'one video'],
  [`https://vimeo.com/${ID}`, 'youtube.com'],
  [`https://youtube.com.evil.example/watch?v=${ID}`, 'youtube.com'],
  [`https://www.youtube-nocookie.com/embed/${ID}`, 'youtube.com'],
  [`https://gaming.youtube.com/watch?v=${ID}`, 'youtube.com'],
  [`https://www.youtube.com./watch?v=${ID}`, 'youtube.com'],
  ['not a url', 'valid URL'],
  ['', 'valid URL'],
  [`youtube.com/watch?v=${ID}`, 'valid URL'],
  [`https://youtu.be/${ID}?${'x'.repeat(2048)}`, '2048'],
];

const CH = 'UCuAXFkgsw1L7xaCfnd5JJOw';

// Every accepted channel form, with its kind, name, tab and the listing URL it is read from.
const GOOD_CHANNELS: ReadonlyArray<[string, string, string, string | null, string]> = [
  ['https://www.youtube.com/@mkbhd', 'handle', 'mkbhd', null, 'https://www.youtube.com/@mkbhd/videos'],
  ['https://youtube.com/@mkbhd/', 'handle', 'mkbhd', null, 'https://www.youtube.com/@mkbhd/videos'],
  ['https://m.youtube.com/@mkbhd', 'handle', 'mkbhd', null, 'https://www.youtube.com/@mkbhd/videos'],
  ['https://www.youtube.com/@abc', 'handle', 'abc', null, 'https://www.youtube.com/@abc/videos'],
  [
    `https://www.youtube.com/@${'a'.repeat(100)}`,
    'handle',
    'a'.repeat(100),
    null,
    `https://www.youtube.com/@${'a'.repeat(100)}/videos`,
  ],
  [
    'https://www.youtube.com/@Some.Name_1-2',
    'handle',
    'Some.Name_1-2',
    null,
    'https://www.youtube.com/@Some.Name_1-2/videos',
  ],
  [
    'https://www.youtube.com/@%C3%A9cole',
    'handle',
    'école',
    null,
    'https://www.youtube.com/@%C3%A9cole/videos',
  ],
  [
    'https://www.youtube.com/@mkbhd/videos',
    'handle',
    'mkbhd',
    'videos',
    'https://www.youtube.com/@mkbhd/videos',
  ],
  [
    'https://www.youtube.com/@mkbhd/featured',
    'handle',
    'mkbhd',
    'featured',
    'https://www.youtube.com/@mkbhd/videos',
  ],
  [
    'https://www.youtube.com/@mkbhd/streams',
    'handle',
    'mkbhd',
    'streams',
    'https://www.youtube.com/@mkbhd/streams',
  ],
  [
    'https://www.youtube.com/@mkbhd/videos?view=0',
    'handle',
    'mkbhd',
    'videos',
    'https://www.youtube.com/@mkbhd/videos',
  ],
  [
    `https://www.youtube.com/channel/${CH}`,
    'channel_id',
    CH,
    null,
    `https://www.youtube.com/channel/${CH}/videos`,
  ],
  [
    `https://youtube.com/channel/${CH}/streams`,
    'channel_id',
    CH,
    'streams',
    `https://www.youtube.com/channel/${CH}/streams`,
  ],
  [
    'https://www.youtube.com/c/LinusTechTips',
    'custom',
    'LinusTechTips',
    null,
    'https://www.youtube.com/c/LinusTechTips/videos',
  ],
  [
    'https://www.youtube.com/c/LinusTechTips/featured',
    'custom',
    'LinusTechTips',
    'featured',
    'https://www.youtube.com/c/LinusTechTips/videos',
  ],
  [
    'https://www.youtube.com/user/pewdiepie',
    'user',
    'pewdiepie',
    null,
    'https://www.youtube.com/user/pewdiepie/videos',
  ],
  [
    'https://m.youtube.com/user/pewdiepie/videos/',
    'user',
    'pewdiepie',
    'videos',
    'https://www.youtube.com/user/pewdiepie/videos',
  ],
];

const BAD_CHANNELS: ReadonlyArray<[string, string]> = [
  ['http://www.youtube.com/@mkbhd', 'https'],
  ['https://www.youtube.com/@ab', '3-100'],
  [`https://www.youtube.com/@${'a'.repeat(101)}`, '3-100'],
  ['https://www.youtube.com/@bad%20space', '3-100'],
  ['https://www.youtube.com/@bad!name', '3-100'],
  ['https://www.youtube.com/@%E0%A4%A', '3-100'],
  ['https://www.youtube.com/channel/UCshort', 'UC'],
  [`https://www.youtube.com/channel/XX${CH.slice(2)}`, 'UC'],
  [`https://www.youtube.com/channel/${CH}x`, 'UC'],
  ['https://www.youtube.com/c/', 'address of a channel'],
  ['https://www.youtube.com/c/%E0%A4%A', 'channel after'],
  ['https://www.youtube.com/user/bad name', 'channel after'],
  ['https://www.youtube.com/@mkbhd/shorts', 'address of a channel'],
  ['https://www.youtube.com/@mkbhd/videos/extra', 'address of a channel'],
  ['https://www.youtube.com/mkbhd', 'address of a channel'],
  ['https://www.youtube.com/videos', 'address of a channel'],
  ['https://www.youtube.com/', 'address of a channel'],
  [`https://www.youtube.com/watch?v=${ID}`, 'address of a channel'],
  ['https://music.youtube.com/@mkbhd', 'youtube.com'],
  ['https://youtu.be/@mkbhd', 'youtube.com'],
  ['https://www.example.com/@mkbhd', 'youtube.com'],
  ['https://www.youtube.com:444/@mkbhd', 'port'],
];

void describe('vidsite_url forms (spec 1 §4.3)', () => {
  for (const [url, id] of GOOD_VIDEOS) {
    void test(`accepts ${url.slice(0, 80)}`, () => {
      const checked = parseVideoUrl(url);
      assert.ok(checked.ok, checked.ok ? '' : checked.reason);
      assert.equal(checked.value.videoId, id);
      assert.equal(checked.value.url, `https://www.youtube.com/watch?v=${id}`);
    });
  }
  for (const [url, reason] of BAD_VIDEOS) {
    void test(`refuses ${url.slice(0, 80) || '(empty)'}`, () => {
      const checked = parseVideoUrl(url);
      assert.equal(checked.ok, false, `accepted ${url}`);
      assert.ok(!checked.ok && checked.reason.includes(reason), !checked.ok ? checked.reason : '');
    });
  }
  void test('accepts a URL of exactly 2048 characters and the canonical form parses to itself', () => {
    const long = `${WATCH}&pad=${'x'.repeat(2048 - WATCH.length - 5)}`;
    assert.equal(long.length, 2048);
    assert.ok(parseVideoUrl(long).ok);
    const again = parseVideoUrl(WATCH);
    assert.ok(again.ok && again.value.url === WATCH);
  });
});

void describe('channel_url forms (spec 1 §4.3)', () => {
  for (const [url, kind, name, tab, listing] of GOOD_CHANNELS) {
    void test(`accepts ${url.slice(0, 80)}`, () => {
      const checked = parseChannelUrl(url);
      assert.ok(checked.ok, checked.ok ? '' : checked.reason);
      assert.equal(checked.value.kind, kind);
      assert.equal(checked.value.name, name);
      assert.equal(checked.value.tab, tab);
      assert.equal(checked.value.listingUrl, listing);
      // The canonical URL is itself accepted and names the same channel.
      const again = parseChannelUrl(checked.value.url);
      assert.ok(again.ok && again.value.url === checked.value.url && again.value.name === name);
    });
  }
  for (const [url, reason] of BAD_CHANNELS) {
    void test(`refuses ${url.slice(0, 80)}`, () => {
      const checked = parseChannelUrl(url);
      assert.equal(checked.ok, false, `accepted ${url}`);
      assert.ok(!checked.ok && checked.reason.includes(reason), !checked.ok ? checked.reason : '');
    });
  }
});
