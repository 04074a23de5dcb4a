// The script of oauth-callback.html, where the authorization server sends the sign-in popup back: it
// hands the code and state (or the error) to the page over the same-origin BroadcastChannel, the only
// way: the popup was opened without an opener (mcp-signin.js), and no other site can read the channel.
// The page takes only the state it is waiting for; then the code leaves the address bar and the popup
// closes.
import { CHANNEL, readCallback } from "./mcp-signin.js";

const answer = readCallback(location.search);
const channel = new BroadcastChannel(CHANNEL);
channel.postMessage(answer);
channel.close();
history.replaceState(null, "", location.pathname); // the code leaves the address bar and history
const note = document.getElementById("note");
if (note) note.textContent = answer.error ? "Sign-in refused. You can close this window." : "Signed in.";
window.close();
