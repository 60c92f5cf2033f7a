// A ready persona as a render needs it: local files of its photo and person mask, and its face as found in
// that photo. Presenter modes call this in validation (free 404 / 409 before any charge) and again to render.
import type { Face } from '../../media/vision/index.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/errors.ts';
import type { PresenterEngine } from '../../platform/pricing/presenter-price.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { suggestedVoiceGender } from './photo-policy.ts';
import { findLook, findPersona } from './persona-repo.ts';

export interface PersonaForRender {
  id: string;
  name: string;
  status: 'ready';
  supportedEngines: PresenterEngine[];
  lookId: string;
  /** The normalised photo (JPEG, EXIF-rotated, at most 2048 px): the face's coordinates are in its pixels. */
  photoPath: string;
  photoWidth: number;
  photoHeight: number;
  face: Face;
  /** Greyscale PNG of the photo's size, 255 where the person is; null when no person could be cut out. */
  personMaskPath: string | null;
  /** The voice gender the face suggests, when the face model is confident of it. */
  suggestedVoiceGender?: 'female' | 'male';
}

async function localFile(store: MediaStore, key: string): Promise<string> {
  const path = await store.fetchToLocal(key);
  if (!path) throw new Error(`persona file ${key} is missing from the media store`);
  return path;
}

/**
 * The account's persona `avatarId` with its primary look, or the look `lookId`. Throws 404 AVATAR_NOT_FOUND
 * (unknown, deleted or another account's) or 409 AVATAR_NOT_READY (still processing, or failed).
 */
export async function loadPersonaForRender(
  db: Executor,
  store: MediaStore,
  accountId: string,
  avatarId: string,
  options: { lookId?: string } = {},
): Promise<PersonaForRender> {
  const persona = await findPersona(db, accountId, avatarId);
  if (!persona) throw errors.avatarNotFound(avatarId);
  if (persona.status !== 'ready') throw errors.avatarNotReady(avatarId, persona.status);
  const look = await findLook(db, avatarId, options.lookId);
  if (!look) {
    if (options.lookId !== undefined) throw errors.notFound(`Look ${options.lookId} of persona ${avatarId}`);
    throw errors.avatarNotFound(avatarId);
  }
  const voice = suggestedVoiceGender(look.face);
  return {
    id: persona.id,
    name: persona.name,
    status: 'ready',
    supportedEngines: persona.supportedEngines as PresenterEngine[],
    lookId: look.id,
    photoPath: await localFile(store, look.photoKey),
    photoWidth: look.photoWidth,
    photoHeight: look.photoHeight,
    face: look.face,
    personMaskPath: look.personMaskKey ? await localFile(store, look.personMaskKey) : null,
    ...(voice ? { suggestedVoiceGender: voice } : {}),
  };
}
