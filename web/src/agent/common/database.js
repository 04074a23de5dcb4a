// The agent's IndexedDB database, by name and schema version: the agent worker opens it
// (agent/worker/idb.js); the page only looks into it (agent/page/workspace-peek.js), so both read these here.

export const DB_NAME = "agentlite";
// Bump SCHEMA_VERSION whenever idb.js's STORES changes (new stores are created in onupgradeneeded; tabs
// still on the old version are told to close through onVersionChange).
export const SCHEMA_VERSION = 1;
