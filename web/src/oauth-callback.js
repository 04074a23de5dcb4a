// The script of oauth-callback.html, where the authorization server sends the sign-in popup back: it
// hands the code and state (or the error) to the page that opened it, then closes. Over the same-origin
// BroadcastChannel, and over window.opener.postMessage aimed at our own origin only (never "*"), so no
// other site can read the answer; the page takes only the state it is waiting for (mcp-signin.js).
import { CHANNEL, readCallback } from "./mcp-signin.js";

const answer = readCallback(location.search);
const channel = new BroadcastChannel(CHANNEL);
channel.postMessage(answer);
channel.close();
try {
  window.opener?.postMessage(answer, location.origin);
} catch {
  // an opener of another origin, or none: the channel carried the answer
}
history.replaceState(null, "", location.pathname); // the code leaves the address bar and history
const note = document.getElementById("note");
if (note) note.textContent = answer.error ? "Sign-in refused. You can close this window." : "Signed in.";
window.close();
