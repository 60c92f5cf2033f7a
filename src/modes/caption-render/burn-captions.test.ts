import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captionStyleById } from '../../media/captions/style-catalogue.ts';
import { applyOverrides, audioHandling, burnCaptionsArgs } from './burn-captions.ts';

const plan = {
  input: '/w/source',
  assPath: '/w/captions.ass',
  fontsDir: '/usr/share/fonts/truetype',
  output: '/w/captioned.mp4',
  preset: 'veryfast',
  width: 1280,
  height: 720,
};

test('the picture is re-encoded at its own size with the captions; the sound is copied', () => {
  assert.deepEqual(burnCaptionsArgs({ ...plan, audio: 'copy' }), [
    '-y',
    '-i',
    '/w/source',
    '-map',
    '0:v:0',
    '-vf',
    'subtitles=filename=/w/captions.ass:fontsdir=/usr/share/fonts/truetype',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    '-fps_mode',
    'passthrough',
    '-map',
    '0:a:0',
    '-c:a',
    'copy',
    '-movflags',
    '+faststart',
    '/w/captioned.mp4',
  ]);
});

test('sound MP4 cannot carry is encoded, silence stays silent, odd sizes keep full colour', () => {
  const encoded = burnCaptionsArgs({ ...plan, audio: 'encode' });
  assert.deepEqual(encoded.slice(encoded.indexOf('-c:a'), encoded.indexOf('-c:a') + 4), [
    '-c:a',
    'aac',
    '-b:a',
    '256k',
  ]);
  assert.ok(burnCaptionsArgs({ ...plan, audio: 'none' }).includes('-an'));
  const odd = burnCaptionsArgs({ ...plan, width: 641, audio: 'none' });
  assert.equal(odd[odd.indexOf('-pix_fmt') + 1], 'yuv444p');
  assert.equal(audioHandling('aac'), 'copy');
  assert.equal(audioHandling('opus'), 'copy');
  assert.equal(audioHandling('pcm_s16le'), 'encode');
  assert.equal(audioHandling('vorbis'), 'encode');
  assert.equal(audioHandling(undefined), 'none');
});

test('a render corrected after the quality gate re-encodes even copyable sound through its filter', () => {
  const args = burnCaptionsArgs({ ...plan, audio: 'copy', audioFilter: 'volume=13.00dB' });
  const at = args.indexOf('-af');
  assert.equal(args[at + 1], 'volume=13.00dB');
  assert.deepEqual(args.slice(at + 2, at + 6), ['-c:a', 'aac', '-b:a', '256k']);
  assert.ok(!args.includes('copy'));
});

test('position, words per line and the active-word highlight override the preset', () => {
  const base = captionStyleById('clean-white')!;
  assert.equal(base.animation, 'none');
  const styled = applyOverrides(base, { position: 'top', maxWordsPerLine: 6, highlightActiveWord: true });
  assert.equal(styled.position, 'top');
  assert.equal(styled.chunking.maxWords, 6);
  assert.ok(styled.chunking.maxChars >= 42);
  assert.equal(styled.animation, 'highlight');
  assert.equal(base.position, 'lower_third', 'the preset itself is not changed');

  const highlighted = captionStyleById('clean-highlight')!;
  assert.equal(applyOverrides(highlighted, { highlightActiveWord: false }).animation, 'none');
  assert.deepEqual(applyOverrides(highlighted, {}), highlighted);
});
