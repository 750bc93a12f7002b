/** The reference client's public API; re-exports only. Nothing here imports zod, a Node module or server code. */
export { RecordsClient, type AllOptions, type SnapshotDownload } from './client.js'
export { sync, MIRROR_FILE, STATE_FILE, type SyncOptions, type SyncReport } from './sync.js'
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
