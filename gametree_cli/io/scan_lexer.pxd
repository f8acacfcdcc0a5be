# The C types of scan_lexer.py (Cython's "augmenting .pxd"): scan_kernel.py cimports Lexer
# and calls its methods as C functions. The behaviour is all in scan_lexer.py.
# Exception values: methods return 0 (read) or 1 (bail: why says why); -1 means a Python
# exception (MemoryError). read_key, read_type and literal return a number, -1 for a bail.

cimport cython

cdef int _TYPE, _CHILDREN, _VALUE, _MOVE, _P, _EVAL, _COMMENT, _LABEL, _ROOT, _TITLE, _DESCRIPTION
cdef int _PLAYERS, _SUM, _BOUNDS, _GENERAL_SUM, _SCHEMA, _ID, _MAX, _MIN, _CHANCE
cdef int _OK, _FAILED, _W_MAX

@cython.final
cdef class Lexer:
    cdef readonly bytes data
    cdef const unsigned char[::1] s
    cdef Py_ssize_t length
    cdef public Py_ssize_t pos
    cdef public str why
    cdef const unsigned char[:, ::1] words  # _WORDS, _WORD_LENGTH
    cdef const unsigned char[::1] word_length
    # the last number: a decimal?, its value
    cdef bint decimal
    cdef long long int_value
    cdef double float_value
    # the last string: its contents [start, end), with escapes?, all ASCII?
    cdef Py_ssize_t start, end
    cdef bint escaped, ascii
    cdef object label  # the last move read: str, or None (null, or not kept)

    cdef int fail(self, str why) except -1
    cdef void skip_ws(self) noexcept
    cdef bint at(self, unsigned char c) noexcept
    cdef int literal(self) except? -2
    cdef int read_number(self, bint convert) except -1
    cdef int read_decimal(self, Py_ssize_t start, Py_ssize_t end) except -1
    cdef Py_ssize_t utf8_length(self, Py_ssize_t pos) noexcept
    cdef int read_string(self) except -1
    cdef object decoded(self)
    cdef bint same_word(self, int row, bint fold) noexcept
    cdef int read_key(self) except -2
    cdef int read_type(self) except -2
    cdef int read_label(self, bint keep) except -1
    cdef int read_id(self) except -1
    cdef int skip_value(self, Py_ssize_t used) except -1
