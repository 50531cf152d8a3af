// A tiny stdio MCP server for hermes's tests, built on the official SDK that
// server-everything already brings: `add_tools` registers two tools one after the other, so
// the client gets two `notifications/tools/list_changed` in quick succession.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "changing-server", version: "1.0.0" });

server.registerTool(
  "add_tools",
  { description: "Registers extra_one and extra_two", inputSchema: {} },
  async () => {
    for (const name of ["extra_one", "extra_two"]) {
      server.registerTool(
        name,
        { description: `The ${name} tool`, inputSchema: { text: z.string() } },
        async ({ text }) => ({ content: [{ type: "text", text: `${name}: ${text}` }] }),
      );
    }
    return { content: [{ type: "text", text: "added extra_one and extra_two" }] };
  },
);

server.registerTool(
  "pid",
  { description: "This server's process id", inputSchema: {} },
  async () => ({ content: [{ type: "text", text: String(process.pid) }] }),
);

await server.connect(new StdioServerTransport());
