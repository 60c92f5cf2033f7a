import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import sharp from 'sharp';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  PALETTE,
  startImageModelServer,
  type ImageModelServer,
} from '../../../test/support/image-model-server.ts';
import { ImageModelError } from './image-model.ts';
import { OpenAiImageModel } from './openai-images.ts';

const guard = new UrlGuard({ allowLoopback: true });
let server: ImageModelServer;
let dir: string;

before(async () => {
  server = await startImageModelServer();
  dir = await mkdtemp(join(tmpdir(), 'image-model-'));
});
after(async () => {
  await server.close();
  await guard.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.delivery = 'b64_json';
  server.refuse = null;
});

const client = (apiKey = server.apiKey, maxRetries = 2) =>
  new OpenAiImageModel({ baseUrl: server.baseUrl, apiKey, urlGuard: guard, maxRetries });

async function generationError(model: OpenAiImageModel, name: string): Promise<ImageModelError> {
  const error = await model
    .generate({ prompt: 'a calm lake at dawn', shape: 'portrait', outPath: join(dir, name) })
    .then(
      () => assert.fail('the still was made'),
      (err: unknown) => err,
    );
  assert.ok(error instanceof ImageModelError, String(error));
  return error;
}

/** The flat colour of a PNG the client saved, read back by sharp. */
async function colourOf(path: string): Promise<number[]> {
  const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

describe('OpenAI Images client', () => {
  test('a b64_json answer: the documented request, the picture saved as a PNG of the asked size', async () => {
    const out = join(dir, 'b64.png');
    const still = await client().generate({ prompt: 'a calm lake at dawn', shape: 'portrait', outPath: out });
    assert.equal(server.requests.length, 1);
    const sent = server.requests[0]!;
    assert.equal(sent.authorization, `Bearer ${server.apiKey}`);
    assert.deepEqual(sent.body, {
      model: 'gpt-image-1',
      prompt: 'a calm lake at dawn',
      size: '1024x1536',
      n: 1,
      quality: 'medium',
    });
    assert.deepEqual(
      { width: still.width, height: still.height, size: still.size, delivery: still.delivery },
      { width: 1024, height: 1536, size: '1024x1536', delivery: 'b64_json' },
    );
    assert.match(still.requestId ?? '', /^req_\d+$/);
    const meta = await sharp(out).metadata();
    assert.equal(meta.format, 'png');
    assert.deepEqual(await colourOf(out), sent.colour);
  });

  test('a url answer: the picture fetched through the URL guard', async () => {
    server.delivery = 'url';
    const out = join(dir, 'url.png');
    const still = await client().generate({
      prompt: 'a city street at night',
      shape: 'landscape',
      outPath: out,
    });
    assert.equal(still.delivery, 'url');
    assert.equal(still.size, '1536x1024');
    assert.deepEqual([still.width, still.height], [1536, 1024]);
    assert.deepEqual(await colourOf(out), server.requests[0]!.colour);
    assert.ok(PALETTE.some((c) => c.join() === server.requests[0]!.colour!.join()));
  });

  test('a b64_json answer that is not a picture is a bad response, and nothing is left behind', async () => {
    server.queue({ garbage: true });
    const error = await generationError(client(), 'garbage.png');
    assert.equal(error.kind, 'bad_response');
    assert.match(error.message, /not an image/);
    assert.equal(existsSync(join(dir, 'garbage.png')), false);
  });

  test('a url answer the guard refuses is a bad response', async () => {
    server.delivery = 'url';
    const strict = new UrlGuard({ allowLoopback: false });
    try {
      const model = new OpenAiImageModel({
        baseUrl: server.baseUrl,
        apiKey: server.apiKey,
        urlGuard: strict,
      });
      const error = await generationError(model, 'guarded.png');
      assert.equal(error.kind, 'bad_response');
      assert.match(error.message, /could not be fetched/);
    } finally {
      await strict.close();
    }
  });

  test('429 with Retry-After, then success: waits as told and tries again', async () => {
    server.queue({ status: 429, retryAfterSec: 1 });
    const still = await client().generate({
      prompt: 'a runner on a bridge',
      shape: 'square',
      outPath: join(dir, 'retried.png'),
    });
    assert.equal(still.size, '1024x1024');
    assert.deepEqual(
      server.requests.map((r) => r.status),
      [429, 200],
    );
    const waited = server.requests[1]!.at - server.requests[0]!.at;
    assert.ok(waited >= 950, `waited ${waited} ms for a Retry-After of 1 s`);
  });

  test('a content refusal is a non-retryable refused, asked once', async () => {
    server.refuse = () => true;
    const error = await generationError(client(), 'refused.png');
    assert.equal(error.kind, 'refused');
    assert.equal(error.retryable, false);
    assert.equal(error.status, 400);
    assert.match(error.message, /safety system/);
    assert.equal(server.requests.length, 1);
  });

  test('5xx on every attempt: the retries run out, then a retryable unavailable', async () => {
    server.queue({ status: 500 }, { status: 502 }, { status: 503 });
    const error = await generationError(client(server.apiKey, 2), 'outage.png');
    assert.equal(error.kind, 'unavailable');
    assert.equal(error.retryable, true);
    assert.equal(error.status, 503);
    assert.deepEqual(
      server.requests.map((r) => r.status),
      [500, 502, 503],
    );
  });

  test('a bad key: 401 unauthorized naming IMAGE_MODEL_API_KEY, not retried', async () => {
    const error = await generationError(client('sk-wrong'), 'unauthorized.png');
    assert.equal(error.kind, 'unauthorized');
    assert.equal(error.retryable, false);
    assert.match(error.message, /IMAGE_MODEL_API_KEY/);
    assert.doesNotMatch(error.message, /sk-wrong/);
    assert.equal(server.requests.length, 1);
  });

  test('DALL·E 3 is asked for its own sizes, without a GPT image quality', async () => {
    const model = new OpenAiImageModel({
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      model: 'dall-e-3',
      urlGuard: guard,
    });
    // The fake serves the GPT image sizes only, so the size DALL·E 3 takes is refused as invalid.
    const error = await generationError(model, 'dalle.png');
    assert.equal(error.kind, 'invalid_request');
    assert.deepEqual(server.requests[0]!.body, {
      model: 'dall-e-3',
      prompt: 'a calm lake at dawn',
      size: '1024x1792',
      n: 1,
    });
  });
});
