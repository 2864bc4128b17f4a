// `kurs mcp`: the MCP server for AI agents, over stdio (src/mcp/). Loaded only when asked for, so
// the other commands do not pay for the MCP SDK.
import type { Command } from 'commander';
import { loadMcpConfig } from '../config.js';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve Kurs to AI agents over MCP on stdio; calls KURS_URL (default http://127.0.0.1:8080) with KURS_API_KEY')
    .action(async () => {
      const config = loadMcpConfig();
      const { serveMcp } = await import('../mcp/server.js');
      await serveMcp(config);
    });
}
