import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AI_VIDEO_MODEL_IDS } from '../../platform/pricing/ai-video-models.ts';
import {
  chooseVideoProvider,
  DEFAULT_MODEL_MAPPING_PATH,
  loadModelMapping,
  ModelMappingError,
  type ModelMapping,
} from './model-mapping.ts';
import { buildShotInput, fitDuration } from './shot-input.ts';
import type { ShotRequest } from './video-model-provider.ts';

let dir: string;
let mapping: ModelMapping;
const both = { fal: { key: 'k' }, replicate: { token: 't' } };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-mapping-'));
  mapping = await loadModelMapping();
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeMapping(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('the shipped mapping', () => {
  test('names every neutral model id and gives well-formed provider model ids', async () => {
    assert.deepEqual(Object.keys(mapping.models).sort(), [...AI_VIDEO_MODEL_IDS].sort());
    assert.equal(mapping.source, DEFAULT_MODEL_MAPPING_PATH);
    for (const [id, providers] of Object.entries(mapping.models)) {
      for (const model of [providers.fal?.textToVideo, providers.fal?.imageToVideo]) {
        if (model) assert.match(model, /^[a-z0-9-]+\/[a-z0-9.-]+(\/[a-z0-9.-]+)*$/, `${id}: ${model}`);
      }
      for (const model of [providers.replicate?.textToVideo, providers.replicate?.imageToVideo]) {
        if (model) assert.match(model, /^[a-z0-9-]+\/[a-z0-9.-]+(:[0-9a-f]{64})?$/, `${id}: ${model}`);
      }
    }
  });

  test('prefers fal, falls back to Replicate, and answers null for the local engine', () => {
    assert.deepEqual(chooseVideoProvider(mapping, 'maker-a/sky-3.1', 'text-to-video', both), {
      provider: 'fal',
      providerModel: 'fal-ai/veo3.1',
      inputShape: { durationFormat: 'seconds', durations: [4, 6, 8], resolutionValues: { '2160p': '4k' } },
    });
    const replicateOnly = chooseVideoProvider(mapping, 'ridge-3.0-standard', 'image-to-video', {
      replicate: { token: 't' },
    });
    assert.equal(replicateOnly?.provider, 'replicate');
    assert.equal(replicateOnly?.providerModel, 'kwaivgi/kling-v3-video');
    assert.deepEqual(replicateOnly?.extraInput, { mode: 'standard' });
    // Not configured at all, not mapped, or not offered in that mode: the local engine.
    assert.equal(chooseVideoProvider(mapping, 'maker-a/sky-3.1', 'text-to-video', {}), null);
    assert.equal(chooseVideoProvider(mapping, 'wave-3.0', 'text-to-video', both), null);
    assert.equal(chooseVideoProvider(mapping, 'ridge-3-t2v', 'image-to-video', both), null);
    assert.equal(
      chooseVideoProvider(mapping, 'host-x/lt-2.3', 'text-to-video', { replicate: { token: 't' } }),
      null,
    );
  });

  test('each model family gets its own spelling of the same shot', () => {
    const base: Omit<ShotRequest, 'providerModel'> = {
      prompt: 'p',
      durationSec: 7,
      aspectRatio: '9:16',
      resolution: '2160p',
      nativeAudio: true,
      imageUrl: 'https://img.example.com/a.jpg',
      referenceImageUrls: ['https://img.example.com/ref.jpg'],
    };
    const input = (
      id: (typeof AI_VIDEO_MODEL_IDS)[number],
      configured: Parameters<typeof chooseVideoProvider>[3],
    ) => {
      const chosen = chooseVideoProvider(mapping, id, 'image-to-video', configured);
      assert.ok(chosen);
      return buildShotInput({ ...base, ...chosen });
    };
    assert.deepEqual(input('maker-a/sky-3.1', both), {
      prompt: 'p',
      duration: '8s',
      aspect_ratio: '9:16',
      resolution: '4k',
      generate_audio: true,
      image_url: 'https://img.example.com/a.jpg',
    });
    assert.deepEqual(input('maker-c/flow-2.0', { replicate: { token: 't' } }), {
      prompt: 'p',
      duration: 7,
      aspect_ratio: '9:16',
      resolution: '2160p',
      generate_audio: true,
      image: 'https://img.example.com/a.jpg',
      reference_images: ['https://img.example.com/ref.jpg'],
    });
    assert.deepEqual(input('host-x/pix/v6', both), {
      prompt: 'p',
      duration: 7,
      aspect_ratio: '9:16',
      resolution: '2160p',
      generate_audio_switch: true,
      image_url: 'https://img.example.com/a.jpg',
    });
    assert.deepEqual(input('host-x/wave/v2.7', both), {
      prompt: 'p',
      duration: 7,
      aspect_ratio: '9:16',
      resolution: '2160p',
      image_url: 'https://img.example.com/a.jpg',
    });
  });
});

describe('fitDuration', () => {
  test('picks the shortest accepted duration that covers the request, else the longest', () => {
    assert.equal(fitDuration(5, [4, 6, 8]), 6);
    assert.equal(fitDuration(6, [4, 6, 8]), 6);
    assert.equal(fitDuration(10, [8, 4, 6]), 8);
    assert.equal(fitDuration(4.2, { min: 3, max: 15 }), 5);
    assert.equal(fitDuration(2, { min: 3, max: 15 }), 3);
    assert.equal(fitDuration(30, { min: 3, max: 15 }), 15);
    assert.equal(fitDuration(7.5, undefined), 8);
  });
});

describe('operator mapping files', () => {
  test('an operator file replaces the default', async () => {
    const path = await writeMapping('custom.json', {
      models: { 'wave-3.0': { replicate: { textToVideo: 'someone/wave-clone:' + 'a'.repeat(64) } } },
    });
    const custom = await loadModelMapping(path);
    assert.equal(custom.source, path);
    assert.deepEqual(chooseVideoProvider(custom, 'wave-3.0', 'text-to-video', both), {
      provider: 'replicate',
      providerModel: `someone/wave-clone:${'a'.repeat(64)}`,
    });
    assert.equal(chooseVideoProvider(custom, 'maker-a/sky-3.1', 'text-to-video', both), null);
  });

  test('the shipped file round-trips through an operator copy', async () => {
    const path = await writeMapping('copy.json', await readFile(DEFAULT_MODEL_MAPPING_PATH, 'utf8'));
    assert.deepEqual((await loadModelMapping(path)).models, mapping.models);
  });

  const invalid: [string, unknown, RegExp][] = [
    [
      'unknown model id',
      { models: { 'wave-9': { fal: { textToVideo: 'x/y' } } } },
      /models\.wave-9: unknown model id/,
    ],
    [
      'misspelt field',
      { models: { 'wave-3.0': { fal: { textToVideo: 'x/y', extra_input: {} } } } },
      /models\.wave-3\.0\.fal/,
    ],
    [
      'unknown neutral input',
      { models: { 'wave-3.0': { fal: { textToVideo: 'x/y', input: { fields: { seed: 'seed' } } } } } },
      /input\.fields/,
    ],
    [
      'entry without a model',
      { models: { 'wave-3.0': { fal: { input: {} } } } },
      /needs textToVideo or imageToVideo/,
    ],
    [
      'bad duration range',
      { models: { 'wave-3.0': { fal: { textToVideo: 'x/y', input: { durations: { min: 9, max: 3 } } } } } },
      /min must not exceed max/,
    ],
    ['no models', { model: {} }, /invalid/],
  ];
  for (const [name, content, message] of invalid) {
    test(`a file with ${name} is refused with a message naming the problem`, async () => {
      const path = await writeMapping(`${name.replace(/\W+/g, '-')}.json`, content);
      await assert.rejects(loadModelMapping(path), (error: unknown) => {
        assert.ok(error instanceof ModelMappingError);
        assert.ok(error.message.includes(path), error.message);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  test('a file that is not JSON, or missing, is refused clearly', async () => {
    const broken = await writeMapping('broken.json', '{ "models": {');
    await assert.rejects(loadModelMapping(broken), /is not valid JSON/);
    await assert.rejects(loadModelMapping(join(dir, 'absent.json')), /cannot be read \(ENOENT\)/);
  });
});
