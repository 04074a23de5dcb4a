// How an attachment shows (docs/attachments.md): a chip (`attachment`, data-kind, data-name) with a
// thumbnail for an image, in the composer (with Remove and Save to workspace) and in the sent message
// (a click opens the original from the page's store, else the image that was sent). Only the raster
// types the agent accepts, with base64 data, ever become an <img> source (tool-images.js); a name is
// always text, never markup.
import { original } from "../attachments/attachment-store.js";
import { measureImage } from "../attachments/image-prep.js";
import { button, el } from "./dom.js";
import { shownImages } from "../attachments/tool-images.js";

/** The chip of one attachment. @param {any} item @param {{onRemove?: () => void, onSave?: () => void}} [hooks] */
export function attachmentChip(item, hooks = {}) {
  const chip = el("div", `attachment ${item.kind}`, null, { testid: "attachment" });
  chip.dataset.kind = item.kind;
  chip.dataset.name = item.name;
  chip.dataset.state = item.state || "ready";
  const [image] = item.kind === "image" ? shownImages([item]) : [];
  const thumb = image
    ? el("img", "attachment-thumb", null, { alt: `Image ${item.name}`, src: `data:${image.mime};base64,${image.data}` })
    : el("span", "attachment-icon", item.kind === "pdf" ? "PDF" : "…", { "aria-hidden": "true" });
  const name = el("span", "attachment-name", item.name);
  chip.append(thumb, name);
  if (item.state === "preparing") chip.append(el("span", "attachment-note", "preparing…"));
  if (item.message) chip.append(el("span", "attachment-note attachment-error", item.message, { role: "alert" }));
  if (item.dropped) chip.append(el("span", "attachment-note", "not sent: the model does not take images"));
  if (hooks.onSave && item.id && item.state === "ready")
    chip.append(labelled(button("Save", "attachment-save", hooks.onSave), `Save ${item.name} to the workspace`));
  if (hooks.onRemove) chip.append(labelled(button("×", "attachment-remove", hooks.onRemove), `Remove ${item.name}`));
  if (!hooks.onRemove && image) {
    thumb.tabIndex = 0;
    thumb.setAttribute("role", "button");
    thumb.title = "Open the original";
    const openIt = () => openOriginal(item, image);
    thumb.addEventListener("click", openIt);
    thumb.addEventListener("keydown", (event) => (event.key === "Enter" || event.key === " ") && openIt());
  }
  return chip;
}

/** @template {HTMLElement} T @param {T} node @param {string} label */
function labelled(node, label) {
  node.setAttribute("aria-label", label);
  node.title = label;
  return node;
}

/** The attachments of a sent message, as a row of chips (nothing when there are none). */
/** @param {unknown} items */
export function sentAttachments(items) {
  const list = Array.isArray(items) ? items.filter((item) => item && ["image", "pdf"].includes(item.kind)) : [];
  if (!list.length) return null;
  const row = el("div", "attachments");
  row.append(...list.map((item) => attachmentChip({ ...item, name: String(item.name || "attachment") })));
  return row;
}

/** A dialog with the original image (its type checked when it was kept, its header measured again here:
 * pixels before bytes), or the image that was sent. */
/** @param {any} item @param {{mime: string, data: string}} sent */
async function openOriginal(item, sent) {
  const kept = await original(item.id);
  const blob = kept && (await measureImage(kept)).ok ? kept : null;
  const url = blob ? URL.createObjectURL(blob) : `data:${sent.mime};base64,${sent.data}`;
  const dialog = el("dialog", "attachment-view", null, { testid: "attachment-view", "aria-label": item.name });
  const picture = el("img", "", null, { alt: `${item.name}${blob ? "" : " (as sent)"}`, src: url });
  dialog.append(
    picture,
    button("Close", "attachment-view-close", () => dialog.close()),
  );
  dialog.addEventListener("close", () => {
    if (blob) URL.revokeObjectURL(url);
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
}
