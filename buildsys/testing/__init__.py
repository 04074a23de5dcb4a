"""`python build.py test` and `check` (`gate`), and what the tests run against: the model servers, the MCP
conformance suite, real projects' suites, the inputs they share and the readers of the source's shape."""
