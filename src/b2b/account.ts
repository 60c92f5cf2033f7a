// GET /b2b/account (spec 2 §4.4): who is calling, what the preview contract can do for them, what blocks the
// rest, and where to go next.
import type { Caller } from '../platform/generation/submit.ts';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import {
  CONTRACT_STAGE,
  PREVIEW_BLOCKERS,
  PREVIEW_CAPABILITIES,
  PREVIEW_LINKS,
  PREVIEW_SCHEMA_VERSION,
} from './preview-contract.ts';
import { operationPath, servedPreviewModes, VALIDATED_MODES } from './preview-modes.ts';

export function previewAccount(caller: Caller, registry: ModeRegistry) {
  return {
    account_id: caller.accountId,
    key_mode: caller.sandbox ? 'sandbox' : 'live',
    schema_version: PREVIEW_SCHEMA_VERSION,
    contract_stage: CONTRACT_STAGE,
    capabilities: PREVIEW_CAPABILITIES,
    modes: servedPreviewModes(registry).map(({ mode, operations }) => ({
      mode,
      generation: PREVIEW_CAPABILITIES.generation,
      validation: VALIDATED_MODES.includes(mode),
      library: PREVIEW_CAPABILITIES.library_metadata,
      operations: operations.map((operation) => ({
        operation: operation.name,
        method: 'POST',
        path: operationPath(operation),
      })),
    })),
    blockers: PREVIEW_BLOCKERS,
    links: PREVIEW_LINKS,
  };
}
