import 'server-only';

// The public face of lib/partner. Wire types (snake_case) are deliberately not exported: everything outside
// this folder works with the app model from @/lib/model.
export {
  createPartnerClient,
  walkPages,
  clampPageRequest,
  normalizeBaseUrl,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  type PartnerOperation,
  type PageRequest,
  type PartnerResponse,
  type ResponseInfo,
  type PartnerClientOptions,
  type PartnerClient,
  type WalkOptions,
  type WalkResult,
} from './client';
export { PartnerError, isPartnerError, toUpstreamError, parseRetryAfter, type PartnerErrorKind } from './errors';
export {
  readPartnerConfig,
  embeddedUpstream,
  type EmbeddedUpstream,
  isUpstreamConfigured,
  createConfiguredClient,
  configuredTimeRule,
  upstreamIdentity,
  EMBEDDED_UPSTREAM,
  type UpstreamIdentity,
  type PartnerConfig,
  type PartnerConfigResult,
} from './config';
export {
  parsePartnerTimestamp,
  formatPartnerTimestamp,
  describeTimeRule,
  isPartnerTimestamp,
  isPartnerDate,
  offsetMinutesAt,
  type TimeRule,
} from './time';
export {
  busFromWire,
  routeFromWire,
  routeStopFromWire,
  routeStopsFromWire,
  tripFromWire,
  busLocationFromWire,
  statusFromWire,
  rateLimitFromWire,
  pagedFromWire,
} from './map';
