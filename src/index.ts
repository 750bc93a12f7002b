/** Public entry of the package: the record schema and types, and the pieces to embed the service. */
export { FactSchema, KINDS, ID_PATTERN, type Fact, type Kind } from './records/record.js'
export { SearchEnvelopeSchema, CatalogueSchema, ErrorBodySchema, API_VERSION, type SearchEnvelope, type Catalogue } from './http/schemas.js'
export { loadConfig, type Config } from './config.js'
export { startServer, type RunningServer } from './server.js'
export * from './client/index.js'
