"""The git objects of a replayed workspace history, made with dulwich (docs/git.md).

`GitTrees` keeps the files of one moment (path -> blob id) and writes only the trees a change touched;
a folder left empty disappears from the tree, as git has no empty folders. `pack` writes the objects
into one pack with its index (v2), as a clone stores them.
"""

from __future__ import annotations

import io

from dulwich.object_format import DEFAULT_OBJECT_FORMAT
from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tree
from dulwich.pack import write_pack_index, write_pack_objects

FILE_MODE = 0o100644
DIR_MODE = 0o040000
EMAIL_DOMAIN = "agentlite.invalid"


class GitTrees:
    """The trees of the current files, rewritten where a change touched them."""

    def __init__(self) -> None:
        self.folders: dict[str, dict[bytes, tuple[int, ObjectID]]] = {"": {}}
        self.dirty: set[str] = {""}
        self.objects: dict[ObjectID, ShaFile] = {}

    def keep(self, obj: ShaFile) -> ObjectID:
        """Adds an object to the ones to pack; its id."""
        self.objects.setdefault(obj.id, obj)
        return obj.id

    def put(self, path: str, blob_id: ObjectID) -> None:
        folder, name = _split(path)
        self._touch(folder)
        self.folders.setdefault(folder, {})[name] = (FILE_MODE, blob_id)

    def remove(self, path: str) -> None:
        folder, name = _split(path)
        if name in self.folders.get(folder, {}):
            self._touch(folder)
            del self.folders[folder][name]

    def _touch(self, folder: str) -> None:
        while folder not in self.dirty:
            self.dirty.add(folder)
            if not folder:
                return
            folder = folder.rpartition("/")[0]

    def root(self) -> ObjectID:
        """Writes the changed trees (deepest first) and returns the root tree's id."""
        for folder in sorted(self.dirty, key=lambda f: f.count("/") if f else -1, reverse=True):
            entries = self.folders.get(folder, {})
            if not folder:
                continue
            parent, name = _split(folder)
            if entries:
                self.folders.setdefault(parent, {})[name] = (DIR_MODE, self.keep(_tree(entries)))
            else:
                self.folders.pop(folder, None)
                self.folders.get(parent, {}).pop(name, None)
        self.dirty = set()
        return self.keep(_tree(self.folders[""]))


def _split(path: str) -> tuple[str, bytes]:
    folder, _, name = path.rpartition("/")
    return folder, name.encode("utf-8")


def _tree(entries: dict[bytes, tuple[int, ObjectID]]) -> Tree:
    tree = Tree()
    for name, (mode, sha) in entries.items():
        tree.add(name, mode, sha)
    return tree


def blob(data: bytes) -> Blob:
    return Blob.from_string(data)


def commit(tree: ObjectID, parent: ObjectID | None, author: str, time: int, message: str) -> Commit:
    """A commit by `author` (agent, user, disk ...) at `time` (UTC seconds)."""
    name = "".join(c for c in author if c not in "<>\n") or "user"
    ident = f"{name} <{name.replace(' ', '-')}@{EMAIL_DOMAIN}>".encode()
    made = Commit()
    made.tree = tree
    made.parents = [parent] if parent else []
    made.author = made.committer = ident
    made.author_time = made.commit_time = time
    made.author_timezone = made.commit_timezone = 0
    made.encoding = None
    made.message = message.encode("utf-8")
    return made


def pack(objects: list[ShaFile]) -> tuple[str, bytes, bytes]:
    """(pack name, pack bytes, index bytes) of `objects`, undeltified (blobs are zlib-compressed)."""
    data = io.BytesIO()
    entries, checksum = write_pack_objects(
        data, [(obj, None) for obj in objects], DEFAULT_OBJECT_FORMAT, deltify=False, compression_level=1
    )
    index = io.BytesIO()
    rows = sorted((sha, offset, crc) for sha, (offset, crc) in entries.items())
    write_pack_index(index, rows, checksum, version=2)
    return f"pack-{checksum.hex()}", data.getvalue(), index.getvalue()
