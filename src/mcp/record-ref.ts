/**
 * What an agent sends as a record id, read generously: agents pass what they were shown, which is
 * not always the id. An id in any case, a record page URL of this service (`…/fiches/{id}`), an API
 * URL (`…/api/v1/facts/{id}`), a resource URI or a sentence holding an id all name that record; a
 * URL of the publishing site is looked up as the record's original page. Anything else (a title,
 * a near-miss id) gets an answer that teaches: what an id looks like and the search to make.
 */

const ID = /(?:expertise-fait|fait|page|brand|offer|person)-[0-9a-f]{16}(?![0-9a-f])/i
const WHOLE_ID = new RegExp(`^${ID.source}$`, 'i')
/** Paths that end in a record id: the page for people, the API's record, the resource URI. */
const ID_AT_END_OF_PATH = new RegExp(`/(?:fiches|facts)/(${ID.source})/?$`, 'i')

export type RecordRef = { id: string } | { url: string } | { text: string }

export function readRecordRef(input: string): RecordRef {
  const value = input.trim().replace(/^["'«<\s]+|["'»>\s.]+$/g, '')
  if (WHOLE_ID.test(value)) return { id: value.toLowerCase() }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let path: string
    try {
      const url = new URL(value)
      path = url.protocol === 'reference-records:' ? `/${url.host}${url.pathname}` : url.pathname
    } catch {
      return { text: value }
    }
    const id = ID_AT_END_OF_PATH.exec(path)?.[1]
    return id !== undefined ? { id: id.toLowerCase() } : { url: value }
  }
  const inside = ID.exec(value)?.[0]
  return inside !== undefined ? { id: inside.toLowerCase() } : { text: value }
}

const ID_SHAPE =
  'An id is a kind prefix and 16 hexadecimal digits: fait-643b555e754f953d (official rule), expertise-fait-…, page-…, offer-…, brand-…, person-…; ' +
  'a record page URL of this service (…/fiches/{id}) works too.'

/** The answer to an input that names no record: what an id looks like, records it may have meant, and the search to make. */
export function teachingMessage(
  input: string,
  tool: string,
  suggestions: readonly { id: string; title: string }[],
): string {
  const shown = JSON.stringify(input.length > 120 ? `${input.slice(0, 120)}…` : input)
  const lines = [`${tool}: no record is named by ${shown}. ${ID_SHAPE}`]
  if (suggestions.length > 0) {
    lines.push('Records that match these words:')
    for (const s of suggestions) lines.push(`- ${s.id} « ${s.title} »`)
  }
  const q = input
    .replace(/[^\p{L}\p{N}' -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120)
  lines.push(
    q === '' ? 'Find ids with search_facts.' : `Find ids with search_facts {"q": ${JSON.stringify(q)}}.`,
  )
  return lines.join('\n')
}
