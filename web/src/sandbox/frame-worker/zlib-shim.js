// just-bash imports node:zlib for gzip/gunzip/zcat; the browser has no synchronous zlib, so those
// commands report that they are unavailable instead of failing to load the whole shell.
const unavailable = (/** @type {string} */ name) => () => {
  throw new Error(`${name} is not available in the sandbox`);
};

export const constants = {};
export const gzipSync = unavailable("gzip");
export const gunzipSync = unavailable("gunzip");
