// `kurs mcp`: an MCP server over stdio for AI agents, calling a Kurs server (KURS_URL) with a key
// (KURS_API_KEY). A failed call is a tool error carrying Kurs's own message (D1); an answer over
// the size an agent can take is a tool error saying how to narrow it; nothing a tool does can end
// the server, and nothing but protocol messages is written to stdout.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { KursClient, KursError } from '../../client/dist/index.js';
import { VERSION } from '../version.js';
import { AnswerTooLarge, agentFetch, MAX_ANSWER_BYTES } from './answer.js';
import { NothingToAnswer, strictInput, TOOLS, type Tool } from './tools.js';

export interface McpOptions {
  url: string;
  apiKey: string | undefined;
}

const text = (value: string) => [{ type: 'text' as const, text: value }];

/** The error for an answer over the cap; `charged` says what the call cost, where that is known. */
const tooLarge = (tool: Tool, what: string, charged: string) =>
  `answer_too_large: ${what}, over the ${MAX_ANSWER_BYTES / 1000} KB a tool answers. Narrow it: ${tool.narrow}.${charged}`;
const points = (cost: string | null) => (cost === null ? '' : ` This call was charged ${cost} point${cost === '1' ? '' : 's'}.`);

/** What an agent reads when a call fails: the D1 code and message, and the status. */
function describeError(tool: Tool, err: unknown): string {
  // The client reports anything its fetch throws as a network error; the cause says what it was.
  const cause = err instanceof KursError ? err.cause : undefined;
  if (cause instanceof AnswerTooLarge) return tooLarge(tool, `the answer is over ${Math.floor(cause.bytes / 1000)} KB`, points(cause.cost));
  if (err instanceof NothingToAnswer) return err.message;
  if (err instanceof KursError) return `${err.error}${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}${err.details.length ? ` [${err.details.map((d) => `${d.field} ${d.message}`).join('; ')}]` : ''}`;
  return `internal: ${err instanceof Error ? err.message : String(err)}`;
}

export function buildMcpServer(opts: McpOptions): McpServer {
  const kurs = new KursClient({ baseUrl: opts.url, apiKey: opts.apiKey, fetch: agentFetch(), timeoutMs: 20_000 });
  const server = new McpServer({ name: 'kurs', version: VERSION }, { instructions: `Official central-bank exchange rates from a Kurs server. Each call costs API points as its description says; an answer is at most ${MAX_ANSWER_BYTES / 1000} KB.` });
  for (const tool of TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: strictInput(tool), annotations: { readOnlyHint: true, openWorldHint: true } }, async (args: Record<string, unknown>) => {
      const certain = tool.tooLarge?.(args);
      if (certain) return { isError: true, content: text(tooLarge(tool, certain, ' Nothing was charged.')) };
      try {
        const answer = JSON.stringify(await tool.run(kurs, args));
        const bytes = Buffer.byteLength(answer);
        if (bytes > MAX_ANSWER_BYTES) return { isError: true, content: text(tooLarge(tool, `the answer is ${Math.round(bytes / 1000)} KB`, '')) };
        return { content: text(answer) };
      } catch (err) {
        return { isError: true, content: text(describeError(tool, err)) };
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
