"""Problems after every change: the page's checkers seen from the agent (docs/problems.md)."""
