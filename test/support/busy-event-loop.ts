/**
 * Makes a child Node process's event loop busy for `busyMs` out of every `everyMs`, as a
 * saturated service's is, from when it receives SIGWINCH (so that its start is not slowed): the
 * work runs after the loop's socket reads (a setImmediate), like a request handler building a
 * large body, so that the timers due meanwhile fire before the next read, late, with the answers
 * they wait for already in the socket.
 */
import type { ChildProcess } from 'node:child_process'

/** Environment for the child: preloads the busy loop, idle until `startBusyLoop`. */
export function busyEventLoopEnv(busyMs: number, everyMs: number): { NODE_OPTIONS: string } {
  const source =
    `process.once('SIGWINCH', () => setInterval(() => setImmediate(() => { ` +
    `const end = performance.now() + ${busyMs}; while (performance.now() < end); }), ${everyMs}).unref())`
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(source)}` }
}

export function startBusyLoop(child: ChildProcess): void {
  if (!child.kill('SIGWINCH')) throw new Error('could not signal the child to start its busy loop')
}
