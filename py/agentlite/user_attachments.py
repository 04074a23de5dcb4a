"""Images and PDFs the user attached to a message (docs/attachments.md), checked once here.

The page sends each attachment already prepared: an image downscaled and re-encoded (its original stays
in the page's attachment store, named by `id`), a PDF as its text with page numbers. Here every one is
checked again, because a chat may come from storage or an imported file: an image by the rules of
`tools.images` (PNG, JPEG, GIF or WebP, the bytes must match the type, the header's pixels and frames
within bounds, at most `MAX_IMAGE_BYTES`), at most `MAX_IMAGES` images and `MAX_MESSAGE_BYTES` in all
per message. What fails is left out with a line saying why (`notes`), never an error. An image the
server refused ("Retry without images") is kept for the page but marked `dropped`: the model is told it
was there, not sent it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from agentlite.tools.images import accept, decoded_size

MAX_IMAGES = 8  # images per message
MAX_MESSAGE_BYTES = 20 * 1024 * 1024  # decoded image bytes and PDF text of one message
MAX_PDF_CHARS = 400_000  # one PDF's text as the model gets it
NAME_CHARS = 200
KINDS = ("image", "pdf")


@dataclass(frozen=True)
class Checked:
    """The attachments kept, as stored (`Message.attachments`), and a line for each one left out."""

    kept: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def clean_name(value: object) -> str:
    """A file name fit to show and to put in a prompt: no control characters, bounded."""
    text = "".join(c for c in str(value or "") if unicodedata.category(c)[0] != "C")
    return text.strip()[:NAME_CHARS] or "attachment"


def check(value: object) -> Checked:
    """The attachments of `value` (a list of the page's or a stored chat's dicts) that pass the checks."""
    result = Checked()
    images = total = 0
    for item in value if isinstance(value, list) else []:
        found = _one(item)
        if isinstance(found, str):
            result.notes.append(found)
            continue
        size = _size(found)
        name = found["name"]
        if found["kind"] == "image" and images >= MAX_IMAGES:
            result.notes.append(f"{name} was left out: at most {MAX_IMAGES} images per message")
        elif total + size > MAX_MESSAGE_BYTES:
            result.notes.append(f"{name} was left out: one message may carry at most 20 MB of attachments")
        else:
            result.kept.append(found)
            images += found["kind"] == "image"
            total += size
    return result


def _one(item: object) -> dict[str, Any] | str:
    if not isinstance(item, dict) or item.get("kind") not in KINDS:
        return "an attachment of an unknown kind was left out"
    name = clean_name(item.get("name"))
    kept: dict[str, Any] = {"kind": item["kind"], "name": name}
    if isinstance(item.get("id"), str) and item["id"]:
        kept["id"] = item["id"][:100]
    if item["kind"] == "pdf":
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            return f"{name} was left out: no text could be read from it"
        kept["text"] = text[:MAX_PDF_CHARS]
        return kept
    checked = accept(item.get("mime"), item.get("data"))
    if isinstance(checked, str):
        return f"{name}: {checked}"
    kept.update(checked.to_dict())
    for key in ("width", "height", "bytes"):
        number = item.get(key)
        if isinstance(number, int) and not isinstance(number, bool) and 0 < number < 10**10:
            kept[key] = number
    if item.get("dropped") is True:
        kept["dropped"] = True
    return kept


def _size(item: dict[str, Any]) -> int:
    return len(item["text"]) if item["kind"] == "pdf" else decoded_size(item["data"])


def prompt_text(text: str, attachments: list[dict[str, Any]]) -> str:
    """The message's text with what the model reads of its attachments: each PDF's text, and a line for
    each image that is not sent (the server refused images)."""
    parts = [text] if text else []
    for item in attachments:
        if item["kind"] == "pdf":
            parts.append(item["text"])  # the page wrote its header: name, pages (pdf-text.js)
        elif item.get("dropped"):
            parts.append(
                f"[an image, {item['name']}, was attached but not sent: this model does not take images]"
            )
    return "\n\n".join(parts)


def sent_images(attachments: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The images that go with the message (`{mime, data, name}`), in the order they were attached."""
    return [
        {"mime": a["mime"], "data": a["data"], "name": a["name"]}
        for a in attachments
        if a["kind"] == "image" and not a.get("dropped")
    ]


def drop_images(attachments: list[dict[str, Any]]) -> bool:
    """Mark every image as not sent; True when one was still sent."""
    changed = False
    for item in attachments:
        if item["kind"] == "image" and not item.get("dropped"):
            item["dropped"] = changed = True
    return changed


def view(attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the page shows of a message's attachments: names, kinds, the sent image (its thumbnail)."""
    return [{k: v for k, v in item.items() if k != "text"} for item in attachments]
