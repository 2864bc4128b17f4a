// `kurs mcp`: an MCP server over stdio for AI agents, calling a Kurs server (KURS_URL) with a key
// (KURS_API_KEY). A failed call is a tool error carrying Kurs's own message (D1); nothing a tool
// does can end the server, and nothing but protocol messages is written to stdout.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { KursClient, KursError } from '../../client/dist/index.js';
import { VERSION } from '../version.js';
import { TOOLS } from './tools.js';

export interface McpOptions {
  url: string;
  apiKey: string | undefined;
}

const text = (value: string) => [{ type: 'text' as const, text: value }];

/** What an agent reads when a call fails: the D1 code and message, and the status. */
function describeError(err: unknown): string {
  if (err instanceof KursError) return `${err.error}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}${err.details.length ? ` [${err.details.map((d) => `${d.field} ${d.message}`).join('; ')}]` : ''}`;
  return `internal: ${err instanceof Error ? err.message : String(err)}`;
}

export function buildMcpServer(opts: McpOptions): McpServer {
  const kurs = new KursClient({ baseUrl: opts.url, apiKey: opts.apiKey, exact: true, timeoutMs: 20_000 });
  const server = new McpServer({ name: 'kurs', version: VERSION }, { instructions: 'Official central-bank exchange rates from a Kurs server. Rates are exact decimal strings; each call costs API points as its description says.' });
  for (const tool of TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: true, openWorldHint: true } }, async (args: Record<string, unknown>) => {
      try {
        return { content: text(JSON.stringify(await tool.run(kurs, args), null, 1)) };
      } catch (err) {
        return { isError: true, content: text(describeError(err)) };
      }
    });
  }
  return server;
}

export async function serveMcp(opts: McpOptions): Promise<void> {
  const server = buildMcpServer(opts);
  await server.connect(new StdioServerTransport());
  if (!opts.apiKey) process.stderr.write('kurs mcp: KURS_API_KEY is not set; every tool will answer invalid_key\n');
}
