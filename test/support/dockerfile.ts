/**
 * A Dockerfile read as its instructions, enough for the recipe's tests (base images cannot be pulled
 * on the build machines, so the image is checked as text): continuation lines joined, comments and
 * parser directives dropped, each instruction with the build stage it belongs to. Exec-form
 * arguments (a JSON array) are parsed; the shell form is kept as its text.
 */
export type Instruction = {
  /** Upper case: FROM, RUN, COPY, … */
  name: string
  /** The text after the instruction's name. */
  text: string
  /** The exec form's arguments, when `text` (or, for HEALTHCHECK, its `CMD …`) is a JSON array. */
  exec?: string[]
  /** Index of the build stage (0 for the first FROM). */
  stage: number
}

export type Stage = { index: number; image: string; name?: string; instructions: Instruction[] }

export function parseDockerfile(text: string): Stage[] {
  const lines: string[] = []
  let pending = ''
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue // comments, and the `# syntax=` directive
    const line = raw.replace(/\s+$/, '')
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `
      continue
    }
    const joined = `${pending}${line}`.trim()
    pending = ''
    if (joined !== '') lines.push(joined)
  }
  const stages: Stage[] = []
  for (const line of lines) {
    const [, name, rest] = /^(\S+)\s*(.*)$/.exec(line)!
    const upper = name!.toUpperCase()
    if (upper === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest!)
      if (m === null) throw new Error(`Dockerfile: cannot read "${line}"`)
      stages.push({ index: stages.length, image: m[1]!, name: m[2], instructions: [] })
    }
    const stage = stages.at(-1)
    if (stage === undefined) throw new Error(`Dockerfile: "${line}" comes before any FROM`)
    stage.instructions.push({ name: upper, text: rest!, exec: execForm(upper, rest!), stage: stage.index })
  }
  return stages
}

function execForm(name: string, text: string): string[] | undefined {
  const json =
    name === 'HEALTHCHECK' ? /\bCMD\s+(\[.*\])\s*$/.exec(text)?.[1] : text.startsWith('[') ? text : undefined
  if (json === undefined) return undefined
  const parsed: unknown = JSON.parse(json)
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`Dockerfile: ${name} ${text} is not an array of strings`)
  return parsed
}

/** `KEY=value` pairs of an ENV instruction (the `ENV KEY value` form is deprecated and not read). */
export function envPairs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {}
  for (const m of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g))
    pairs[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!
  return pairs
}

/** A HEALTHCHECK's options (`--interval=10s` → interval: '10s'). */
export function instructionOptions(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/--([a-z-]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]))
}
