import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { PRICE_TABLE } from '../pricing/price-table.ts';
import { type ModeDefinition, ModeRegistry } from './mode.ts';

function mode(name: string, endpoint: string): ModeDefinition {
  return {
    name,
    endpoint,
    title: name,
    description: name,
    schema: z.object({}),
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: false,
    dryRun: true,
    webhooks: false,
    privateDelivery: false,
    identicalRequestProtection: false,
    price: () => ({ usdCents: 1, breakdown: [], tool: name, model: name, tier: 'standard', engine: name }),
    estimate: () => ({ renderSeconds: { min: 1, typical: 1, max: 1 } }),
    run: () => Promise.resolve({ artifacts: {}, files: [] }),
  };
}

void describe('ModeRegistry', () => {
  void test('refuses at registration a mode the price table does not price, naming the table', () => {
    assert.throws(
      () => new ModeRegistry([mode('clips', 'clipper/vidsite')]),
      /clips has no entry in the price table/,
    );
  });

  void test('gives each registered mode its own price-table entry, under the same key', () => {
    const registry = new ModeRegistry([mode('clip', 'clipper/vidsite'), mode('stock', 'generate-and-post')]);
    for (const registered of registry.all())
      assert.equal(registry.priceEntry(registered), PRICE_TABLE[registered.name as keyof typeof PRICE_TABLE]);
  });

  void test('refuses a second mode on the same name or route', () => {
    assert.throws(() => new ModeRegistry([mode('stock', 'a'), mode('stock', 'b')]), /registered twice/);
    assert.throws(() => new ModeRegistry([mode('stock', 'a'), mode('news', 'a')]), /served by two modes/);
  });
});
