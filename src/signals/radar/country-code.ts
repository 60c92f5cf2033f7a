// Whether a code is an assigned ISO 3166-1 alpha-2 country code (spec 2 §4.1 `geo`). The region names of the
// runtime's ICU (CLDR) know every assigned code; CLDR also names codes that ISO 3166-1 does not assign to a
// country, listed below, which are refused.

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * CLDR region codes that are not assigned ISO 3166-1 alpha-2 codes: groupings (EU, EZ, QO, UN, ZZ), pseudo
 * and user-assigned codes (XA, XB, XK), exceptionally reserved codes (AC, CP, CQ, DG, EA, IC, TA, UK) and
 * codes withdrawn from the standard (AN, BU, CS, DD, DY, FX, HV, NH, RH, SU, TP, VD, YD, YU, ZR).
 */
const NOT_ASSIGNED = new Set(
  'EU EZ QO UN ZZ XA XB XK AC CP CQ DG EA IC TA UK AN BU CS DD DY FX HV NH RH SU TP VD YD YU ZR'.split(' '),
);

/** Every assigned code, listed once at start-up (asking ICU per request is slow on the radar's hot path). */
const ASSIGNED: ReadonlySet<string> = new Set(
  Array.from({ length: 26 * 26 }, (_, i) =>
    String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)),
  ).filter((code) => !NOT_ASSIGNED.has(code) && REGION_NAMES.of(code) !== undefined),
);

export function isCountryCode(code: string): boolean {
  return ASSIGNED.has(code);
}
