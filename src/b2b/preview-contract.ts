// The business preview contract's stamps and flags (spec 2 §4.4, §9): one place for what the account and
// contracts endpoints report. Decisions: docs/library.md.

export const PREVIEW_SCHEMA_VERSION = '2026-10-06.preview.2';
export const CONTRACT_STAGE = 'preview';

/** Exactly the capability flags of spec 2 §4.4. */
export const PREVIEW_CAPABILITIES = {
  request_validation: true,
  generation: false,
  library_metadata: true,
  brand_kits: true,
  private_cdn: false,
  database_delivery: false,
  delegated_customer_accounts: false,
} as const;

export const PREVIEW_LINKS = {
  usage: '/api/v1/usage',
  contracts: '/api/v1/b2b/contracts',
  validate: '/api/v1/b2b/validate',
  library: '/api/v1/b2b/library/videos',
  brands: '/api/v1/b2b/brands',
} as const;

type MissingCapability = {
  [K in keyof typeof PREVIEW_CAPABILITIES]: (typeof PREVIEW_CAPABILITIES)[K] extends false ? K : never;
}[keyof typeof PREVIEW_CAPABILITIES];

/** What stands between the preview and each capability it lacks, and what to use meanwhile. */
const BLOCKER_OF: Record<MissingCapability, { code: string; message: string }> = {
  generation: {
    code: 'GENERATION_NOT_AVAILABLE',
    message:
      'The preview contract validates requests but does not generate. Render today with the mode routes: POST /api/v1/generate-and-post (stock), /api/v1/clipper/vidsite (clipping), /api/v1/videos/ai-influencer (avatar), /api/v1/videos/text-to-video and /api/v1/videos/image-to-video (ai_video); POST /api/v1/b2b/validate answers the equivalent /generate-and-post body of a stock request.',
  },
  private_cdn: {
    code: 'PRIVATE_CDN_NOT_INTEGRATED',
    message:
      'Files are not on a private CDN: this service serves every file itself through signed links that expire after 24 hours (media_access of the library list, artifacts of GET /api/v1/jobs/{job_id}).',
  },
  database_delivery: {
    code: 'DATABASE_DELIVERY_NOT_INTEGRATED',
    message:
      'Videos are not written into a database of yours: pull them (library list, GET /api/v1/jobs/{job_id}) or receive the job webhook.',
  },
  delegated_customer_accounts: {
    code: 'DELEGATED_CUSTOMER_ACCOUNTS_NOT_INTEGRATED',
    message:
      'End customers have no accounts or keys of their own: customer_id scopes brand kits and filters the library of your account.',
  },
};

export const PREVIEW_BLOCKERS = Object.entries(BLOCKER_OF).map(([capability, blocker]) => ({
  capability,
  ...blocker,
}));
