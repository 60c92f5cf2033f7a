import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// The catalogs of the real product registry (not the test-only mode most platform tests mount): every price
// belongs to a served route, every served route has its price, and every listed endpoint answers.

let service: TestService;
before(async () => {
  service = await startTestService({ modes: productModes });
});
after(async () => {
  await service.stop();
});

interface Tool {
  name: string;
  path: string;
  price_usd_cents: number | null;
  unit: string;
}
interface Operation {
  operation: string;
  route: string;
  usd_cents: number | null;
}

/** A route is served when a POST to it answers anything but 404 (an empty body gives a 400 naming fields). */
async function served(path: string): Promise<boolean> {
  const response = await service.call('POST', path, { body: { dry_run: true } });
  return response.status !== 404;
}

void describe('product catalogs', () => {
  void test('/tools lists each served mode once, each with its price from the table (the clip price included)', async () => {
    const data = (await service.call('GET', '/api/v1/tools', { key: null })).body.data;
    const tools = data.tools as Tool[];
    const registered = service.runtime.context.registry.all();
    assert.deepEqual(tools.map((t) => t.name).sort(), registered.map((m) => m.name).sort());
    for (const tool of tools) {
      const variable = data.pricing.variable[tool.name];
      assert.ok(
        Number.isInteger(tool.price_usd_cents) ||
          (tool.price_usd_cents === null && typeof variable === 'string'),
        `${tool.name}: price ${String(tool.price_usd_cents)}`,
      );
      assert.ok(await served(tool.path), `${tool.path} is listed but answers 404`);
    }
    const clip = tools.find((t) => t.name === 'clip');
    assert.deepEqual([clip?.price_usd_cents, clip?.unit], [40, 'clip']);
  });

  void test('the price table of /tools and /usage holds exactly the served routes, no price without a route', async () => {
    const tools = (await service.call('GET', '/api/v1/tools', { key: null })).body.data;
    const operations = tools.pricing.operations as Operation[];
    const paths = new Set((tools.tools as Tool[]).map((t) => t.path));
    assert.deepEqual(new Set(operations.map((o) => o.route)), paths);
    for (const operation of operations) assert.ok(await served(operation.route), operation.route);

    const usage = (await service.call('GET', '/api/v1/usage')).body.data.pricing;
    assert.deepEqual(usage.operations, Object.fromEntries(operations.map((o) => [o.operation, o.usd_cents])));
    for (const removed of ['persona'])
      assert.equal(removed in usage.operations, false, `${removed} is priced but not served`);
  });

  void test('/capabilities lists as batchable only endpoints /batch accepts, and every mode path answers', async () => {
    const data = (await service.call('GET', '/api/v1/capabilities')).body.data;
    const endpoints = data.batch.endpoints as string[];
    assert.ok(endpoints.length > 0);
    for (const endpoint of endpoints) {
      const response = await service.call('POST', '/api/v1/batch', {
        body: { dry_run: true, jobs: [{ endpoint, body: {} }] },
      });
      assert.notEqual(response.status, 404, response.text);
      assert.doesNotMatch(response.text, /not available on this server/, endpoint);
    }
    // Every endpoint spec 1 §4.10 makes batchable is served by this build.
    assert.deepEqual([...endpoints].sort(), [
      'clipper/vidsite',
      'generate-and-post',
      'videos/ai-influencer',
      'videos/image-to-video',
      'videos/text-to-video',
    ]);
    for (const mode of data.modes as { path: string; batch: boolean; endpoint?: string }[]) {
      assert.ok(await served(mode.path), mode.path);
      assert.equal(mode.batch, endpoints.includes(mode.path.replace('/api/v1/', '')), mode.path);
    }
  });
});
