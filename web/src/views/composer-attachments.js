// Images and PDFs attached in the composer (docs/attachments.md): picked with the Attach button
// (`chat-attach`), pasted or dropped onto the composer. Each becomes a chip (`attachment`) while it is
// prepared: an image is checked by its first bytes, its header's pixels and frames measured (a refused one
// is neither decoded nor kept), and downscaled off the page's thread, a PDF is read
// as text with page numbers (pdf/pdf-text.js, loaded when first needed); the original is kept in the
// page's attachment store. The chat view asks `take()` for what goes with the message. When the model
// takes no images, sending waits for the user's "Send without images" (never a silent drop).
import { keepOriginal } from "../attachments/attachment-store.js";
import { measureImage, prepareImage } from "../attachments/image-prep.js";
import { MAX_FILE_BYTES, cleanName, refusal, sniffImage, sniffKind } from "../attachments/image-rules.js";
import { button, el } from "./dom.js";
import { attachmentChip } from "./attachment-chips.js";
import { loadPdfReader } from "../pdf/pdf-loader.js";

/** One attachment in the tray: preparing, ready (with its prepared image or PDF text) or failed.
 * @typedef {{key: string, kind: string, name: string, state: string, sentBytes: number, bytes: number,
 *   id?: string, message?: string, text?: string, pages?: number, mime?: string, data?: string,
 *   width?: number, height?: number}} TrayItem */

const ACCEPT = "image/png,image/jpeg,image/gif,image/webp,application/pdf,.pdf";

/**
 * @param {HTMLFormElement} form the composer
 * @param {{takesImages: () => Promise<boolean>, send: () => void, saveToWorkspace: (name: string, id: string) => Promise<string>}} actions
 */
export function createAttachmentTray(form, actions) {
  const picker = el("input", "visually-hidden", null, { type: "file", testid: "chat-attach", multiple: "" });
  picker.accept = ACCEPT;
  const label = el("label", "attach-button", "Attach", {
    title: "Attach images or PDFs (or paste, or drop them here)",
  });
  label.append(picker);
  const tray = el("div", "attachment-tray", null, {
    testid: "attachment-tray",
    role: "group",
    "aria-label": "Attachments",
  });
  const notice = el("div", "attach-notice", null, { testid: "attach-notice", role: "status", "aria-live": "polite" });
  form.querySelector(".composer-actions")?.prepend(label);
  form.insertBefore(tray, form.firstChild);
  form.insertBefore(notice, tray.nextSibling);
  /** @type {TrayItem[]} */
  let items = [];
  let vision = true;
  let withoutImages = false; // the user chose "Send without images" for this message

  /** @param {string} text @param {...HTMLElement} buttons */
  function say(text, ...buttons) {
    notice.replaceChildren(...(text ? [el("span", "", text), ...buttons] : []));
  }

  /** @param {File} file */
  async function add(file) {
    if (file.size > MAX_FILE_BYTES) return say(`${cleanName(file.name)} was not attached: it is over 50 MB.`);
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    const kind = sniffKind(head);
    const name = cleanName(file.name || (kind === "pdf" ? "pasted.pdf" : "pasted image"));
    if (!kind) return say(`${name} was not attached: only PNG, JPEG, GIF, WebP images and PDFs are.`);
    const size = kind === "image" ? await measureImage(file) : null; // pixels before bytes: never decoded, never kept
    if (size && !size.ok) return say(`${name} was not attached: ${size.reason}.`);
    /** @type {TrayItem} */
    const item = { key: crypto.randomUUID(), kind, name, state: "preparing", sentBytes: 0, bytes: file.size };
    items.push(item);
    show();
    try {
      const [prepared, id] = await Promise.all([
        prepare(item, file),
        keepOriginal(file, sniffImage(head) || "application/pdf"),
      ]);
      const why = refusal(
        items.filter((other) => other !== item && other.state === "ready"),
        { ...item, ...prepared },
      );
      if (why) return remove(item, why);
      Object.assign(item, prepared, { id, state: "ready" });
    } catch (err) {
      Object.assign(item, { state: "error", message: String(/** @type {Error | undefined} */ (err)?.message || err) });
    }
    if (items.includes(item)) show();
    if (kind === "image") checkVision();
  }

  /** @param {TrayItem} item @param {File} file */
  async function prepare(item, file) {
    if (item.kind === "image") return prepareImage(file);
    const { readPdf, pdfAsPromptText } = await loadPdfReader();
    const doc = await readPdf(new Uint8Array(await file.arrayBuffer())).catch((/** @type {Error} */ err) => {
      throw new Error(`This PDF could not be read, so it will not be sent: ${err.message}`);
    });
    const text = pdfAsPromptText(item.name, doc);
    return { text, pages: doc.pages.length, sentBytes: text.length };
  }

  async function checkVision() {
    vision = await actions.takesImages().catch(() => true);
    if (!vision && images().length) warnNoVision();
  }

  function warnNoVision() {
    say(
      "This model does not take images (Settings: vision). Its images will not be sent: send without them, or remove them.",
      button("Send without images", "attach-without-images", () => {
        withoutImages = true;
        actions.send();
      }),
    );
  }

  const images = () => items.filter((item) => item.kind === "image" && item.state === "ready");

  /** @param {TrayItem} item @param {string} [why] */
  function remove(item, why = "") {
    items = items.filter((other) => other !== item);
    show();
    say(why);
  }

  function show() {
    tray.replaceChildren(
      ...items.map((item) =>
        attachmentChip(item, {
          onRemove: () => remove(item),
          onSave: () => save(item),
        }),
      ),
    );
    tray.hidden = !items.length;
  }

  /** @param {TrayItem} item */
  async function save(item) {
    try {
      say(`Saved as ${await actions.saveToWorkspace(item.name, /** @type {string} */ (item.id))}.`);
    } catch (err) {
      say(`Could not save ${item.name}: ${/** @type {Error} */ (err).message}`);
    }
  }

  /** Whether the message may go now; when not, the notice says why. */
  function ready() {
    if (items.some((item) => item.state === "preparing")) {
      say("Wait a moment: an attachment is still being prepared.");
      return false;
    }
    if (!vision && !withoutImages && images().length) {
      warnNoVision();
      return false;
    }
    return true;
  }

  /** What goes with the message (the chat view sends it and shows it); the tray empties. */
  function take() {
    const dropped = !vision && withoutImages;
    const sent = items.filter((item) => item.state === "ready").map((item) => wireForm(item, dropped));
    items = [];
    withoutImages = false;
    show();
    say("");
    return sent;
  }

  /** @param {File[]} files */
  function addAll(files) {
    for (const file of files) add(file);
  }

  picker.addEventListener("change", () => {
    addAll([...(picker.files || [])]);
    picker.value = "";
  });
  form.addEventListener("paste", (event) => {
    const files = [...(event.clipboardData?.files || [])];
    if (!files.length) return;
    if (!(/** @type {DataTransfer} */ (event.clipboardData).types.includes("text/plain"))) event.preventDefault();
    addAll(files);
  });
  form.addEventListener("dragover", (event) => {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  form.addEventListener("drop", (event) => {
    const files = [...(event.dataTransfer?.files || [])];
    if (!files.length) return;
    event.preventDefault();
    event.stopPropagation();
    addAll(files);
  });
  show();
  return { take, ready, has: () => items.some((item) => item.state === "ready"), visionChanged: () => checkVision() };
}

/** What the worker gets of an attachment: a PDF's text, or an image's prepared data.
 * @param {TrayItem} item @param {boolean} dropped */
function wireForm(item, dropped) {
  const { kind, name, id } = item;
  if (kind === "pdf") return { kind, name, id, text: item.text, pages: item.pages };
  const { mime, data, width, height, bytes } = item;
  return { kind, name, id, mime, data, width, height, bytes, ...(dropped && { dropped: true }) };
}
