# The C types of scan_kernel.py (Cython's "augmenting .pxd"); the behaviour is all in scan_kernel.py.
# Methods return 0 (read) or 1 (bail: the lexer's why says why), the state ones the next state;
# the except value means a Python exception (MemoryError).

cimport cython

from gametree_cli.io.scan_lexer cimport Lexer
from gametree_cli.io.scan_share cimport ShareReader


@cython.final
cdef class Scan:
    cdef Lexer lex
    cdef bint check  # checking, not building: ids are read, leaves may mix, moves are not kept
    cdef bint any_p  # some node has the key p (only then can numbering the nodes bail)
    cdef bint any_int
    cdef bint any_float
    cdef Py_ssize_t n  # nodes so far
    cdef Py_ssize_t cap
    cdef Py_ssize_t limit
    cdef Py_ssize_t top_object  # 1 when the text is a mapping (node 0 may be a header, not a node)
    cdef Py_ssize_t root
    cdef dict arrays  # the NumPy arrays behind the views below
    cdef int[::1] size  # nodes in the subtree
    cdef unsigned short[::1] flags
    cdef long long[::1] leaf  # an int64, or a double's bits (flag float)
    cdef double[::1] leaf_float  # the same memory
    cdef ShareReader shares  # each p as num / den (flag p_float: written as a decimal), once some node has one
    cdef long long[::1] stack
    cdef Py_ssize_t depth
    cdef dict evals  # depth-first node -> int | float
    cdef dict moves  # depth-first node -> str
    cdef dict header  # top-level key -> JSON text of its value

    cdef int fail(self, str why) except -1
    cdef inline void skip_ws(self) noexcept
    cdef inline bint at(self, unsigned char c) noexcept
    cdef int grow(self) except -1
    cdef int grow_stack(self) except -1
    cdef Py_ssize_t new_node(self) except -2
    cdef int push(self, long long kind, Py_ssize_t d) except -1
    cdef int read_value(self, Py_ssize_t d) except -1
    cdef int count_leaf(self, Py_ssize_t d) except -1
    cdef int read_eval(self, Py_ssize_t d) except -1
    cdef int read_p(self, Py_ssize_t d) except -1
    cdef int stop(self, str why) except -1
    cdef int node(self) except -1
    cdef int quick_leaf(self, Py_ssize_t d) except -1  # a state, as node()
    cdef int open_mapping(self, long long kind, Py_ssize_t d) except -1
    cdef int element(self) except -1
    cdef int key(self) except -1
    cdef int value_end(self) except -1
    cdef int close_node(self, Py_ssize_t d) except -1
    cdef int close_top(self) except -1
