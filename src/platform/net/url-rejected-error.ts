/** Machine-readable reasons a URL (or a fetch of it) was refused. */
export type UrlRejectReason =
  | 'invalid_url'
  | 'url_too_long'
  | 'scheme_not_allowed'
  | 'userinfo_not_allowed'
  | 'ip_literal'
  | 'internal_host'
  | 'private_address'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'aborted'
  | 'http_status'
  | 'fetch_failed';

/**
 * Thrown for every refusal by the URL guard. `message` names the problem and at most the host:
 * never the full URL, whose userinfo, query or path may carry secrets.
 */
export class UrlRejectedError extends Error {
  readonly reason: UrlRejectReason;

  constructor(reason: UrlRejectReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UrlRejectedError';
    this.reason = reason;
  }
}
