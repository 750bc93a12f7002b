/**
 * Root entry of the package: the record schema and its types, the settings, and the service to embed
 * (a server in your own process). It pulls Fastify, pino and prom-client: a program that only reads
 * the API imports `reference-records/client` instead, which carries none of them.
 */
export { FactSchema, KINDS, ID_PATTERN, type Fact, type Kind } from './core/records/record.js'
export {
  SearchEnvelopeSchema,
  SearchInterpretationSchema,
  CatalogueSchema,
  ErrorBodySchema,
  API_VERSION,
  type SearchEnvelope,
  type SearchInterpretation,
  type Catalogue,
} from './core/api/schemas.js'
export { loadConfig, type Config } from './config.js'
export { createService, startServer, type Service, type RunningServer } from './service/service.js'
