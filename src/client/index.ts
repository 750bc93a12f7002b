/** The reference client's public API; re-exports only. Nothing here imports zod, a Node module or server code. */
export {
  RecordsClient,
  downloadBound,
  type AllOptions,
  type DownloadOptions,
  type SnapshotDownload,
} from './client.js'
export {
  sync,
  defaultDownloadAbove,
  MIRROR_FILE,
  STATE_FILE,
  type SyncOptions,
  type SyncProgress,
  type SyncReport,
} from './sync.js'
export {
  RecordsClientError,
  RecordsApiError,
  InvalidParameterError,
  NotFoundError,
  MethodNotAllowedError,
  ChangesGoneError,
  RateLimitError,
  UnavailableError,
  UnexpectedResponseError,
  RecordsConnectionError,
  RedirectError,
  PagingAnomalyError,
  SearchTooBroadError,
  ResponseLimitError,
  type ResponseLimit,
  type RecordsErrorCode,
} from './errors.js'
export {
  DEFAULT_BASE_URL,
  type RecordsClientOptions,
  type RequestOptions,
  type RetryEvent,
  type SearchQuery,
  type ListQuery,
} from './options.js'
export { DEFAULT_LIMITS, type Limits } from './limits.js'
export { RequestPacer, DEFAULT_REQUESTS_PER_MINUTE, type PacerOptions } from './pacer.js'
export type { PageEvent } from './paging.js'
export type { Sleep } from './retry.js'
export type {
  Catalogue,
  Change,
  ChangeFeed,
  ChangesQuery,
  ErrorBody,
  ErrorCode,
  Fact,
  Kind,
  SearchEnvelope,
  SearchInterpretation,
  SearchParameters,
  Source,
} from './wire.js'
