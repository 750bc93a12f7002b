/**
 * A step of `npm run build`: the MCP app's record card (src/mcp/app/record-card.ts, with the ext-apps
 * client and the core's labels it imports) bundled by esbuild into one self-contained HTML page,
 * dist/mcp/app/record-card.html, which the MCP server serves as its ui:// resource (src/mcp/app.ts).
 * Self-contained because a host runs it in a sandboxed frame with no network: its script and its
 * style are inline. Run alone with `node scripts/build-mcp-app.js`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const RECORD_CARD_HTML = join(root, 'dist', 'mcp', 'app', 'record-card.html')

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #4a4a4a; --accent: #0b5394; --official: #0a5c2e; --warn: #8a3b00; }
@media (prefers-color-scheme: dark) { :root { --fg: #f2f2f2; --bg: #161616; --muted: #c8c8c8; --accent: #8ec2ff; --official: #7fdca4; --warn: #ffb27a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { padding: 12px 16px; max-width: 46rem; }
h1 { font-size: 1.25rem; margin: 0 0 .4rem; }
h2 { font-size: 1rem; margin: 1rem 0 .3rem; }
a { color: var(--accent); }
.status.official strong { color: var(--official); }
.status.other strong { color: var(--muted); }
.verified { color: var(--muted); margin: .2rem 0 .6rem; }
.reverify { color: var(--warn); font-weight: 600; }
.citation { font-family: ui-monospace, monospace; font-size: .9rem; overflow-wrap: anywhere; }
button { font: inherit; color: var(--accent); background: transparent; border: 1px solid currentColor; border-radius: 4px; padding: .2rem .6rem; cursor: pointer; }
.hits { list-style: none; padding: 0; }
.hits li { margin: .4rem 0; }
.hit { border: none; padding: 0; text-align: left; text-decoration: underline; }
.hit-status { display: block; color: var(--muted); font-size: .9rem; }
.copied { margin-left: .6rem; color: var(--muted); }
.back { margin-bottom: .6rem; }
`

/** The page: the bundled script inline, with any "</script" in it escaped so it cannot end the element. */
export async function buildRecordCardHtml() {
  const bundle = await build({
    entryPoints: [join(root, 'src', 'mcp', 'app', 'record-card.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
  })
  const script = bundle.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1')
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fiche — reference-records</title>
<style>${STYLE}</style>
</head>
<body>
<div id="app"></div>
<script type="module">${script}</script>
</body>
</html>
`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const html = await buildRecordCardHtml()
  mkdirSync(dirname(RECORD_CARD_HTML), { recursive: true })
  writeFileSync(RECORD_CARD_HTML, html)
}
