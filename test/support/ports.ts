/** A TCP port on 127.0.0.1 that nobody listens on now (for child processes that need a fixed port). */
import { createServer } from 'node:net'

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
