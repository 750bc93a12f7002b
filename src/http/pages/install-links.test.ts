import { describe, expect, it } from 'vitest'
import { installLinks } from './install-links.js'

describe('installLinks', () => {
  const url = 'https://records.example.org/mcp'
  const links = installLinks(url)
  it('gives VS Code its URL-encoded server JSON', () => {
    const prefix = 'vscode:mcp/install?'
    expect(links.vscode.startsWith(prefix)).toBe(true)
    expect(JSON.parse(decodeURIComponent(links.vscode.slice(prefix.length)))).toEqual({
      name: 'reference-records',
      type: 'http',
      url,
    })
  })
  it('gives Cursor its name and base64 server JSON', () => {
    const link = new URL(links.cursor)
    expect(`${link.protocol}//${link.host}${link.pathname}`).toBe(
      'cursor://anysphere.cursor-deeplink/mcp/install',
    )
    expect(link.searchParams.get('name')).toBe('reference-records')
    expect(JSON.parse(Buffer.from(link.searchParams.get('config')!, 'base64').toString('utf8'))).toEqual({
      url,
    })
  })
})
