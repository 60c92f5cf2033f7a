import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { startDIdServer, type DIdServer } from '../../../test/support/d-id-server.ts';
import { createAvatarProviders, unconfiguredEngineMessage } from './avatar-providers.ts';
import { DIdTalkingPhoto } from './d-id.ts';
import { HeyGenTalkingPhoto } from './heygen.ts';
import { TalkingPhotoError } from './talking-photo.ts';

const guard = new UrlGuard({ allowLoopback: true });
let did: DIdServer;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avatar-providers-'));
  did = await startDIdServer();
});
after(async () => {
  await did.close();
  await guard.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createAvatarProviders', () => {
  test('a key switches its engine on; no key, no engine', () => {
    assert.deepEqual(createAvatarProviders({ pollSeconds: 5, timeoutSeconds: 900 }, guard), {});
    const heygenOnly = createAvatarProviders(
      { heygen: { apiKey: 'k' }, pollSeconds: 5, timeoutSeconds: 900 },
      guard,
    );
    assert.deepEqual(Object.keys(heygenOnly), ['avatar_iv']);
    assert.ok(heygenOnly.avatar_iv instanceof HeyGenTalkingPhoto);
    const both = createAvatarProviders(
      { heygen: { apiKey: 'k' }, did: { apiKey: 'u:p' }, pollSeconds: 5, timeoutSeconds: 900 },
      guard,
    );
    assert.ok(both.avatar_v instanceof DIdTalkingPhoto);
    assert.deepEqual(
      Object.values(both).map((p) => [p.engine, p.name]),
      [
        ['avatar_iv', 'HeyGen'],
        ['avatar_v', 'D-ID'],
      ],
    );
  });

  test('the base URL, poll interval and time budget reach the client', async () => {
    did.script('settings check', { outcome: 'never' });
    const providers = createAvatarProviders(
      { did: { apiKey: did.apiKey, baseUrl: did.baseUrl }, pollSeconds: 0.05, timeoutSeconds: 1 },
      guard,
    );
    const photoPath = join(dir, 'photo.jpg');
    await sharp({ create: { width: 320, height: 400, channels: 3, background: '#c96' } })
      .jpeg()
      .toFile(photoPath);
    const audioPath = join(dir, 'voice.wav');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=duration=1', audioPath]);
    const started = Date.now();
    const provider = providers.avatar_v;
    assert.ok(provider);
    await assert.rejects(
      provider.render(
        { photoPath, audioPath, aspectRatio: '1:1', title: 'settings check' },
        { workDir: dir, signal: AbortSignal.timeout(30_000) },
      ),
      (error: unknown) => error instanceof TalkingPhotoError && error.kind === 'timeout',
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 1000 && elapsed < 4000, `timed out after the 1 s budget (${elapsed} ms)`);
    const talk = did.requests.find((r) => r.method === 'POST' && r.path === '/talks');
    assert.ok(talk, 'the configured base URL was used');
    const polls = did.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/talks/')).length;
    assert.ok(polls >= 8 && polls <= 25, `polled every 50 ms or so (${polls} polls)`);
  });
});

describe('unconfiguredEngineMessage', () => {
  test('names the provider and the variables to set', () => {
    const iv = unconfiguredEngineMessage('avatar_iv');
    assert.match(iv, /avatar_iv engine renders on HeyGen/);
    assert.match(iv, /HEYGEN_API_KEY/);
    assert.match(iv, /HEYGEN_BASE_URL/);
    assert.match(iv, /Nothing was charged/);
    const v = unconfiguredEngineMessage('avatar_v');
    assert.match(v, /avatar_v engine renders on D-ID/);
    assert.match(v, /DID_API_KEY/);
  });
});
