"""A WebAssembly module's binary layout, read far enough to find a function by name and replace its body.

Only what the local engine's kernel splice needs (buildsys/engine/local_kernels.py): the section list,
function types, imports, exports, the code section's bodies and the `name` section's function names. Bodies
are kept as opaque bytes; a module is written back with every other section byte for byte as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAGIC = b"\0asm\x01\0\0\0"
CUSTOM, TYPE, IMPORT, FUNCTION, TABLE, MEMORY, GLOBAL, EXPORT, START, ELEMENT, CODE = range(11)
FUNC_KIND = 0


class WasmError(ValueError):
    """The bytes are not a module this reader understands."""


@dataclass(frozen=True)
class FuncType:
    params: bytes  # one value-type byte each
    results: bytes


@dataclass
class Module:
    """A parsed module: sections as (id, payload) in file order, and the indices derived from them."""

    sections: list[tuple[int, bytes]]
    types: list[FuncType] = field(default_factory=list)
    imported_functions: int = 0
    imports: list[tuple[str, str, int]] = field(default_factory=list)  # module, name, kind
    function_types: list[int] = field(default_factory=list)  # defined functions' type indices
    exports: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (kind, index)
    bodies: list[bytes] = field(default_factory=list)  # defined functions, each locals + code
    names: dict[int, str] = field(default_factory=dict)  # function index -> name
    custom: list[str] = field(default_factory=list)  # custom sections' names, in file order

    def function_index(self, name: str) -> int:
        """The index of a function found by its export or, failing that, by the `name` section."""
        exported = self.exports.get(name)
        if exported is not None and exported[0] == FUNC_KIND:
            return exported[1]
        matches = [index for index, found in self.names.items() if found == name]
        if len(matches) != 1:
            raise WasmError(f"function {name!r} found {len(matches)} times")
        return matches[0]

    def defined(self, index: int) -> int:
        """The position in the code section of function `index` (imports come first in the index space)."""
        position = index - self.imported_functions
        if not 0 <= position < len(self.bodies):
            raise WasmError(f"function {index} is not defined in this module")
        return position

    def type_of(self, index: int) -> FuncType:
        return self.types[self.function_types[self.defined(index)]]

    def body_of(self, index: int) -> bytes:
        return self.bodies[self.defined(index)]


class _Reader:
    def __init__(self, data: bytes, pos: int = 0, end: int | None = None) -> None:
        self.data, self.pos, self.end = data, pos, len(data) if end is None else end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise WasmError("unexpected end of data")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def uleb(self) -> int:
        result = shift = 0
        while True:
            byte = self.byte()
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7
            if shift > 63:
                raise WasmError("LEB128 number too long")

    def take(self, size: int) -> bytes:
        if size < 0 or self.pos + size > self.end:
            raise WasmError("a length runs past the end of its section")
        chunk = self.data[self.pos : self.pos + size]
        self.pos += size
        return chunk

    def name(self) -> str:
        try:
            return self.take(self.uleb()).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WasmError("a name is not UTF-8") from exc

    def limits(self) -> None:
        flags = self.byte()
        self.uleb()
        if flags & 1:
            self.uleb()


def encode_uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def parse(data: bytes) -> Module:
    if not data.startswith(MAGIC):
        raise WasmError("not a WebAssembly module (version 1)")
    reader = _Reader(data, len(MAGIC))
    module = Module(sections=[])
    while reader.pos < reader.end:
        section_id = reader.byte()
        payload = reader.take(reader.uleb())
        module.sections.append((section_id, payload))
        _read_section(module, section_id, payload)
    if len(module.bodies) != len(module.function_types):
        raise WasmError("the function and code sections disagree on the number of functions")
    return module


def _read_section(module: Module, section_id: int, payload: bytes) -> None:
    reader = _Reader(payload)
    if section_id == TYPE:
        module.types = [_func_type(reader) for _ in range(reader.uleb())]
    elif section_id == IMPORT:
        for _ in range(reader.uleb()):
            module.imports.append((reader.name(), reader.name(), _import_desc(reader, module)))
    elif section_id == FUNCTION:
        module.function_types = [reader.uleb() for _ in range(reader.uleb())]
    elif section_id == EXPORT:
        for _ in range(reader.uleb()):
            name = reader.name()
            module.exports[name] = (reader.byte(), reader.uleb())
    elif section_id == CODE:
        module.bodies = [reader.take(reader.uleb()) for _ in range(reader.uleb())]
    elif section_id == CUSTOM:
        name = reader.name()
        module.custom.append(name)
        if name == "name":
            module.names.update(_function_names(reader))
        elif name == "linking":
            module.names.update(_function_symbols(reader))


def _func_type(reader: _Reader) -> FuncType:
    form = reader.byte()
    if form != 0x60:
        raise WasmError(f"type form 0x{form:02x} is not a plain function type")
    params = reader.take(reader.uleb())
    return FuncType(params, reader.take(reader.uleb()))


def _import_desc(reader: _Reader, module: Module) -> int:
    kind = reader.byte()
    if kind == FUNC_KIND:
        reader.uleb()
        module.imported_functions += 1
    elif kind == 1:  # table: element type, limits
        reader.byte()
        reader.limits()
    elif kind == 2:  # memory
        reader.limits()
    elif kind == 3:  # global: value type, mutability
        reader.byte()
        reader.byte()
    elif kind == 4:  # tag: attribute, type
        reader.byte()
        reader.uleb()
    else:
        raise WasmError(f"unknown import kind {kind}")
    return kind


def _function_names(reader: _Reader) -> dict[int, str]:
    names: dict[int, str] = {}
    while reader.pos < reader.end:
        sub_id, size = reader.byte(), reader.uleb()
        sub = _Reader(reader.take(size))
        if sub_id == 1:
            for _ in range(sub.uleb()):
                index = sub.uleb()
                names[index] = sub.name()
    return names


def _function_symbols(reader: _Reader) -> dict[int, str]:
    """Defined functions' names from an object file's symbol table (the `linking` section, version 2)."""
    if reader.uleb() != 2:
        raise WasmError("unknown linking section version")
    names: dict[int, str] = {}
    while reader.pos < reader.end:
        sub_id, size = reader.byte(), reader.uleb()
        sub = _Reader(reader.take(size))
        if sub_id != 8:  # WASM_SYMBOL_TABLE
            continue
        for _ in range(sub.uleb()):
            kind, flags = sub.byte(), sub.uleb()
            if kind != FUNC_KIND:
                raise WasmError(f"symbol kind {kind}: a kernel object should define functions only")
            if flags & 0x10:  # WASM_SYM_UNDEFINED: the object calls a function it does not define
                raise WasmError("a kernel object must not call out")
            index = sub.uleb()
            names[index] = sub.name()
    return names


def with_bodies(module: Module, replacements: dict[int, bytes]) -> bytes:
    """The module's bytes with the bodies of the given functions (by index) replaced."""
    bodies = list(module.bodies)
    for index, body in replacements.items():
        bodies[module.defined(index)] = body
    code = encode_uleb(len(bodies)) + b"".join(encode_uleb(len(body)) + body for body in bodies)
    out = bytearray(MAGIC)
    for section_id, payload in module.sections:
        payload = code if section_id == CODE else payload
        out += bytes([section_id]) + encode_uleb(len(payload)) + payload
    return bytes(out)
