/**
 * A value made once, on first need, and kept: the MCP description (src/service/mcp-description.ts)
 * and the hosted server cards (src/http/discovery/routes.ts) are each asked for by many requests.
 */

/** `make`'s result, made at the first call and kept; a failure is not kept, so the next call tries again. */
export function keptUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () =>
    (made ??= make().catch((err: unknown) => {
      made = undefined
      throw err
    }))
}
