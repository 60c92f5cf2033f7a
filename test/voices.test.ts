import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// The voice catalogue in /capabilities and the choice between local voices and a configured speech service.

let local: TestService;
let withService: TestService;
before(async () => {
  local = await startTestService({ modes: productModes, worker: false });
  withService = await startTestService({
    modes: productModes,
    worker: false,
    env: { SPEECH_BASE_URL: 'http://127.0.0.1:9/v1', SPEECH_API_KEY: 'sk-test', SPEECH_MODEL: 'tts-1' },
  });
});
after(async () => {
  await local.stop();
  await withService.stop();
});

const dryRun = (service: TestService, body: Record<string, unknown>) =>
  service.call('POST', '/api/v1/generate-and-post', { body: { topic: 'voices', dry_run: true, ...body } });

void test('/capabilities lists the local voices per language, and the speech service voices only when configured', async () => {
  const caps = (await local.call('GET', '/api/v1/capabilities')).body.data;
  assert.ok(
    caps.voices.languages.en.some(
      (v: { id: string; gender: string }) => v.id === 'espeak:en-us:female-1' && v.gender === 'female',
    ),
  );
  assert.ok(caps.voices.languages.de.length > 0);
  assert.deepEqual(caps.voices.service_voices, []);
  const configured = (await withService.call('GET', '/api/v1/capabilities')).body.data;
  assert.ok(configured.voices.service_voices.includes('speech:alloy'));
});

void test('voice ids are checked against the engines that exist here', async () => {
  assert.equal((await dryRun(local, { voice_id: 'espeak:en-us:male-2' })).status, 200);
  assert.equal(
    (await dryRun(local, { voice_gender: 'female', language: 'de', script: 'Guten Morgen, liebe Leute.' }))
      .status,
    200,
  );
  const refused = await dryRun(local, { voice_id: 'speech:alloy' });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error.details.fields[0].message, /SPEECH_BASE_URL/);
  assert.equal((await dryRun(withService, { voice_id: 'speech:alloy' })).status, 200);
  const unknown = await dryRun(withService, { voice_id: 'speech:robot' });
  assert.equal(unknown.status, 400);
  assert.ok(unknown.body.error.details.fields[0].valid_values.includes('speech:alloy'));
});
