# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The JSON tree scanner's one pass over the text: every node into a few arrays, depth-first.

Why: ``json.loads`` makes a dict per node (~260 bytes) that the builders
read once and throw away (:mod:`.jsonscan`). :class:`Scan` reads the UTF-8
text once, with an explicit stack (depth is bounded by memory only), into
per-node arrays (subtree size, flags, leaf value, p): no Python
object per node, only per move label and eval. :mod:`.scan_order` numbers
the nodes breadth-first (its docstring has the API). On anything it is not
sure of it *bails*: ``why`` says why, ``pos`` and the open lists on the
stack say where; it never raises for bad input.

Cython's pure-Python mode (the C types are in scan_kernel.pxd): compiled by
setup.py (``COMPILED``), or the same source as plain Python, far slower.
Nothing here may depend on which one runs.
"""

from __future__ import annotations

import numpy as np

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

if not cython.compiled:  # compiled, scan_kernel.pxd cimports their C types: their methods are called as C
    from .scan_lexer import Lexer
    from .scan_share import ShareReader
from .scan_lexer import KEY_NAMES, MAX_NESTING
from .scan_share import DECIMAL

__all__ = ["Scan", "COMPILED", "NODE_FLAGS"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

#: per-node flags: the declared type (model.py's MAX/MIN/CHANCE, 0: none), then one bit each
NODE_FLAGS = {"type": 3, "inner": 4, "float": 8, "has_p": 16, "p": 32, "p_float": 64, "eval": 128, "move": 256,
              "value": 512}
_INNER = cython.declare(cython.ushort, NODE_FLAGS["inner"])
_FLOAT = cython.declare(cython.ushort, NODE_FLAGS["float"])
_HAS_P = cython.declare(cython.ushort, NODE_FLAGS["has_p"])
_P = cython.declare(cython.ushort, NODE_FLAGS["p"])
_P_FLOAT = cython.declare(cython.ushort, NODE_FLAGS["p_float"])
_EVAL = cython.declare(cython.ushort, NODE_FLAGS["eval"])
_MOVE = cython.declare(cython.ushort, NODE_FLAGS["move"])
_VALUE = cython.declare(cython.ushort, NODE_FLAGS["value"])
_SHARE_DECIMAL = cython.declare(cython.int, DECIMAL)  # what ShareReader.read gives for a decimal p
# key numbers (scan_lexer.KEY_NAMES) and sets of them, as bits
_K_TYPE = cython.declare(cython.int, KEY_NAMES.index("type"))
_K_CHILDREN = cython.declare(cython.int, KEY_NAMES.index("children"))
_K_VALUE = cython.declare(cython.int, KEY_NAMES.index("value"))
_K_MOVE = cython.declare(cython.int, KEY_NAMES.index("move"))
_K_P = cython.declare(cython.int, KEY_NAMES.index("p"))
_K_EVAL = cython.declare(cython.int, KEY_NAMES.index("eval"))
_K_ROOT = cython.declare(cython.int, KEY_NAMES.index("root"))
_K_ID = cython.declare(cython.int, KEY_NAMES.index("id"))
_NODE_ONLY = cython.declare(cython.uint, sum(1 << KEY_NAMES.index(key) for key in (
    "type", "children", "value", "move", "p", "eval", "label", "id")))
_TOP_ONLY = cython.declare(cython.uint, sum(1 << k for k in range(_K_ROOT + 1, _K_ID)))  # root is tested alone
_SPANS = cython.declare(cython.uint, sum(1 << KEY_NAMES.index(key) for key in (
    "title", "players", "sum", "bounds", "general_sum")))  # kept as JSON text for the header code
# frames of the stack, four int64 each: kind, keys seen, node, elements so far
_FRAME_OBJ = cython.declare(cython.longlong, 0)
_FRAME_TOP = cython.declare(cython.longlong, 1)
_FRAME_CHILDREN = cython.declare(cython.longlong, 2)
_FRAME_LIST = cython.declare(cython.longlong, 3)
# states of the scan; BAIL: why says why
_S_NODE = cython.declare(cython.int, 0)
_S_ELEMENT = cython.declare(cython.int, 1)
_S_VALUE_END = cython.declare(cython.int, 2)
_S_DONE = cython.declare(cython.int, 3)
_S_BAIL = cython.declare(cython.int, 4)
_NESTING = cython.declare(cython.Py_ssize_t, MAX_NESTING)
#: integer leaves stay below 2**62 (numeric.LIMIT): beyond, fast_build keeps Python ints
_LIMIT = cython.declare(cython.longlong, 1 << 62)
_INT32_MAX = cython.declare(cython.longlong, (1 << 31) - 1)


@cython.final
@cython.cclass
class Scan:
    """The per-node arrays (depth-first), the stack, and what is kept per node as Python objects;
    the text and the tokens are its lexer's."""

    def __init__(self, data: bytes, max_nodes: int, check: bool) -> None:
        self.lex = Lexer(data)
        self.check, self.any_p, self.any_int, self.any_float = check, False, False, False
        self.n = self.cap = self.top_object = self.root = self.depth = 0
        self.limit = min(max(max_nodes, 0), _INT32_MAX - 2)
        self.arrays, self.evals, self.moves, self.header, self.shares = {}, {}, {}, {}, ShareReader()
        self.stack = memoryview(np.zeros(256, dtype=np.int64))

    def fail(self, why: str):
        self.lex.why = why
        return 1

    def skip_ws(self):
        """Lexer.skip_ws, here again so that the C compiler inlines it (a call to another module cannot be)."""
        pos: cython.Py_ssize_t = self.lex.pos
        while pos < self.lex.length:
            c: cython.uchar = self.lex.s[pos]
            if c != 32 and c != 10 and c != 13 and c != 9:
                break
            pos += 1
        self.lex.pos = pos

    def at(self, c: cython.uchar):
        return self.lex.pos < self.lex.length and self.lex.s[self.lex.pos] == c

    # -- arrays --------------------------------------------------------------------------

    def grow(self):
        """Double the per-node arrays (never past max_nodes + 2); p's (scan_share) once some node has one. The
        first guess is a node per 16 bytes of text (files of big trees take 20 or more); every item
        is written before it is read (p's only where the flags say)."""
        if self.n == self.cap:
            self.cap = min(2 * self.cap if self.cap else max(1 << 16, self.lex.length // 16), self.limit + 2)
        for name, dtype in (("size", np.int32), ("flags", np.uint16), ("leaf", np.int64)):
            if len(self.arrays.get(name, ())) != self.cap:
                grown = np.empty(self.cap, dtype=dtype)
                if name in self.arrays:
                    grown[: self.n] = self.arrays[name][: self.n]
                self.arrays[name] = grown
        # through memoryviews: uncompiled, their items are Python ints and floats, as compiled
        self.size, self.flags = memoryview(self.arrays["size"]), memoryview(self.arrays["flags"])
        self.leaf, self.leaf_float = memoryview(self.arrays["leaf"]), memoryview(self.arrays["leaf"].view(np.float64))
        return self.shares.grow(self.cap, self.n) if self.any_p else 0

    def grow_stack(self):
        """Double the stack (on its own: where memoryviews are made, Cython clears them on every call)."""
        self.stack = memoryview(np.concatenate([self.stack, np.zeros(len(self.stack), np.int64)]))
        return 0

    def new_node(self):
        """A new node, numbered depth-first (-1: too many)."""
        if self.n - self.top_object >= self.limit:
            return -self.fail("more nodes than max_nodes")
        if self.n == self.cap:
            self.grow()
        d: cython.Py_ssize_t = self.n
        self.n += 1
        self.size[d], self.flags[d], self.leaf[d] = 1, 0, 0
        return d

    def push(self, kind: cython.longlong, d: cython.Py_ssize_t):
        if self.depth >= _NESTING:
            return self.fail("nested too deeply")
        at: cython.Py_ssize_t = 4 * self.depth
        if at == self.stack.shape[0]:
            self.grow_stack()
        self.stack[at], self.stack[at + 1], self.stack[at + 2], self.stack[at + 3] = kind, 0, d, 0
        self.depth += 1
        return 0

    # -- node keys -----------------------------------------------------------------------

    def read_value(self, d: cython.Py_ssize_t):
        """A leaf value (a bare number or "value"): int64 below 2**62, or a finite decimal."""
        if self.lex.read_number(True):
            return 1
        if self.lex.decimal:
            self.leaf_float[d] = self.lex.float_value
            self.flags[d] |= _FLOAT
        elif -_LIMIT < self.lex.int_value < _LIMIT:
            self.leaf[d] = self.lex.int_value
        else:
            return self.fail("an integer leaf beyond 2**62")
        self.flags[d] |= _VALUE
        return 0

    def count_leaf(self, d: cython.Py_ssize_t):
        """A leaf is complete: integer and decimal leaves may not mix (fast_build keeps Python numbers then)."""
        if self.check:  # nothing is built from the values
            return 0
        if self.flags[d] & _FLOAT:
            self.any_float = True
        else:
            self.any_int = True
        return self.fail("integer and decimal leaves mixed") if self.any_float and self.any_int else 0

    def read_eval(self, d: cython.Py_ssize_t):
        if self.at(110):
            return 0 if self.lex.literal() == 2 else self.fail("an eval that is not a number")
        if self.lex.read_number(True):
            return 1
        self.evals[d] = self.lex.float_value if self.lex.decimal else self.lex.int_value
        self.flags[d] |= _EVAL
        return 0

    def read_p(self, d: cython.Py_ssize_t):
        self.flags[d] |= _HAS_P
        if not self.any_p:
            self.any_p = True
            self.grow()
        if self.at(110):
            return 0 if self.lex.literal() == 2 else self.fail("a p that is not a number")
        share: cython.int = self.shares.read(self.lex, d)  # 0: a bail
        if not share:
            return 1
        self.flags[d] |= _P | (_P_FLOAT if share == _SHARE_DECIMAL else 0)
        return 0

    # -- the scan ------------------------------------------------------------------------

    def stop(self, why: str):
        self.lex.why = why
        return _S_BAIL

    def run(self) -> None:
        """Read the whole text; on a bail, ``why`` says why."""
        self.skip_ws()
        state: cython.int = _S_NODE
        if self.lex.pos >= self.lex.length:
            state = self.stop("no value")
        elif self.at(123):  # {: a header mapping or a bare node mapping, node 0 either way
            self.top_object = 1
            state = _S_BAIL if self.new_node() < 0 else self.open_mapping(_FRAME_TOP, 0)
        while state < _S_DONE:
            if state == _S_NODE:
                state = self.node()
            elif state == _S_ELEMENT:
                state = self.element()
            else:
                state = self.value_end()

    def node(self):
        """A tree node starts at pos: the next state."""
        c: cython.uchar = self.lex.s[self.lex.pos] if self.lex.pos < self.lex.length else 0
        if c != 123 and c != 91 and c != 45 and not 48 <= c <= 57:
            return self.stop("a node that is not a mapping, list or number")
        d: cython.Py_ssize_t = self.new_node()
        if d < 0:
            return _S_BAIL
        if c == 123:  # {
            return self.quick_leaf(d) or self.open_mapping(_FRAME_OBJ, d)
        if c == 91:  # [
            self.flags[d] |= _INNER
            if self.push(_FRAME_LIST, d):
                return _S_BAIL
            self.lex.pos += 1
            self.skip_ws()
            return self.stop("an empty list") if self.at(93) else _S_ELEMENT
        return _S_BAIL if self.read_value(d) or self.count_leaf(d) else _S_VALUE_END

    def quick_leaf(self, d: cython.Py_ssize_t):
        """Most leaves, ``{"value": N}``, read without a frame or the key reader: the next state; 0: a mapping."""
        pos: cython.Py_ssize_t = self.lex.pos
        if pos + 9 > self.lex.length or self.lex.s[pos + 2] != 118 or self.lex.s[pos + 1] != 34 or \
                self.lex.s[pos + 3] != 97 or self.lex.s[pos + 4] != 108 or self.lex.s[pos + 5] != 117 or \
                self.lex.s[pos + 6] != 101 or self.lex.s[pos + 7] != 34 or self.lex.s[pos + 8] != 58 or \
                self.depth >= _NESTING:  # not {"value": (or too deep: push bails)
            return _S_NODE
        self.lex.pos = pos + 9
        self.skip_ws()
        if not self.at(110) and not self.read_value(d) and self.at(125):
            self.lex.pos += 1
            return _S_BAIL if self.count_leaf(d) else _S_VALUE_END
        if not self.lex.why:  # null, or more keys: read as any mapping (else read_value bailed, as key() would)
            self.lex.pos, self.flags[d], self.leaf[d] = pos, 0, 0
        return _S_BAIL if self.lex.why else _S_NODE

    def open_mapping(self, kind: cython.longlong, d: cython.Py_ssize_t):
        """A mapping opens at pos: its first key."""
        if self.push(kind, d):
            return _S_BAIL
        self.lex.pos += 1
        self.skip_ws()
        return self.stop("an empty mapping") if self.at(125) else self.key()

    def element(self):
        """An element of the list on top of the stack starts at pos: count it, read the node."""
        at: cython.Py_ssize_t = 4 * self.depth - 1
        if self.stack[at] == _INT32_MAX:
            return self.stop("too many children")
        self.stack[at] += 1
        return self.node()

    def key(self):
        """A key of the mapping on top of the stack starts at pos: read it and its value."""
        top: cython.Py_ssize_t = 4 * (self.depth - 1)
        k: cython.int = self.lex.read_key()
        if k < 0:
            return _S_BAIL
        bit: cython.uint = 1 << k
        if self.stack[top + 1] & bit:
            return self.stop("a key given twice")
        self.stack[top + 1] |= bit
        if k >= _K_ROOT and k != _K_ID and self.stack[top] != _FRAME_TOP:
            return self.stop("an unknown key")
        d: cython.Py_ssize_t = self.stack[top + 2]
        self.skip_ws()
        if not self.at(58):  # :
            return self.stop("expected ':'")
        self.lex.pos += 1
        self.skip_ws()
        failed: cython.int = 0
        if k == _K_CHILDREN:
            if not self.at(91):
                return self.stop("children that is not a list")
            self.lex.pos += 1
            self.flags[d] |= _INNER
            if self.push(_FRAME_CHILDREN, d):
                return _S_BAIL
            self.skip_ws()
            return self.stop("an empty children list") if self.at(93) else _S_ELEMENT
        if k == _K_ROOT:
            self.root = self.n
            return _S_NODE
        if k == _K_TYPE:
            kind: cython.int = self.lex.read_type()
            failed = kind < 0
            self.flags[d] |= kind if kind > 0 else 0
        elif k == _K_VALUE:
            failed = (self.lex.literal() != 2 and self.fail("a value that is not a number")) if self.at(110) \
                else self.read_value(d)
        elif k == _K_MOVE:
            failed = self.lex.read_label(not self.check)
            if not failed and self.lex.label is not None:
                self.moves[d] = self.lex.label
                self.flags[d] |= _MOVE
        elif k == _K_P:
            failed = self.fail("p at the top") if self.stack[top] == _FRAME_TOP else self.read_p(d)
        elif k == _K_EVAL:
            failed = self.read_eval(d)
        elif k == _K_ID:
            failed = self.lex.read_id() if self.check else self.fail("an id")
        else:  # comment, label, description, $schema; the header's values are kept as text
            start: cython.Py_ssize_t = self.lex.pos
            failed = self.lex.skip_value(self.depth)
            if not failed and bit & _SPANS:
                self.header[KEY_NAMES[k]] = self.lex.data[start : self.lex.pos].decode("utf-8")
        return _S_BAIL if failed else _S_VALUE_END

    def value_end(self):
        """A value ended at pos: its container goes on (or closes, and then its own container...)."""
        while True:
            self.skip_ws()
            if self.depth == 0:
                return _S_DONE if self.lex.pos == self.lex.length else self.stop("extra data after the tree")
            top: cython.Py_ssize_t = 4 * (self.depth - 1)
            frame: cython.longlong = self.stack[top]
            c: cython.uchar = self.lex.s[self.lex.pos] if self.lex.pos < self.lex.length else 0
            if frame == _FRAME_OBJ or frame == _FRAME_TOP:
                if c == 44:  # ,
                    self.lex.pos += 1
                    self.skip_ws()
                    return self.key()
                if c != 125:  # }
                    return self.stop("expected ',' or '}'")
                self.lex.pos += 1
                if self.close_top() if frame == _FRAME_TOP else self.close_node(self.stack[top + 2]):
                    return _S_BAIL
            elif c == 44:
                self.lex.pos += 1
                self.skip_ws()
                return self.element()
            elif c != 93:  # ]
                return self.stop("expected ',' or ']'")
            else:
                self.lex.pos += 1
                if frame == _FRAME_LIST:  # (a node's children are counted from the sizes: scan_order)
                    d: cython.Py_ssize_t = self.stack[top + 2]
                    self.size[d] = self.n - d
            self.depth -= 1

    def close_node(self, d: cython.Py_ssize_t):
        """A node mapping ends: a leaf or an inner node, as fast_build decides."""
        if self.flags[d] & _INNER:
            if self.flags[d] & _VALUE:
                return self.fail("a node with children and a value")
        elif not self.flags[d] & _VALUE:
            return self.fail("a leaf without a value")
        elif self.count_leaf(d):
            return 1
        self.size[d] = self.n - d
        return 0

    def close_top(self):
        """The top-level mapping ends: a header with root, or a bare root node."""
        seen: cython.uint = self.stack[1]
        if seen & (1 << _K_ROOT):
            return self.fail("node keys beside root") if seen & _NODE_ONLY else 0
        if seen & _TOP_ONLY:
            return self.fail("header keys in a bare root node")
        if not seen & ((1 << _K_CHILDREN) | (1 << _K_VALUE)):
            return self.fail("no root")
        if self.n > self.limit:
            return self.fail("more nodes than max_nodes")
        self.root = 0
        return self.close_node(self.stack[2])

    def facts(self) -> dict:
        """The arrays and records; after a bail, why and where (path: the element open in each list)."""
        path = [int(self.stack[4 * i + 3] - 1) for i in range(self.depth)
                if self.stack[4 * i] >= _FRAME_CHILDREN and self.stack[4 * i + 3] > 0]
        return dict(self.arrays, **self.shares.arrays, why=self.lex.why, pos=self.lex.pos, path=tuple(path), n=self.n, root=self.root,
                    any_float=self.any_float, any_p=self.any_p, evals=self.evals, moves=self.moves,
                    header=self.header)
