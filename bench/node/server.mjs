// A stdio MCP server for scripts/bench.sh (SERVER=node): TOOLS tools listed
// in pages of PAGE, through the TypeScript SDK's low-level Server API.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const N = Number(process.env.TOOLS || 10000), PAGE = Number(process.env.PAGE || 100);
const tools = Array.from({ length: N }, (_, i) => ({
  name: `tool_${String(i).padStart(5, "0")}`,
  description: `Tool number ${i}`,
  inputSchema: { type: "object", properties: { x: { type: "number" } } },
}));
const server = new Server({ name: "node-bench", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (req) => {
  const start = Number(req.params?.cursor || 0);
  const next = start + PAGE;
  return next < N ? { tools: tools.slice(start, next), nextCursor: String(next) } : { tools: tools.slice(start) };
});
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "ok" }] }));
await server.connect(new StdioServerTransport());
