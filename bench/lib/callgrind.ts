/**
 * Reads what bench/instructions-pair.ts measures: a callgrind file's self instructions per function,
 * code that valgrind could not name (V8's JIT-compiled functions) named from V8's perf map
 * (`--perf-basic-prof`), and grouped by where the code comes from. Pure: the caller reads the files.
 */
export type Counted = {
  instructionsPerRequest: number
  functions: Map<string, number>
  origins: Map<string, number>
}

export type Symbol = { start: number; end: number; name: string }

/** V8's perf map: `START SIZE NAME` per line, hexadecimal; a later entry at an address wins. */
export function parsePerfMap(text: string): Symbol[] {
  const byStart = new Map<number, Symbol>()
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line)
    if (m === null) continue
    const start = parseInt(m[1]!, 16)
    byStart.set(start, { start, end: start + parseInt(m[2]!, 16), name: m[3]! })
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start)
}

function lookup(symbols: readonly Symbol[], address: number): Symbol | undefined {
  let lo = 0
  let hi = symbols.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const s = symbols[mid]!
    if (address < s.start) hi = mid - 1
    else if (address >= s.end) lo = mid + 1
    else return s
  }
  return undefined
}

/** Where a function's code comes from, for the coarse table. */
export function originOf(name: string, object: string): string {
  if (name.startsWith('JS:') || /^(Function|LazyCompile|Script):/.test(name)) {
    if (name.includes('/dist/')) return 'service (JIT)'
    if (name.includes('node_modules/'))
      return `npm:${/node_modules\/((@[^/]+\/)?[^/]+)/.exec(name)![1]} (JIT)`
    if (name.includes('node:')) return 'node (JIT)'
    return 'other JIT'
  }
  if (name.startsWith('Builtin:') || name.startsWith('Builtins_') || name.startsWith('BytecodeHandler:'))
    return 'V8 builtins'
  if (object.includes('/node')) {
    // Compiling and collecting come in bursts that a short count catches or misses: shown apart.
    if (
      /v8::internal::(compiler|maglev|baseline|wasm)::|Turbofan|OptimizedCompilationJob|CodeAssembler/.test(
        name,
      )
    )
      return 'V8 compilers (C++)'
    // A full collection comes every few tens of seconds of wall time; valgrind stretches a count's
    // seconds about fifty times, so a count catches full collections a native run spreads over far more requests.
    const FULL =
      /Marking|Sweep|MarkCompact|Evacuat|RememberedSetUpdating|LiveObjectVisitor|ActiveSystemPages|RecordMigratedSlot|SizeFromMap/
    if (FULL.test(name)) return 'V8 full collections (C++)'
    if (
      /Scaveng|heap::base|cppgc|MemoryAllocator|MemoryChunk|GCTracer|Heap::|RememberedSet|SlotSet|ObjectCache|RootVisitor/.test(
        name,
      )
    )
      return 'V8 young collections (C++)'
    return 'node and V8 runtime (C++)'
  }
  if (object.includes('libc')) return 'libc'
  if (object.includes('vgpreload') || object.includes('valgrind')) return 'valgrind'
  if (object === '???') return 'unnamed code'
  return object.split('/').pop() ?? object
}

/**
 * Self instructions per function from a callgrind file (the cost lines under each `fn=`, without the
 * inclusive cost that follows each `calls=` line), unnamed code named from `symbols`.
 */
export function summarise(text: string, symbols: readonly Symbol[], requests: number): Counted {
  const names = new Map<string, string>()
  const objects = new Map<string, string>()
  const self = new Map<string, number>()
  const selfObject = new Map<string, string>()
  let fn = ''
  let object = ''
  let skipNext = false
  let total = 0
  // `(12) name` defines name 12, `(12)` refers to it (--compress-strings, callgrind's default).
  const compressed = (table: Map<string, string>, spec: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec)
    if (m === null) return spec
    if (m[2] !== undefined) table.set(m[1]!, m[2])
    return table.get(m[1]!) ?? spec
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('ob=')) object = compressed(objects, line.slice(3))
    else if (line.startsWith('cob=')) compressed(objects, line.slice(4))
    else if (line.startsWith('fn=')) fn = compressed(names, line.slice(3))
    else if (line.startsWith('cfn=') || line.startsWith('cfi=') || line.startsWith('cfl=')) {
      if (line.startsWith('cfn=')) compressed(names, line.slice(4))
    } else if (line.startsWith('calls=')) skipNext = true
    else if (/^[+-]?\d|^\*/.test(line)) {
      if (skipNext) {
        skipNext = false
        continue
      }
      const ir = Number(line.split(' ')[1] ?? 0)
      total += ir
      self.set(fn, (self.get(fn) ?? 0) + ir)
      selfObject.set(fn, object)
    } else if (line.startsWith('totals:') || line.startsWith('summary:')) {
      total = Number(line.split(' ')[1])
    }
  }
  const functions = new Map<string, number>()
  const origins = new Map<string, number>()
  for (const [name, ir] of self) {
    const address = /^0x([0-9a-f]+)$/.exec(name)
    const named =
      address === null ? name : (lookup(symbols, parseInt(address[1]!, 16))?.name ?? '(unnamed code)')
    const perRequest = ir / requests
    functions.set(named, (functions.get(named) ?? 0) + perRequest)
    const origin = originOf(named, address === null ? selfObject.get(name)! : '???')
    origins.set(origin, (origins.get(origin) ?? 0) + perRequest)
  }
  return { instructionsPerRequest: total / requests, functions, origins }
}
