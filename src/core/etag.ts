/** Strong ETags for serialised bodies, shared by the index (records) and the HTTP layer (catalogue, OpenAPI). */
import { createHash } from 'node:crypto'

/** A content hash, quoted: equal bodies get equal tags on every replica, any change a new one. Text or bytes (a gzip body). */
export const strongEtag = (body: string | Uint8Array): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
