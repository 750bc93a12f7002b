import { createServer } from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { checkNodeInternals, pausedByNode, pauseReading } from './node-internals.js'

describe('checkNodeInternals', () => {
  it("finds Node's pause mark on this Node, and reads it", async () => {
    expect(await checkNodeInternals()).toBe('node-mark')
    expect(pauseReading()).toBe('node-mark')
    const socket = new Socket() as Socket & { _paused?: boolean }
    socket._paused = true
    expect(pausedByNode(socket)).toBe(true)
    socket._paused = false
    expect(pausedByNode(socket)).toBe(false)
    socket.destroy()
  })
})

it('falls back to the public writableNeedDrain on a Node that keeps no mark', async () => {
  const markless = (listener: Parameters<typeof createServer>[0] & object) => {
    const server = createServer(listener)
    // After Node's own 'connection' listener, which sets the mark: a Node without it.
    server.on('connection', (socket: Socket & { _paused?: boolean }) => delete socket._paused)
    return server
  }
  expect(await checkNodeInternals(markless)).toBe('writable-need-drain')
  const socket = new Socket() as Socket & { _paused?: boolean }
  socket._paused = true
  expect(pausedByNode(socket)).toBe(false) // the mark is not read: the send buffer is empty
  socket.destroy()
  expect(await checkNodeInternals()).toBe('node-mark')
})
