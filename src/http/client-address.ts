/**
 * The client's address, as the quota and the logs see it: the socket's, or behind trusted proxies
 * the right-most X-Forwarded-For address they did not add. One compiled trust function serves the
 * framework (its `trustProxy` option, so `req.ip` agrees) and the fast path in front of it.
 */
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import proxyAddr from '@fastify/proxy-addr'
import { clientKey } from '../core/quota/client-key.js'

type TrustFunction = (address: string, hop: number) => boolean

export type ClientAddresses = {
  /** For the framework's `trustProxy` option: false (the socket is the client) or the compiled trust. */
  readonly trust: TrustFunction | false
  address(req: IncomingMessage): string | undefined
  /** The quota key of the request's client; computed once per connection when no proxy is trusted. */
  key(req: IncomingMessage): string
}

export function clientAddresses(trustedProxies: readonly string[] | undefined): ClientAddresses {
  if (trustedProxies === undefined) {
    // The socket is the client: every request of a connection has the same key.
    const keys = new WeakMap<Socket, string>()
    return {
      trust: false,
      address: (req) => req.socket.remoteAddress,
      key(req) {
        let key = keys.get(req.socket)
        if (key === undefined) keys.set(req.socket, (key = clientKey(req.socket.remoteAddress)))
        return key
      },
    }
  }
  const trust = proxyAddr.compile([...trustedProxies])
  const address = (req: IncomingMessage) => {
    const all = proxyAddr.all(req, trust)
    return all[all.length - 1]
  }
  return { trust, address, key: (req) => clientKey(address(req)) }
}
