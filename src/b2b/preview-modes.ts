// The library modes (spec 2 §2.5) this build serves, each with the registered operations that render it.
import { LIBRARY_MODES, operationsOf, type LibraryMode } from '../library/library-modes.ts';
import type { ModeDefinition, ModeRegistry } from '../platform/modes/mode.ts';

export interface PreviewMode {
  mode: LibraryMode;
  /** The served operations of the mode, its main one first (stock, clip, ai_influencer, text_to_video). */
  operations: ModeDefinition[];
}

/** Only stock has a preview request body in the spec ("the bodies of the other modes: not shown"). */
export const VALIDATED_MODES: readonly LibraryMode[] = ['stock'];

export function servedPreviewModes(registry: ModeRegistry): PreviewMode[] {
  return LIBRARY_MODES.map((mode) => ({
    mode,
    operations: operationsOf(mode).flatMap((name) => registry.get(name) ?? []),
  })).filter((entry) => entry.operations.length > 0);
}

export function operationPath(mode: ModeDefinition): string {
  return `/api/v1/${mode.endpoint}`;
}
