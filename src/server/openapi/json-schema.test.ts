import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { SchemaComponents } from './json-schema.ts';

interface Node {
  name: string;
  children: Node[];
}

const node: z.ZodType<Node> = z.object({
  name: z.string().min(1),
  get children() {
    return z.array(node);
  },
});

/** Validates `value` against `schema` as it stands inside an OpenAPI document with `components`. */
function validates(components: SchemaComponents, schema: unknown, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ components: { schemas: components.schemas }, schema }, 'doc');
  return ajv.validate({ $ref: 'doc#/schema' }, value);
}

test('a recursive schema becomes a component whose references point into the document', () => {
  const components = new SchemaComponents();
  const ref = components.convert(z.object({ root: node }), 'input');
  const text = JSON.stringify({ ref, components: components.schemas });
  assert.doesNotMatch(text, /"#\/\$defs\//, 'no reference is left pointing at a schema of its own');
  assert.doesNotMatch(text, /"\$ref":"#"/);
  const tree = { root: { name: 'a', children: [{ name: 'b', children: [] }] } };
  assert.equal(validates(components, ref, tree), true);
  const broken = { root: { name: 'a', children: [{ name: '', children: [] }] } };
  assert.equal(validates(components, ref, broken), false, 'the nested node is checked by the component');

  const root = components.convert(node, 'input');
  assert.match(
    String(root.$ref),
    /^#\/components\/schemas\//,
    'a schema that refers to itself is a component',
  );
  assert.equal(validates(components, root, tree.root), true);
  assert.equal(validates(components, root, broken.root), false);
});

test('a schema with no definitions stays inline, without $schema', () => {
  const components = new SchemaComponents();
  const schema = components.convert(z.object({ limit: z.coerce.number().int().default(20) }), 'input');
  assert.equal(schema.$schema, undefined);
  assert.equal(schema.type, 'object');
  assert.deepEqual(components.schemas, {});
});

test('the same schema reads as sent (input) or as answered (output)', () => {
  const components = new SchemaComponents();
  const schema = z.object({ count: z.number().default(5) });
  assert.equal(components.convert(schema, 'input').required, undefined);
  assert.deepEqual(components.convert(schema, 'output').required, ['count']);
});
