/** GET /docs: the API guide bundled with the package (docs/api.md), linked from the catalogue. */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'

const API_GUIDE = new URL('../../../docs/api.md', import.meta.url)

export function docsRoutes(app: FastifyInstance): void {
  const guide = readFileSync(API_GUIDE, 'utf8')
  app.get('/docs', (_req, reply) => reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=3600').send(guide))
}
