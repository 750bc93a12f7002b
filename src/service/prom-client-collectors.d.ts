/**
 * prom-client's default collectors, one module each (prom-client ships no types for them). Each
 * registers its metrics in `registry` and reads their values when scraped; see process-metrics.ts.
 */
declare module 'prom-client/lib/metrics/*.js' {
  import type { Registry } from 'prom-client'
  const register: (registry: Registry, config: { prefix?: string }) => void
  export default register
}
