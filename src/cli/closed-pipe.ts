/** A write to a reader that went away (`reference-records dump | head -1`): the output is not wanted any more, which is no failure. */
export function isClosedPipe(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED'
}
