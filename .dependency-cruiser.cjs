/**
 * The architecture's walls (docs/design.md "Layout"), checked by `npm run lint` (after ESLint), which
 * `npm test` runs.
 * One core that knows no transport, thin adapters that do not know each other, a client that
 * stands alone; only the composition root (src/service, the CLI, the package entry) wires them.
 */
const FRAMEWORKS =
  'node_modules/(fastify|@fastify/|@modelcontextprotocol/|pino|prom-client|cli-progress|close-with-grace)'
const TESTS = '\\.(test|contract)\\.ts$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-knows-no-transport',
      comment:
        'src/core owns records, search, quota and the API model; it imports no adapter, client, CLI or composition code.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(http|mcp|client|cli|service)/' },
    },
    {
      name: 'core-uses-no-framework',
      comment: 'No web framework, protocol SDK, logger or metrics library in the core: adapters bring them.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: FRAMEWORKS },
    },
    {
      name: 'client-stands-alone',
      comment: 'The reference client imports nothing outside src/client (types included), so it ships light.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: TESTS },
      to: { pathNot: '^src/client/' },
    },
    {
      name: 'http-and-mcp-apart',
      comment:
        'The HTTP and MCP adapters do not import each other; the composition root mounts one next to the other.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'mcp-and-http-apart',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'adapters-know-no-root',
      comment: 'Adapters are wired by the composition root; they never import it, the CLI or the client.',
      severity: 'error',
      from: { path: '^src/(http|mcp)/' },
      to: { path: '^src/(service|cli|client)/|^src/index\\.ts$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
}
