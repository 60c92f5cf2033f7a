// Hand-set profile fields (PATCH /brand/{brand_id}, spec 2 §4.2). An override is kept by its path ("tone",
// "colors.primary"), laid over the analysed profile when read, carried to the next analysis of the same URL,
// and removed by sending null, which brings the analysed value back. Objects are overridden field by field,
// so changing the primary colour keeps the analysed accent.
import { z } from 'zod';
import type { BrandProfile } from '../profile/brand-profile.ts';
import { brandProfileFields, brandProfileGroups } from './profile-fields.ts';

/** Path → value, e.g. { "tone": ["friendly", "bold"], "colors.primary": "#0A66C2" }. */
export type ProfileOverrides = Record<string, unknown>;

type Leaf = z.ZodType;

function nullableLeaves(shape: Record<string, Leaf>) {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.nullable().optional()]));
}

/**
 * The PATCH body: any profile field, with the profile's own rules; null clears an override. A group
 * (colors, fonts, voice) takes any of its fields, or null to clear all of them.
 */
export const profilePatchSchema = z
  .strictObject({
    ...nullableLeaves(brandProfileFields),
    ...Object.fromEntries(
      Object.entries(brandProfileGroups).map(([group, fields]) => [
        group,
        z.strictObject(nullableLeaves(fields)).nullable().optional(),
      ]),
    ),
  })
  .refine((body) => Object.keys(body).length > 0, 'must contain at least one profile field');

export type ProfilePatch = z.infer<typeof profilePatchSchema>;

/** Every overridable path, in profile order. */
export const OVERRIDABLE_PATHS: readonly string[] = [
  ...Object.keys(brandProfileFields),
  ...Object.entries(brandProfileGroups).flatMap(([group, fields]) =>
    Object.keys(fields).map((field) => `${group}.${field}`),
  ),
];

/** The overrides after a PATCH: values set, nulls cleared. */
export function applyPatch(current: ProfileOverrides, patch: ProfilePatch): ProfileOverrides {
  const next: ProfileOverrides = { ...current };
  const put = (path: string, value: unknown) => {
    if (value === null) delete next[path];
    else next[path] = value;
  };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const groupFields = (brandProfileGroups as Record<string, Record<string, Leaf> | undefined>)[field];
    if (!groupFields) {
      put(field, value);
    } else if (value === null) {
      for (const sub of Object.keys(groupFields)) delete next[`${field}.${sub}`];
    } else {
      for (const [sub, subValue] of Object.entries(value as Record<string, unknown>))
        if (subValue !== undefined) put(`${field}.${sub}`, subValue);
    }
  }
  return next;
}

/** The profile a caller sees: the analysed one with every override laid over it. */
export function withOverrides(profile: BrandProfile, overrides: ProfileOverrides): BrandProfile {
  const out = structuredClone(profile) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(overrides)) {
    const [head, sub] = path.split('.') as [string, string | undefined];
    if (sub === undefined) out[head] = value;
    else out[head] = { ...(out[head] as Record<string, unknown>), [sub]: value };
  }
  return out as unknown as BrandProfile;
}

/** The overridden paths, in profile order (unknown paths from older versions last). */
export function overriddenPaths(overrides: ProfileOverrides): string[] {
  const order = (path: string) => {
    const i = OVERRIDABLE_PATHS.indexOf(path);
    return i < 0 ? OVERRIDABLE_PATHS.length : i;
  };
  return Object.keys(overrides).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
}
