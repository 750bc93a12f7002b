/**
 * The MCP app (SEP-1865, extension io.modelcontextprotocol/ui): a record card a host renders beside the
 * answers of search_facts, get_fact and fetch, served as a ui:// resource of type
 * text/html;profile=mcp-app. The page is built by `npm run build` (scripts/build-mcp-app.js) from
 * app/record-card.ts. It needs no network (its CSP declares no domain): it reads the tool result the
 * host passes it. Tools point to it with `_meta.ui.resourceUri` (and the older `_meta["ui/resourceUri"]`,
 * which ext-apps' registerAppTool adds for hosts that read that one); a client that renders no app
 * ignores both, and every tool result stays what it is without the app.
 */
import { readFile } from 'node:fs/promises'
import {
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  registerAppResource,
} from '@modelcontextprotocol/ext-apps/server'
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server'

export const RECORD_CARD_URI = 'ui://reference-records/fiche.html'
/**
 * The built page: from src/mcp (tests) and from dist/mcp (the service), `../../dist/mcp/app` is the
 * same folder, the one the build writes.
 */
const RECORD_CARD_FILE = new URL('../../dist/mcp/app/record-card.html', import.meta.url)

/** What the tools that show records carry in their `_meta`. */
export const RECORD_CARD_TOOL_META = {
  ui: { resourceUri: RECORD_CARD_URI },
  [RESOURCE_URI_META_KEY]: RECORD_CARD_URI,
} as const

/** No network at all: no fetch, no script, style, image or frame from anywhere (everything is inline). */
const UI_META = {
  ui: {
    csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
    prefersBorder: true,
  },
}

let page: Promise<string> | undefined
/** The page, read once per process (it changes only with a new build). */
const recordCardHtml = (): Promise<string> =>
  (page ??= readFile(RECORD_CARD_FILE, 'utf8').catch((err: NodeJS.ErrnoException) => {
    page = undefined
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      err.code === 'ENOENT'
        ? 'The record card is not built (npm run build writes it)'
        : 'The record card could not be read',
    )
  }))

export function registerRecordCard(server: McpServer): void {
  registerAppResource(
    server,
    'record-card',
    RECORD_CARD_URI,
    {
      title: 'Fiche (carte)',
      description:
        'Record card shown by hosts that render MCP apps, beside search_facts, get_fact and fetch.',
      mimeType: RESOURCE_MIME_TYPE,
      _meta: UI_META,
    },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: await recordCardHtml(), _meta: UI_META },
      ],
    }),
  )
}
