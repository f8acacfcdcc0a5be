# The C types of scan_share.py (Cython's "augmenting .pxd"): scan_kernel.py cimports ShareReader
# and calls read as a C method. The behaviour is all in scan_share.py.
# read returns EXACT (1), DECIMAL (2), or BAIL (0: the lexer's why says why); -1 means a Python
# exception (MemoryError).

cimport cython

from gametree_cli.io.scan_lexer cimport Lexer

cdef int _BAIL, _EXACT, _DECIMAL, _FRACTION_DIGITS, _SHORT_DIGITS, _MAX_PLACES
cdef long long _MAX_DENOMINATOR


@cython.final
cdef class ShareReader:
    cdef Py_ssize_t cap
    cdef dict arrays  # pnum, pden: the NumPy arrays behind the views below
    cdef dict long_decimals  # a long decimal's float -> (num, den), or () when den is beyond 10**18
    cdef long long[::1] num
    cdef long long[::1] den

    cdef int grow(self, Py_ssize_t cap, Py_ssize_t n) except -1
    cdef int read(self, Lexer lex, Py_ssize_t d) except -1
    cdef bint read_short(self, Lexer lex, Py_ssize_t start, Py_ssize_t d) except -1
    cdef int read_long(self, Lexer lex, Py_ssize_t d) except -1
    cdef int read_fraction(self, Lexer lex, Py_ssize_t d) except -1
