/**
 * The API's named schemas (the OpenAPI document's components), in a registry of our own.
 *
 * Why not zod's global registry: it is process-wide (zod keeps it on `globalThis`, shared by every
 * copy of zod in the process), so any library registering a schema there under an id — `Error` is a
 * likely one — would replace ours in the document, and one it cannot convert (a date, a transform)
 * would make building the document throw. The OpenAPI builder converts this registry only.
 */
import { z } from 'zod'

export type ComponentMeta = { id: string; description?: string; example?: unknown }

/** The components, in the order they were named. Filled by records/record.ts and api/schemas.ts. */
export const componentRegistry = z.registry<ComponentMeta>()

/**
 * Names `schema` as the component `meta.id` and returns it. The same metadata also goes to zod's
 * global registry (`.meta`), because that is where the MCP SDK's Standard Schema conversion of the
 * tool schemas looks for ids and descriptions: its output schemas keep their `$defs`.
 */
export function component<S extends z.ZodType>(schema: S, meta: ComponentMeta): S {
  // A second schema under one id would silently replace the first in the registry's id map.
  if (componentRegistry._idmap.has(meta.id))
    throw new Error(`schemas: the component "${meta.id}" is defined twice`)
  const named = schema.meta(meta)
  componentRegistry.add(named, meta)
  return named
}
