// `kurs mcp` as an agent sees it: the MCP SDK's own client over stdio, spawning `bin/kurs mcp`
// against a Kurs server at `url`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './server-process.js';

export async function mcpClient(url: string, apiKey: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', KURS_URL: url, KURS_API_KEY: apiKey },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'kurs-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's first content item. */
export function resultText(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[0]?.text ?? '';
}
