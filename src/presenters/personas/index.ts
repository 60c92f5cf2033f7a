// Personas: reusable presenters made from a photo (spec 1 §2.6, §3.2, §4.6; docs/presenters.md).
import type { PricedRead } from '../../signals/paid-read.ts';
import { AVATARS_PATH } from './persona-service.ts';

export {
  AVATARS_PATH,
  creationPrice,
  LOCAL_AVATAR_ENGINE,
  MAX_LOOKS,
  PersonaService,
  presentPersona,
  type PersonaCall,
  type PersonaServiceDeps,
  type ProviderAvatarEngine,
} from './persona-service.ts';
export { loadPersonaForRender, type PersonaForRender } from './render-persona.ts';
export {
  analysePhoto,
  fetchPhoto,
  normalisePhoto,
  PhotoRefusedError,
  type AnalysedPhoto,
  type FetchedPhoto,
} from './likeness.ts';
export {
  judgeFaces,
  PHOTO_POLICY,
  photoRefusalError,
  suggestedVoiceGender,
  type PhotoRefusal,
} from './photo-policy.ts';

/** The paid route of personas, for the catalogs (/tools, /usage) to list beside the modes and paid reads. */
export const PERSONA_PRICED_ROUTES: readonly PricedRead[] = [
  {
    operation: 'avatar_creation',
    method: 'POST',
    path: AVATARS_PATH,
    title: 'A persona (reusable presenter) from one photo of one person',
  },
];
