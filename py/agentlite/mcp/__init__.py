"""Remote MCP (Model Context Protocol) servers as tool sources (docs/mcp.md).

Nothing here is imported on the agent's start path: the package loads when a workspace has a server.
"""
