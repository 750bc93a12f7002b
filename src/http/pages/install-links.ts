/**
 * One-click installs of the MCP endpoint in VS Code and Cursor, as their documented deep links:
 * `vscode:mcp/install?<the server's JSON, URL-encoded>` and
 * `cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<the server's JSON, base64>`.
 * Built only from an absolute endpoint URL (PUBLIC_BASE_URL): an editor cannot install a relative one.
 */
const MCP_SERVER_NAME_IN_EDITORS = 'reference-records'

export type InstallLinks = { vscode: string; cursor: string }

export function installLinks(mcpUrl: string): InstallLinks {
  const vscode = { name: MCP_SERVER_NAME_IN_EDITORS, type: 'http', url: mcpUrl }
  const cursor = { url: mcpUrl }
  return {
    vscode: `vscode:mcp/install?${encodeURIComponent(JSON.stringify(vscode))}`,
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(MCP_SERVER_NAME_IN_EDITORS)}&config=${encodeURIComponent(Buffer.from(JSON.stringify(cursor)).toString('base64'))}`,
  }
}
