/**
 * Checks live responses against the served OpenAPI document: the status must be declared for the
 * operation, the declared headers must be present, and a JSON body must match the declared schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { expect } from 'vitest'

type Json = Record<string, any>
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')

export type CheckedResponse = { status: number; headers: Headers; text: string; body: any; path: string }

export class OpenApiValidator {
  readonly #ajv: Ajv2020
  readonly #prefix: string
  constructor(readonly doc: Json) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(this.#ajv)
    this.#ajv.addSchema({ ...doc, $id: 'openapi' })
    this.#prefix = new URL(doc.servers[0].url, 'http://x').pathname
  }

  /** The path template of the doc that a request path matches, e.g. "/facts/{id}". */
  template(path: string): string | undefined {
    if (!path.startsWith(this.#prefix)) return undefined
    const rest = path.slice(this.#prefix.length) || '/'
    return Object.keys(this.doc.paths).find((t) =>
      new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(rest),
    )
  }

  /** Asserts `res` is one of the responses the document declares for its operation (or the Error body elsewhere). */
  check(res: CheckedResponse): void {
    const template = this.template(res.path)
    if (template === undefined) {
      // Outside the API's paths only errors are validated (an unknown path's 404, a 405 on /healthz…).
      if (res.status >= 400) this.#validate('openapi#/components/schemas/Error', res.body, res)
      return
    }
    const declared = this.doc.paths[template].get.responses[String(res.status)]
    expect(
      declared,
      `status ${res.status} of GET ${template} is not declared in the OpenAPI document`,
    ).toBeDefined()
    for (const [name, spec] of Object.entries<Json>(declared.headers ?? {})) {
      const value = res.headers.get(name)
      if (spec.required)
        expect(value, `header ${name} required for ${res.status} of ${template}`).not.toBeNull()
      if (value !== null && spec.schema?.type === 'integer') {
        expect(this.#ajv.validate(spec.schema, Number(value)), `header ${name}: ${value}`).toBe(true)
      }
    }
    if (declared.content === undefined) {
      expect(res.text, `${res.status} of ${template} declares no body`).toBe('')
      return
    }
    const type = res.headers.get('content-type')?.split(';')[0]
    const declaredTypes = Object.keys(declared.content)
    expect(declaredTypes, `${res.status} of ${template} answered ${type}`).toContain(type)
    // Bodies that are not one JSON document (NDJSON) are checked by their own tests.
    if (type !== 'application/json') return
    const pointer = `openapi#/paths/${escape(template)}/get/responses/${res.status}/content/application~1json/schema`
    this.#validate(pointer, res.body, res)
  }

  #validate(ref: string, body: unknown, res: CheckedResponse): void {
    const validate = this.#ajv.getSchema(ref) ?? this.#ajv.compile({ $ref: ref })
    const ok = validate(body)
    expect(ok, `${res.status} ${res.path}: ${this.#ajv.errorsText(validate.errors)}`).toBe(true)
  }
}
