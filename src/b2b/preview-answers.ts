// The `data` of the business preview answers, for the OpenAPI document (the routes build these shapes).
import { z } from 'zod';
import { LIBRARY_MODES } from '../library/library-modes.ts';
import { PREVIEW_CAPABILITIES, PREVIEW_LINKS } from './preview-contract.ts';
import { previewValidateSchema } from './validate-request.ts';

const blockerSchema = z.object({ capability: z.string(), code: z.string(), message: z.string() });
const operationSchema = z.object({ operation: z.string(), method: z.literal('POST'), path: z.string() });
const jsonSchema = z.record(z.string(), z.unknown());

export const previewAccountSchema = z.object({
  account_id: z.string(),
  key_mode: z.enum(['live', 'sandbox']),
  schema_version: z.string(),
  contract_stage: z.literal('preview'),
  capabilities: z.object(
    Object.fromEntries(Object.keys(PREVIEW_CAPABILITIES).map((flag) => [flag, z.boolean()])),
  ),
  modes: z.array(
    z.object({
      mode: z.enum(LIBRARY_MODES),
      generation: z.boolean(),
      validation: z.boolean(),
      library: z.boolean(),
      operations: z.array(operationSchema),
    }),
  ),
  blockers: z.array(blockerSchema),
  links: z.object(Object.fromEntries(Object.keys(PREVIEW_LINKS).map((link) => [link, z.string()]))),
});

export const previewContractsSchema = z.object({
  schema_version: z.string(),
  stage: z.literal('preview'),
  generation_available: z.literal(false),
  modes: z.record(
    z.enum(LIBRARY_MODES),
    z.object({
      mode: z.enum(LIBRARY_MODES),
      generation_available: z.boolean(),
      validation: z.object({ method: z.literal('POST'), path: z.string() }).nullable(),
      request_schema: jsonSchema,
      result_schema: jsonSchema,
      operations: z.array(operationSchema.extend({ title: z.string(), request_schema: jsonSchema })),
    }),
  ),
  request_schema: jsonSchema,
  result_schema: jsonSchema,
  legacy_youtube: z.object({
    served: z.boolean(),
    method: z.literal('POST'),
    path: z.string(),
    input_schema: jsonSchema,
    receipt_data_schema: jsonSchema,
    error_schema: jsonSchema,
    poll: z.string(),
    limitations: z.array(z.string()),
  }),
  library: z.record(z.string(), z.unknown()),
  private_access: z.record(z.string(), z.unknown()),
  semantics: z.record(z.string(), z.string()),
  blockers: z.array(blockerSchema),
});

const fieldIssueSchema = z.object({
  field: z.string(),
  message: z.string(),
  valid_values: z.array(z.string()).optional(),
});

export const previewValidationSchema = z.object({
  valid: z.literal(true),
  schema_version: z.string(),
  stage: z.literal('preview'),
  mode: z.literal('stock'),
  normalized_request: previewValidateSchema,
  price_estimate: z.object({
    currency: z.literal('USD'),
    usd_cents: z.number().int(),
    display: z.string(),
    basis: z.string(),
    within_budget: z.boolean(),
  }),
  brand_kit: z.object({ brand_id: z.string(), name: z.string(), revision: z.number().int() }).optional(),
  generation_available: z.literal(false),
  generation_equivalent: z
    .object({
      method: z.literal('POST'),
      path: z.string(),
      body: z.record(z.string(), z.unknown()),
      accepted: z.boolean(),
      issues: z.array(fieldIssueSchema),
    })
    .nullable(),
  warnings: z.array(z.string()),
  job_created: z.literal(false),
  charged: z.literal(false),
});
