"""AgentLite: a Python agent for the browser (Pyodide), pure at its core, platform code at the edges.

Pure modules (CPython-testable): events, errors, transport, the stream decoders, the workspace, the tools,
the engine. Edge modules that touch `js` / `pyodide` live in `agentlite.browser` only.
"""

__version__ = "0.1.0"
