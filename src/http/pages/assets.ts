/**
 * The files the pages load, served by the service itself (no CDN: the pages work offline and make no
 * request to another host): the pages' stylesheet, script and icon from public/, and Swagger UI's
 * bundle and stylesheet from its npm package. Read once at start and held in memory; each address
 * carries the file's content hash, so browsers may keep it for a year and a new version is a new address.
 * A dozen fixed files do not need a static-file plugin (and its per-request file-system work).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Representation } from './representation.js'

const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url))
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
}

/** Where each served asset comes from. */
const FILES: Readonly<Record<string, string>> = {
  'site.css': join(PUBLIC_DIR, 'site.css'),
  'site.js': join(PUBLIC_DIR, 'site.js'),
  'icon.svg': join(PUBLIC_DIR, 'icon.svg'),
  'reference.js': join(PUBLIC_DIR, 'reference.js'),
  'reference.css': join(PUBLIC_DIR, 'reference.css'),
  'swagger-ui.css': join(SWAGGER_UI_DIR, 'swagger-ui.css'),
  'swagger-ui-bundle.js': join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'),
}
export type AssetName = keyof typeof FILES

/** Asset addresses are `/assets/<hash>/<name>`. */
export const ASSETS_ROOT = '/assets'
export const IMMUTABLE = 'public, max-age=31536000, immutable'

type Asset = { hash: string; representation: Representation }

export class Assets {
  readonly #byName = new Map<string, Asset>()

  /** `base`: the public base URL (or '') every address starts with. */
  constructor(private readonly base: string) {
    for (const [name, path] of Object.entries(FILES)) {
      // Source-map comments are dropped: the maps are not served, and developer tools would ask for them.
      const text = readFileSync(path, 'utf8').replace(
        /\/\*# sourceMappingURL=\S+ ?\*\/\s*$|\/\/# sourceMappingURL=\S+\s*$/,
        '',
      )
      const hash = createHash('sha256').update(text).digest('base64url').slice(0, 12)
      this.#byName.set(name, {
        hash,
        representation: new Representation(text, TYPES[name.slice(name.lastIndexOf('.') + 1)]!),
      })
    }
  }

  /** The address of an asset, e.g. "/assets/Xb3…/site.css". */
  url(name: AssetName): string {
    return `${this.base}${ASSETS_ROOT}/${this.#byName.get(name)!.hash}/${name}`
  }

  /** The asset at `hash`/`name`, or undefined when either does not match (an old or made-up address). */
  find(hash: string, name: string): Representation | undefined {
    const asset = this.#byName.get(name)
    return asset !== undefined && asset.hash === hash ? asset.representation : undefined
  }
}
