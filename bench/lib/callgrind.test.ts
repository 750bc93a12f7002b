import { describe, expect, it } from 'vitest'
import { originOf, parsePerfMap, summarise } from './callgrind.js'

// A callgrind file as valgrind writes one: compressed names, a call whose inclusive cost must not be
// counted as the caller's own, JIT code valgrind names by address, and a total.
const CALLGRIND = `version: 1
events: Ir
ob=(1) /usr/bin/node
fl=(1) ???
fn=(1) Builtins_LoadIC
0 100
cob=(2) ???
cfn=(2) 0x0000000000001010
calls=1 0
0 5000
ob=(2)
fn=(2)
0 200
+2 100
fn=(3) 0x0000000000002000
* 40
ob=(1)
fn=(4) v8::internal::Scavenger::ScavengePage()
0 60
totals: 500
`
const PERF_MAP = `1000 100 JS:*handle file:///srv/dist/http/front-door.js:42:20
1000 80 JS:~handle file:///srv/dist/http/front-door.js:42:20
3000 10 JS:*nextTick node:internal/process/task_queues:113:18
`

describe('summarise', () => {
  it('counts each function’s own instructions per request, JIT code named from the perf map', () => {
    const c = summarise(CALLGRIND, parsePerfMap(PERF_MAP), 10)
    expect(c.instructionsPerRequest).toBe(50)
    expect(Object.fromEntries(c.functions)).toEqual({
      Builtins_LoadIC: 10,
      // The later entry at an address wins: V8 wrote it for the code now there.
      'JS:~handle file:///srv/dist/http/front-door.js:42:20': 30,
      '(unnamed code)': 4,
      'v8::internal::Scavenger::ScavengePage()': 6,
    })
    expect(Object.fromEntries(c.origins)).toEqual({
      'V8 builtins': 10,
      'service (JIT)': 30,
      'unnamed code': 4,
      'V8 young collections (C++)': 6,
    })
  })
})

describe('originOf', () => {
  it('tells the compilers and full collections from the rest of the binary', () => {
    expect(originOf('v8::internal::compiler::GraphReducer::ReduceTop()', '/usr/bin/node')).toBe(
      'V8 compilers (C++)',
    )
    expect(originOf('v8::internal::ConcurrentMarking::RunMajor()', '/usr/bin/node')).toBe(
      'V8 full collections (C++)',
    )
    expect(originOf('llhttp_execute', '/usr/bin/node')).toBe('node and V8 runtime (C++)')
    expect(originOf('JS:*subnetMatch /srv/node_modules/ipaddr.js/lib/ipaddr.js:1063:35', '???')).toBe(
      'npm:ipaddr.js (JIT)',
    )
    expect(originOf('JS:*nextTick node:internal/process/task_queues:113:18', '???')).toBe('node (JIT)')
  })
})
