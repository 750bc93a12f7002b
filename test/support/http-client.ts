/** A bare HTTP GET that can choose its source address (127.0.0.x), which fetch cannot. */
import { Agent, request } from 'node:http'

export type BareResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

const agents = new Map<string, Agent>()
const agentFor = (localAddress: string) => {
  let agent = agents.get(localAddress)
  if (!agent) agents.set(localAddress, (agent = new Agent({ keepAlive: true, localAddress, maxSockets: 16 })))
  return agent
}

export function httpGet(
  url: string,
  options: { from?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<BareResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: agentFor(options.from ?? '127.0.0.1'),
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy()
  agents.clear()
}
