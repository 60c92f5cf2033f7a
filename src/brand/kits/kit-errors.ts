// The errors of saved brand kits (spec 2 §4.3, §7; spec 1 §7). Every one is free: kits cost nothing.
import { ApiError, errors } from '../../platform/errors.ts';

export const kitErrors = {
  notFound: (brandId: string) =>
    new ApiError(
      404,
      'BRAND_NOT_FOUND',
      `No brand kit "${brandId}" in this account. List your kits with GET /api/v1/b2b/brands.`,
    ),
  confirmationRequired: (domain: string, brand: string) =>
    new ApiError(
      422,
      'BRAND_CONFIRMATION_REQUIRED',
      `${domain} is the domain of a well-known brand (${brand}). If you are authorized to use its brand, send "confirm_authorized": true; nothing was created.`,
      { details: { domain, brand, field: 'confirm_authorized' } },
    ),
  autogenFailed: (websiteUrl: string, reason: string, detail: string) =>
    new ApiError(
      422,
      'BRAND_AUTOGEN_FAILED',
      `The kit could not be built from ${websiteUrl}: ${detail}. Check the address, or send "name" (and logo_url, colours) to make the kit by hand.`,
      { details: { reason, website_url: websiteUrl } },
    ),
  brandIdTaken: (brandId: string) =>
    new ApiError(
      409,
      'RESOURCE_ALREADY_EXISTS',
      `A brand kit "${brandId}" already exists in this account. Change it with PATCH /api/v1/b2b/brands/${encodeURIComponent(brandId)}, or choose another brand_id.`,
      { details: { fields: [{ field: 'brand_id', message: 'is already used by another kit' }] } },
    ),
  refreshNeedsWebsite: () =>
    errors.inputInvalid('Invalid request: refresh needs a kit with a website_url to crawl.', [
      { field: 'refresh', message: 'needs a kit with a website_url; send website_url too' },
    ]),
  nameRequired: () =>
    errors.inputInvalid('Invalid request: name can only be cleared on a kit built from its website.', [
      { field: 'name', message: 'can only be cleared on a kit built from its website' },
    ]),
};
